import { requestJson, tempDir, waitFor } from '@shared/testing';
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync } from 'node:fs';
import { resolve } from 'node:path';
import { panelLifecycleServer } from '../src/app/create-app';
import { TELEGRAM_GATEWAY } from '../src/app/telegram/telegram-gateway';
import { loginAsAdmin, RunningPanel, startPanel, TEST_ADMIN_PASSWORD } from './harness';
import { TelegramSimulator } from './telegram-simulator';

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function answer(url: string, path: string, token?: string): Promise<Answer> {
  const response = await requestJson<Record<string, unknown>>(url, path, {
    token,
  });
  return { status: response.status, body: response.body };
}

/** Makes the data directory refuse writes for a moment: a read-only bind mount as root, mode 0500 otherwise. */
function makeReadOnly(dir: string): () => void {
  if (process.getuid?.() === 0) {
    execFileSync('mount', ['--bind', dir, dir]);
    execFileSync('mount', ['-o', 'remount,ro,bind', dir]);
    return () => execFileSync('umount', [dir]);
  }
  chmodSync(dir, 0o500);
  return () => chmodSync(dir, 0o700);
}

describe('panel-api lifecycle: 503 while starting and while stopping, never a refused connection', () => {
  it('answers 503 (health paths with status starting, others in the error shape) from the first moment until it is ready', async () => {
    const lifecycle = panelLifecycleServer();
    await lifecycle.listen(0, '127.0.0.1');
    const url = lifecycle.url();
    let release!: () => void;
    const gate = new Promise<void>((done) => (release = done));
    const early: Answer[] = [];
    const starting = startPanel({
      lifecycle,
      beforeListen: async () => {
        // The app is created on the listener, its modules not yet started.
        early.push(await answer(url, '/readyz'), await answer(url, '/api/sign-tasks'));
        await gate;
      },
    });
    // Before the application even exists.
    early.push(await answer(url, '/readyz'), await answer(url, '/healthz'), await answer(url, '/health'), await answer(url, '/api/auth/me'));
    let panel: RunningPanel | undefined;
    try {
      while (early.length < 6) await new Promise((done) => setTimeout(done, 20));
      release();
      panel = await starting;
      expect(early.map((entry) => entry.status)).toEqual([503, 503, 503, 503, 503, 503]);
      expect(early[0].body).toEqual({ status: 'starting' });
      expect(early[1].body).toEqual({ status: 'starting' });
      expect(early[3].body).toEqual({
        statusCode: 503,
        error: 'Service Unavailable',
        message: expect.stringMatching(/starting/),
        code: 'service_unavailable',
      });
      expect(early[5].body).toMatchObject({
        statusCode: 503,
        message: expect.stringMatching(/starting/),
      });
      expect(panel.url).toBe(url);
      const ready = await answer(url, '/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body).toMatchObject({
        status: 'ready',
        read_only: false,
        data_directory: { writable: true, error: null },
      });
    } finally {
      release();
      await (panel ?? (await starting.catch(() => undefined)))?.close();
    }
  });

  it('reports the read-only state of the data directory on /readyz', async () => {
    const panel = await startPanel();
    try {
      const restore = makeReadOnly(panel.dataDir);
      try {
        // The last probe stands for 2 s: wait until a fresh one saw the read-only directory.
        let readOnly: Answer = { status: 0, body: {} };
        await waitFor(async () => {
          readOnly = await answer(panel.url, '/readyz');
          return readOnly.body['read_only'] === true;
        }, 15_000);
        expect(readOnly.status).toBe(200);
        expect(readOnly.body).toMatchObject({
          status: 'ready',
          read_only: true,
          data_directory: {
            writable: false,
            error: expect.stringMatching(/^E[A-Z]+$/),
          },
        });
        expect(JSON.stringify(readOnly.body)).not.toContain(panel.dataDir);
      } finally {
        restore();
      }
      await waitFor(async () => (await answer(panel.url, '/readyz')).body['read_only'] === false, 15_000);
      expect((await answer(panel.url, '/readyz')).body).toMatchObject({
        read_only: false,
        data_directory: { writable: true },
      });
    } finally {
      await panel.close();
    }
  });

  it('on shutdown: readiness 503 at once, new requests 503, a request in flight still gets its answer, then the port closes', async () => {
    const telegram = new TelegramSimulator();
    const panel = await startPanel({
      env: { MSGR_SESSION_MODE: 'string', APP_SHUTDOWN_DRAIN_SECONDS: '1' },
      overrides: [{ provide: TELEGRAM_GATEWAY, useValue: telegram }],
    });
    try {
      const token = await loginAsAdmin(panel);
      const user = telegram.createUser({ phone: '+31 600 000 077' });
      const imported = await requestJson(panel.url, '/api/accounts/import-session', {
        method: 'POST',
        token,
        body: {
          account_name: 'slow',
          session_string: telegram.issueSession(user.id),
        },
      });
      expect(imported.status).toBe(201);
      telegram.setLatency(1_500);
      const inFlight = answer(panel.url, '/api/accounts/slow/devices', token);
      await new Promise((done) => setTimeout(done, 300));
      const stopping = panel.shutDown();
      const readyz = await answer(panel.url, '/readyz');
      const other = await answer(panel.url, '/api/sign-tasks', token);
      expect(readyz).toEqual({
        status: 503,
        body: { status: 'shutting_down' },
      });
      expect(other).toEqual({
        status: 503,
        body: {
          statusCode: 503,
          error: 'Service Unavailable',
          message: expect.stringMatching(/shutting down/),
          code: 'service_unavailable',
        },
      });
      const finished = await inFlight;
      expect(finished.status).toBe(200);
      expect(finished.body).toMatchObject({
        account_name: 'slow',
        devices: expect.any(Array),
      });
      await stopping;
      await expect(fetch(`${panel.url}/healthz`)).rejects.toThrow();
    } finally {
      await panel.close();
    }
  });

  describe('as a process (SIGTERM)', () => {
    let child: ChildProcess | undefined;
    const dir = tempDir('panel-lifecycle-');

    afterAll(() => {
      child?.kill('SIGKILL');
      dir.remove();
    });

    it('answers 503 while it boots and drains, and exits 0', async () => {
      // Below Linux's ephemeral range (32768-60999), which the test processes' own connections take ports from.
      const port = 20_000 + Math.floor(Math.random() * 12_000);
      const url = `http://127.0.0.1:${port}`;
      child = spawn(process.execPath, ['-r', '@swc-node/register', resolve(__dirname, '../src/main.ts')], {
        env: {
          PATH: process.env['PATH'],
          SWC_NODE_PROJECT: resolve(__dirname, '../tsconfig.app.json'),
          HOST: '127.0.0.1',
          PORT: String(port),
          APP_DATA_DIR: dir.path,
          ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
          APP_UPDATE_CHECK: '0',
          APP_SHUTDOWN_DRAIN_SECONDS: '1',
          LOG_LEVEL: 'error',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const exited = new Promise<number | null>((done) => child?.once('exit', (code) => done(code)));
      let output = '';
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      // Boot: refused until the listener is up, then only 503 until ready, then 200.
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
      const readyz = await answer(url, '/readyz');
      const api = await answer(url, '/api/sign-tasks');
      expect(readyz).toEqual({
        status: 503,
        body: { status: 'shutting_down' },
      });
      expect(api.status).toBe(503);
      expect(api.body).toMatchObject({
        statusCode: 503,
        message: expect.stringMatching(/shutting down/),
      });
      expect(await exited).toBe(0);
      await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    }, 90_000);
  });
});
