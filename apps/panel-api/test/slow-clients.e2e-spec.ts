// Database-free: request, header and idle time bounds and connection caps of the HTTP server.
import { spawn, ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openSlowClients, SlowClients, tempDir } from '@shared/testing';
import { loginAsAdmin, RunningPanel, startPanel, TEST_ADMIN_PASSWORD } from './harness';

// Issue 29 item 1: slow bodies on the public login route used to stay open forever and, by the
// thousands, exhausted the process's file descriptors. Bounds here are short (set by configuration).
const REQUEST_TIMEOUT_S = 3;
/** Node checks open connections once a second; a loaded machine (2 cores, many test runs) adds its own delay. */
const CLOSE_SLACK_MS = 15_000;

async function healthStatus(url: string): Promise<number> {
  return fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5_000) }).then(
    (response) => response.status,
    () => 0,
  );
}

/** Polls /healthz until every connection of `clients` is closed; returns every status seen. */
async function healthWhileOpen(url: string, clients: SlowClients, boundMs: number): Promise<number[]> {
  const statuses: number[] = [];
  const deadline = Date.now() + boundMs;
  while (clients.connections.some((connection) => connection.open) && Date.now() < deadline) {
    statuses.push(await healthStatus(url));
    await new Promise((done) => setTimeout(done, 100));
  }
  return statuses;
}

