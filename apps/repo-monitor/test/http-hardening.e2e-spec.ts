// Database-free: time bounds, connection caps and headers of the HTTP server (its process case pins SQLite itself).
import { spawn, ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openSlowClients, RawAnswer, rawRequest, SlowClients, tempDir } from '@shared/testing';
import { adminHeaders, loginAdmin, RunningMonitor, startMonitor, TEST_ADMIN_ENV } from './harness';

// Issue 29 items 1, 3, 4, 5 and 9 for repo-monitor: slow clients and connection floods, framing,
// private data in the browser's cache, the browser security headers, and raw router errors.
const REQUEST_TIMEOUT_S = 3;
/** Node checks open connections once a second; a loaded machine (2 cores, many test runs) adds its own delay. */
const CLOSE_SLACK_MS = 15_000;

async function healthStatus(url: string): Promise<number> {
  return fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5_000) }).then(
    (response) => response.status,
    () => 0,
  );
}

function expectFramingAndSniffing(answer: RawAnswer): void {
  expect(answer.headers['x-frame-options']).toBe('DENY');
  expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(answer.headers['referrer-policy']).toBe('no-referrer');
  expect(answer.headers['cross-origin-opener-policy']).toBe('same-origin');
}

describe('slow clients', () => {
  let monitor: RunningMonitor;
  let clients: SlowClients | undefined;

  beforeAll(async () => {
    monitor = await startMonitor({
      env: { ...TEST_ADMIN_ENV, MONITOR_HTTP_REQUEST_TIMEOUT: `${REQUEST_TIMEOUT_S}s`, MONITOR_HTTP_HEADERS_TIMEOUT: '2s', MONITOR_HTTP_MAX_CONNECTIONS_PER_ADDRESS: '60' },
    });
  });

  afterEach(() => clients?.destroy());
  afterAll(async () => monitor?.close());

  it('closes 200 slow login bodies within the request time while /healthz keeps answering', async () => {
    const groups = await Promise.all(
      ['127.0.0.51', '127.0.0.52', '127.0.0.53', '127.0.0.54'].map((localAddress) =>
        openSlowClients(monitor.url, 50, { path: '/api/v1/auth/login', byteEveryMs: 1_000, localAddress }),
      ),
    );
    clients = { connections: groups.flatMap((group) => group.connections), destroy: () => groups.forEach((group) => group.destroy()) };
    const bound = REQUEST_TIMEOUT_S * 1000 + CLOSE_SLACK_MS;
    const statuses: number[] = [];
    const deadline = Date.now() + bound + 5_000;
    while (clients.connections.some((connection) => connection.open) && Date.now() < deadline) {
      statuses.push(await healthStatus(monitor.url));
      await new Promise((done) => setTimeout(done, 100));
    }
    const closes = await Promise.all(clients.connections.map((connection) => connection.closed));
    expect(Math.min(...closes.map((close) => close.afterMs))).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_S * 1000 - 500);
    expect(Math.max(...closes.map((close) => close.afterMs))).toBeLessThan(bound);
    const answered = closes.filter((close) => close.answer !== '');
    expect(answered.length).toBeGreaterThan(0);
    for (const close of answered) expect(close.answer).toMatch(/^HTTP\/1\.1 408 [^]*"error_code":"validation_failed"/);
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((status) => status === 200)).toBe(true);
  });

  it("closes connections over one address's share at once", async () => {
    clients = await openSlowClients(monitor.url, 65, { path: '/api/v1/auth/login', byteEveryMs: 1_000, localAddress: '127.0.0.55' });
    const closes = await Promise.all(clients.connections.map((connection) => connection.closed));
    expect(closes.filter((close) => close.afterMs < 1_500)).toHaveLength(5);
    expect(closes.filter((close) => close.afterMs >= REQUEST_TIMEOUT_S * 1000 - 500)).toHaveLength(60);
  });
});

