import { requestJson, tempDir } from '@shared/testing';
import { ChildProcess, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { monitorLifecycleServer } from '../src/app/create-app';
import { RunningMonitor, startMonitor } from './harness';

interface Answer {
  status: number;
  body: unknown;
}

async function answer(url: string, path: string): Promise<Answer> {
  const response = await requestJson(url, path);
  return { status: response.status, body: response.body };
}

const UNAVAILABLE = {
  error_code: 'service_unavailable',
  message: expect.any(String),
};

describe('repo-monitor lifecycle: 503 while starting and while stopping, never a refused connection', () => {
  it('answers 503 from the first moment until it is ready, and again from the start of a shutdown', async () => {
    const lifecycle = monitorLifecycleServer();
    await lifecycle.listen(0, '127.0.0.1');
    const url = lifecycle.url();
    const early: Answer[] = [await answer(url, '/readyz'), await answer(url, '/api/v1/auth/session')];
    let monitor: RunningMonitor | undefined;
    try {
      monitor = await startMonitor({
        env: { MONITOR_HTTP_SHUTDOWN_DRAIN: '500ms' },
        lifecycle,
        beforeListen: async () => {
          early.push(await answer(url, '/healthz'), await answer(url, '/api/v1/auth/session'));
        },
      });
      expect(early).toEqual([
        { status: 503, body: { status: 'starting' } },
        {
          status: 503,
          body: { ...UNAVAILABLE, message: expect.stringMatching(/starting/) },
        },
        { status: 503, body: { status: 'starting' } },
        { status: 503, body: UNAVAILABLE },
      ]);
      expect(monitor.url).toBe(url);
      expect((await answer(url, '/readyz')).status).toBe(200);

      const stopping = monitor.shutDown();
      expect(await answer(url, '/readyz')).toEqual({
        status: 503,
        body: { status: 'shutting_down' },
      });
      expect(await answer(url, '/api/v1/auth/session')).toEqual({
        status: 503,
        body: {
          ...UNAVAILABLE,
          message: expect.stringMatching(/shutting down/),
        },
      });
      await stopping;
      await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    } finally {
      await monitor?.close();
      await lifecycle.close();
    }
  });

  describe('as a process (SIGTERM)', () => {
    let child: ChildProcess | undefined;
    const dir = tempDir('monitor-lifecycle-');

    afterAll(() => {
      child?.kill('SIGKILL');
      dir.remove();
    });

    it('answers 503 while it boots and drains, and exits 0', async () => {
      // Below Linux's ephemeral range (32768-60999), which the test processes' own connections take ports from.
      const port = 20_000 + Math.floor(Math.random() * 12_000);
      const url = `http://127.0.0.1:${port}`;
      child = spawn(process.execPath, ['-r', '@swc-node/register', resolve(__dirname, '../src/main.ts'), 'serve'], {
        env: {
          PATH: process.env['PATH'],
          SWC_NODE_PROJECT: resolve(__dirname, '../tsconfig.app.json'),
          MONITOR_HTTP_ADDR: `127.0.0.1:${port}`,
          MONITOR_DATABASE_DRIVER: 'sqlite',
          MONITOR_DATABASE_URL: `file:${join(dir.path, 'repo-monitor.db')}`,
          MONITOR_HTTP_SHUTDOWN_DRAIN: '1s',
          MONITOR_LOG_LEVEL: 'error',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const exited = new Promise<number | null>((done) => child?.once('exit', (code) => done(code)));
      let output = '';
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const boot: number[] = [];
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        const status = await fetch(`${url}/readyz`).then(
          (response) => response.status,
          () => 0,
        );
        if (status !== 0 || boot.length > 0) boot.push(status);
        if (status === 200) break;
        await new Promise((done) => setTimeout(done, 5));
      }
      expect([boot[boot.length - 1], output]).toEqual([200, expect.stringContaining('listening on')]);
      expect(boot.slice(0, -1).every((status) => status === 503)).toBe(true);
      expect(boot.length).toBeGreaterThan(1);

      child.kill('SIGTERM');
      await new Promise((done) => setTimeout(done, 200));
      expect(await answer(url, '/readyz')).toEqual({
        status: 503,
        body: { status: 'shutting_down' },
      });
      expect(await answer(url, '/api/v1/auth/session')).toEqual({
        status: 503,
        body: {
          ...UNAVAILABLE,
          message: expect.stringMatching(/shutting down/),
        },
      });
      expect(await exited).toBe(0);
      await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    }, 90_000);
  });
});