describe('slow clients (timeouts and connection caps)', () => {
  describe('with short request and header times', () => {
    let panel: RunningPanel;
    let clients: SlowClients | undefined;

    beforeAll(async () => {
      panel = await startPanel({
        env: { APP_UPDATE_CHECK: '0', APP_HTTP_REQUEST_TIMEOUT_SECONDS: String(REQUEST_TIMEOUT_S), APP_HTTP_HEADERS_TIMEOUT_SECONDS: '2' },
      });
    });

    afterEach(() => clients?.destroy());
    afterAll(async () => panel?.close());

    it('closes 200 slow login bodies within the request time while /healthz keeps answering', async () => {
      const started = Date.now();
      // From four loopback addresses: 50 each stays under the per-address cap, so the time bound is what closes them.
      const groups = await Promise.all(
        ['127.0.0.11', '127.0.0.12', '127.0.0.13', '127.0.0.14'].map((localAddress) =>
          openSlowClients(panel.url, 50, { path: '/api/auth/login', byteEveryMs: 1_000, localAddress }),
        ),
      );
      clients = { connections: groups.flatMap((group) => group.connections), destroy: () => groups.forEach((group) => group.destroy()) };
      const bound = REQUEST_TIMEOUT_S * 1000 + CLOSE_SLACK_MS;
      const statuses = await healthWhileOpen(panel.url, clients, bound + 5_000);
      const closes = await Promise.all(clients.connections.map((connection) => connection.closed));
      expect(closes).toHaveLength(200);
      // Held for the request time (not refused at once), then closed by the service within the bound.
      expect(Math.min(...closes.map((close) => close.afterMs))).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_S * 1000 - 500);
      expect(Date.now() - started).toBeLessThan(bound + 5_000);
      expect(Math.max(...closes.map((close) => close.afterMs))).toBeLessThan(bound);
      // The 408 in the API's error shape (when the socket could still be written to).
      const answered = closes.filter((close) => close.answer !== '');
      expect(answered.length).toBeGreaterThan(0);
      for (const close of answered) expect(close.answer).toMatch(/^HTTP\/1\.1 408 [^]*"code":"request_refused"/);
      expect(statuses.length).toBeGreaterThan(0);
      expect(statuses.every((status) => status === 200)).toBe(true);
      expect(await healthStatus(panel.url)).toBe(200);
    });

    it('closes connections that send their headers one byte at a time within the header time', async () => {
      clients = await openSlowClients(panel.url, 20, { path: '/api/auth/login', byteEveryMs: 500, slowHeaders: true, localAddress: '127.0.0.15' });
      const closes = await Promise.all(clients.connections.map((connection) => connection.closed));
      expect(Math.max(...closes.map((close) => close.afterMs))).toBeLessThan(2_000 + CLOSE_SLACK_MS);
      expect(Math.min(...closes.map((close) => close.afterMs))).toBeGreaterThanOrEqual(1_500);
    });

    it('keeps an event stream open past the request time (streams have their own rules)', async () => {
      const token = await loginAsAdmin(panel);
      const controller = new AbortController();
      const response = await fetch(`${panel.url}/api/events/sign-history?token=${encodeURIComponent(token)}`, { signal: controller.signal });
      expect(response.status).toBe(200);
      if (!response.body) throw new Error('the stream has no body');
      const reader = response.body.getReader();
      let text = '';
      const deadline = Date.now() + (REQUEST_TIMEOUT_S + 2) * 1000;
      try {
        // Read past the request time plus a connection check: the stream must still deliver.
        while (Date.now() < deadline) {
          const chunk = await Promise.race([reader.read(), new Promise<'wait'>((done) => setTimeout(() => done('wait'), 500))]);
          if (chunk === 'wait') continue;
          if (chunk.done) throw new Error(`the stream ended after ${text.length} bytes`);
          text += new TextDecoder().decode(chunk.value);
        }
        expect(text).toContain('event: ready');
      } finally {
        controller.abort();
      }
    });
  });

  describe('with connection caps', () => {
    let panel: RunningPanel;
    let clients: SlowClients | undefined;

    beforeAll(async () => {
      panel = await startPanel({
        env: {
          APP_UPDATE_CHECK: '0',
          APP_HTTP_REQUEST_TIMEOUT_SECONDS: String(REQUEST_TIMEOUT_S),
          APP_HTTP_MAX_CONNECTIONS: '20',
          APP_HTTP_MAX_CONNECTIONS_PER_ADDRESS: '5',
        },
      });
    });

    afterEach(() => clients?.destroy());
    afterAll(async () => panel?.close());

    it('closes connections over one address\'s share at once, and other addresses still get through', async () => {
      clients = await openSlowClients(panel.url, 9, { path: '/api/auth/login', byteEveryMs: 1_000, localAddress: '127.0.0.21' });
      const closes = await Promise.all(clients.connections.map((connection) => connection.closed));
      const refused = closes.filter((close) => close.afterMs < 1_500);
      expect(refused).toHaveLength(4);
      expect(refused.every((close) => close.answer === '')).toBe(true);
      expect(closes.filter((close) => close.afterMs >= REQUEST_TIMEOUT_S * 1000 - 500)).toHaveLength(5);
    });

    it('closes connections over the total cap at once, and answers again once they are gone', async () => {
      const groups = await Promise.all(
        ['127.0.0.31', '127.0.0.32', '127.0.0.33', '127.0.0.34', '127.0.0.35'].map((localAddress) =>
          openSlowClients(panel.url, 5, { path: '/api/auth/login', byteEveryMs: 1_000, localAddress }),
        ),
      );
      clients = { connections: groups.flatMap((group) => group.connections), destroy: () => groups.forEach((group) => group.destroy()) };
      const closes = await Promise.all(clients.connections.map((connection) => connection.closed));
      expect(closes.filter((close) => close.afterMs < 1_500).length).toBeGreaterThanOrEqual(5);
      expect(closes.filter((close) => close.afterMs >= REQUEST_TIMEOUT_S * 1000 - 500).length).toBeLessThanOrEqual(20);
      expect(await healthStatus(panel.url)).toBe(200);
    });
  });

  describe('at the file-descriptor limit (ulimit -n 256)', () => {
    const main = resolve(__dirname, '../../../dist/apps/panel-api/main.js');
    const dir = tempDir('panel-fd-limit-');
    let child: ChildProcess | undefined;
    let flood: SlowClients[] = [];

    afterAll(() => {
      flood.forEach((clients) => clients.destroy());
      child?.kill('SIGKILL');
      dir.remove();
    });

    it('stays up under a connection flood and answers /healthz after it', async () => {
      expect(existsSync(main)).toBe(true); // `npx nx run panel-api:build` first (CI builds before the e2e step)
      // Below Linux's ephemeral range (32768-60999), which the test processes' own connections take ports from.
      const port = 20_000 + Math.floor(Math.random() * 12_000);
      const url = `http://127.0.0.1:${port}`;
      child = spawn('sh', ['-c', `ulimit -n 256 && exec "${process.execPath}" "${main}"`], {
        env: {
          PATH: process.env['PATH'],
          HOST: '127.0.0.1',
          PORT: String(port),
          APP_DATA_DIR: join(dir.path, 'data'),
          ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
          APP_UPDATE_CHECK: '0',
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      let exit: number | null | undefined;
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('exit', (code) => (exit = code));
      const bootDeadline = Date.now() + 60_000;
      while ((await fetch(`${url}/readyz`).then((r) => r.status, () => 0)) !== 200) {
        if (exit !== undefined || Date.now() > bootDeadline) throw new Error(`panel-api did not start: ${output}`);
        await new Promise((done) => setTimeout(done, 100));
      }
      // 600 connections from six addresses (under the default per-address cap): more than the
      // process has descriptors, so accepting fails with EMFILE while they are held.
      flood = await Promise.all(
        [41, 42, 43, 44, 45, 46].map((host) => openSlowClients(url, 100, { path: '/api/auth/login', byteEveryMs: 500, localAddress: `127.0.0.${host}` })),
      );
      const held = flood.flatMap((clients) => clients.connections).filter((connection) => connection.open).length;
      expect(held).toBeGreaterThan(150);
      await new Promise((done) => setTimeout(done, 2_000));
      expect(exit).toBeUndefined();
      flood.forEach((clients) => clients.destroy());
      const deadline = Date.now() + 30_000;
      let status = 0;
      while (status !== 200 && Date.now() < deadline) {
        status = await healthStatus(url);
        if (status !== 200) await new Promise((done) => setTimeout(done, 200));
      }
      expect([status, exit]).toEqual([200, undefined]);
      const login = await fetch(`${url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: TEST_ADMIN_PASSWORD }),
      });
      expect(login.status).toBe(200);
    });
  });
});