describe('at the file-descriptor limit (ulimit -n 256)', () => {
  const main = resolve(__dirname, '../../../dist/apps/repo-monitor/main.js');
  const dir = tempDir('monitor-fd-limit-');
  let child: ChildProcess | undefined;
  let flood: SlowClients[] = [];

  afterAll(() => {
    flood.forEach((clients) => clients.destroy());
    child?.kill('SIGKILL');
    dir.remove();
  });

  it('stays up under a connection flood and answers /healthz after it', async () => {
    expect(existsSync(main)).toBe(true); // `npx nx run repo-monitor:build` first (CI builds before the e2e step)
    // Below Linux's ephemeral range (32768-60999), which the test processes' own connections take ports from.
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const url = `http://127.0.0.1:${port}`;
    child = spawn('sh', ['-c', `ulimit -n 256 && exec "${process.execPath}" "${main}" serve`], {
      env: {
        PATH: process.env['PATH'],
        MONITOR_HTTP_ADDR: `127.0.0.1:${port}`,
        MONITOR_DATABASE_DRIVER: 'sqlite',
        MONITOR_DATABASE_URL: `file:${join(dir.path, 'repo-monitor.db')}`,
        MONITOR_LOG_LEVEL: 'warn',
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
      if (exit !== undefined || Date.now() > bootDeadline) throw new Error(`repo-monitor did not start: ${output}`);
      await new Promise((done) => setTimeout(done, 100));
    }
    // More connections than the process has descriptors: accepting fails with EMFILE while they are held.
    flood = await Promise.all(
      [61, 62, 63, 64, 65, 66].map((host) => openSlowClients(url, 100, { path: '/api/v1/auth/login', byteEveryMs: 500, localAddress: `127.0.0.${host}` })),
    );
    expect(flood.flatMap((clients) => clients.connections).filter((connection) => connection.open).length).toBeGreaterThan(150);
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
  });
});

describe('security headers on every answer', () => {
  const dir = tempDir('monitor-headers-');
  const inlineScript = "document.documentElement.dataset.scheme = 'light';";
  let monitor: RunningMonitor;
  let session: Awaited<ReturnType<typeof loginAdmin>>;

  beforeAll(async () => {
    const web = join(dir.path, 'web');
    mkdirSync(join(web, 'assets'), { recursive: true });
    writeFileSync(join(web, 'index.html'), `<!doctype html><html><head><script>${inlineScript}</script></head><body></body></html>`);
    writeFileSync(join(web, 'assets/index-abc.js'), 'console.log(1);');
    monitor = await startMonitor({
      env: { ...TEST_ADMIN_ENV, MONITOR_HTTP_TRUST_PROXY: '127.0.0.1', MONITOR_VCS_WEB_URL: 'https://github.example.com' },
      webRoot: web,
    });
    session = await loginAdmin(monitor);
  });

  afterAll(async () => {
    await monitor?.close();
    dir.remove();
  });

  it.each([
    ['a console API answer', '/api/v1/dashboard', true],
    ['a console API refusal', '/api/v1/dashboard', false],
    ['an unknown API path', '/api/v1/no-such-thing', true],
    ['OAuth metadata (well-known)', '/.well-known/oauth-authorization-server', false],
    ['protected-resource metadata (well-known)', '/.well-known/oauth-protected-resource/mcp', false],
    ['the OAuth authorize endpoint', '/oauth/authorize', false],
    ['the MCP endpoint', '/mcp', false],
    ['the health probe', '/healthz', false],
    ['the OpenAPI document', '/openapi.json', false],
  ])('%s: no-store, not frameable, the API policy', async (_name, path, signedIn) => {
    const answer = await rawRequest(monitor.url, path, { headers: signedIn ? adminHeaders(session) : {} });
    expect(answer.headers['cache-control']).toBe('no-store');
    expectFramingAndSniffing(answer);
    expect(answer.headers['content-security-policy']).toContain("default-src 'none'");
  });

  it('the console page: revalidated, its inline script by hash, forms to GitHub allowed', async () => {
    const page = await rawRequest(monitor.url, '/');
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toBe('no-cache');
    expectFramingAndSniffing(page);
    const policy = String(page.headers['content-security-policy']);
    expect(policy).toContain(`script-src 'self' 'sha256-${createHash('sha256').update(inlineScript).digest('base64')}';`);
    expect(policy).toContain("form-action 'self' https://github.example.com;");
    expect(policy).toContain("connect-src 'self'");
    expect((await rawRequest(monitor.url, '/assets/index-abc.js')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('HSTS only for HTTPS requests from a trusted proxy; Swagger UI keeps its own policy', async () => {
    expect((await rawRequest(monitor.url, '/healthz', { headers: { 'x-forwarded-proto': 'https' } })).headers['strict-transport-security']).toBe('max-age=31536000');
    expect((await rawRequest(monitor.url, '/healthz')).headers['strict-transport-security']).toBeUndefined();
    const docs = await rawRequest(monitor.url, '/docs/');
    expect(docs.status).toBe(200);
    expect(docs.headers['content-security-policy']).toContain("script-src 'self';");
  });

  it('dot segments answer 404 and bad percent-escapes 400, both in the error shape', async () => {
    for (const path of ['/docs/../main.js', '/docs/%2E%2E/main.js', '/api/v1/../healthz']) {
      const answer = await rawRequest(monitor.url, path);
      expect([path, answer.status, JSON.parse(answer.body)]).toEqual([path, 404, { error_code: 'not_found', message: expect.any(String) }]);
    }
    const bad = await rawRequest(monitor.url, '/assets/%c0%ae%c0%ae/x');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toEqual({ error_code: 'validation_failed', message: expect.any(String) });
    expect(bad.body).not.toContain('FST_ERR');
    expectFramingAndSniffing(bad);
  });
});
