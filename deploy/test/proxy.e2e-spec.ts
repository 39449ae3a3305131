// The reverse proxy, for real: Debian's nginx runs deploy/proxy/nginx.conf (only the two upstream
// addresses and the listen port rewritten) in front of both built services, and every check goes
// through it with the Host header a browser or GitHub would send.
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { IncomingHttpHeaders, request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { nginxBinary } from './nginx';

const root = join(__dirname, '../..');
const ADMIN_PASSWORD = 'proxy-test-admin-password';
const WEBHOOK_SECRET = 'proxy-test-webhook-secret';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function replaceOnce(text: string, search: string, replacement: string): string {
  const count = text.split(search).length - 1;
  if (count === 0) throw new Error(`deploy/proxy/nginx.conf no longer contains "${search}"`);
  return text.split(search).join(replacement);
}

/** deploy/proxy/nginx.conf with the compose service names and port 80 replaced by local ports. */
function renderProxyConfig(ports: { listen: number; panel: number; monitor: number }): string {
  let config = readFileSync(join(root, 'deploy/proxy/nginx.conf'), 'utf8');
  config = replaceOnce(config, 'server panel-api:8000;', `server 127.0.0.1:${ports.panel};`);
  config = replaceOnce(config, 'server repo-monitor:8080;', `server 127.0.0.1:${ports.monitor};`);
  config = replaceOnce(config, 'listen 80 default_server;', `listen 127.0.0.1:${ports.listen} default_server;`);
  config = replaceOnce(config, 'listen 80;', `listen 127.0.0.1:${ports.listen};`);
  return config;
}

interface ProxyResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

function send(
  port: number,
  options: { host: string; method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<ProxyResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: { host: options.host, ...(options.headers ?? {}) },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

interface Service {
  name: string;
  child: ChildProcess;
  output: () => string;
}

function startProcess(name: string, command: string, args: string[], env: Record<string, string>, cwd = root): Service {
  let output = '';
  const child = spawn(command, args, { cwd, env: { PATH: process.env['PATH'] ?? '', ...env } });
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  return { name, child, output: () => output };
}

async function waitUntil(service: Service, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (service.child.exitCode !== null) throw new Error(`${service.name} exited with ${service.child.exitCode}:\n${service.output()}`);
    if (await probe().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${service.name} did not come up:\n${service.output()}`);
}

async function directStatus(port: number, path: string): Promise<number> {
  return (await send(port, { host: `127.0.0.1:${port}`, path })).status;
}

describe('reverse proxy (deploy/proxy/nginx.conf in front of both services)', () => {
  const folders: string[] = [];
  const services: Service[] = [];
  let proxyPort = 0;
  const panelHost = 'panel.example.test';
  const monitorHost = 'monitor.example.test';

  beforeAll(async () => {
    const nginx = nginxBinary();
    const [panelPort, monitorPort] = [await freePort(), await freePort()];
    proxyPort = await freePort();

    const work = mkdtempSync(join(tmpdir(), 'proxy-e2e-'));
    folders.push(work);
    mkdirSync(join(work, 'panel-data'));
    mkdirSync(join(work, 'monitor-data'));
    mkdirSync(join(work, 'nginx'));

    const panel = startProcess('panel-api', process.execPath, [join(root, 'dist/apps/panel-api/main.js')], {
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(panelPort),
      APP_DATA_DIR: join(work, 'panel-data'),
      ADMIN_PASSWORD,
      APP_TRUST_PROXY: 'true',
      APP_UPDATE_CHECK: '0',
      LOG_LEVEL: 'warn',
    });
    const monitor = startProcess('repo-monitor', process.execPath, [join(root, 'dist/apps/repo-monitor/main.js'), 'serve'], {
      NODE_ENV: 'production',
      MONITOR_HTTP_ADDR: `127.0.0.1:${monitorPort}`,
      MONITOR_DATABASE_URL: `file:${join(work, 'monitor-data', 'repo-monitor.db')}`,
      MONITOR_VCS_WEBHOOK_SECRET: WEBHOOK_SECRET,
      MONITOR_HTTP_TRUST_PROXY: 'true',
      MONITOR_UPDATE_CHECK: 'false',
      LOG_LEVEL: 'warn',
    });
    services.push(panel, monitor);

    const configPath = join(work, 'nginx', 'nginx.conf');
    // Debian's nginx keeps its temp files under /var/lib/nginx, which only root may write; CI runners
    // are not root, so the temp files go to the test's own folder (http-level, so not settable by -g).
    const tempPaths = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
      .map((kind) => `    ${kind}_temp_path ${join(work, 'nginx', `${kind}_temp`)};`)
      .join('\n');
    const config = replaceOnce(renderProxyConfig({ listen: proxyPort, panel: panelPort, monitor: monitorPort }), 'http {\n', `http {\n${tempPaths}\n`);
    writeFileSync(configPath, config);
    const directives = `daemon off; pid ${join(work, 'nginx', 'nginx.pid')};`;
    const nginxArgs = ['-e', 'stderr', '-p', join(work, 'nginx'), '-c', configPath, '-g', directives];
    // The config logs to /dev/stdout as in the container; Node's stdio pipes are sockets, which
    // /dev/stdout cannot be opened on, so nginx writes to a plain file here.
    const logPath = join(work, 'nginx', 'output.log');
    const log = openSync(logPath, 'a');
    try {
      execFileSync(nginx, ['-t', '-q', ...nginxArgs], { stdio: ['ignore', log, log] });
    } catch {
      throw new Error(`nginx -t refused the rendered config:\n${readFileSync(logPath, 'utf8')}`);
    }
    const nginxProcess = spawn(nginx, nginxArgs, { stdio: ['ignore', log, log] });
    closeSync(log);
    const proxy: Service = { name: 'nginx', child: nginxProcess, output: () => readFileSync(logPath, 'utf8') };
    services.push(proxy);

    await waitUntil(panel, async () => (await directStatus(panelPort, '/readyz')) === 200);
    await waitUntil(monitor, async () => (await directStatus(monitorPort, '/readyz')) === 200);
    await waitUntil(proxy, async () => (await send(proxyPort, { host: panelHost, path: '/healthz' })).status === 200);
  }, 300_000);

  afterAll(async () => {
    for (const service of services) service.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const service of services) if (service.child.exitCode === null) service.child.kill('SIGKILL');
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  it('routes /healthz by host name to each service and refuses unknown hosts', async () => {
    const panel = await send(proxyPort, { host: panelHost, path: '/healthz' });
    const monitor = await send(proxyPort, { host: monitorHost, path: '/healthz' });
    expect(panel.status).toBe(200);
    expect(monitor.status).toBe(200);
    // Each OpenAPI document names its own service, so the routing really went to two places.
    const panelApi = JSON.parse((await send(proxyPort, { host: panelHost, path: '/openapi.json' })).body) as { info: { title: string } };
    const monitorApi = JSON.parse((await send(proxyPort, { host: monitorHost, path: '/openapi.json' })).body) as { info: { title: string } };
    expect(panelApi.info.title).not.toEqual(monitorApi.info.title);
    expect((await send(proxyPort, { host: 'other.example.test', path: '/healthz' })).status).toBe(404);
  });

  it('logs in to panel-api through the proxy', async () => {
    const response = await send(proxyPort, {
      host: panelHost,
      method: 'POST',
      path: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    expect(response.status).toBe(200);
    const body = JSON.parse(response.body) as { access_token?: unknown; token_type?: unknown };
    expect(typeof body.access_token).toBe('string');
  });

  it('streams server-sent events through the proxy without buffering', async () => {
    const login = await send(proxyPort, {
      host: panelHost,
      method: 'POST',
      path: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    expect(login.status).toBe(200);
    const token = (JSON.parse(login.body) as { access_token: string }).access_token;

    const firstEvent = await new Promise<{ status: number; contentType?: string; text: string; streamOpen: boolean }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: proxyPort,
          path: `/api/events/sign-history?token=${encodeURIComponent(token)}`,
          headers: { host: panelHost, accept: 'text/event-stream' },
        },
        (res) => {
          let text = '';
          const timer = setTimeout(() => {
            req.destroy();
            resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'], text, streamOpen: true });
          }, 5000);
          res.setEncoding('utf8');
          res.on('end', () => {
            clearTimeout(timer);
            resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'], text, streamOpen: false });
          });
          res.on('data', (chunk: string) => {
            text += chunk;
            if (/event: ready\r?\n/.test(text)) {
              clearTimeout(timer);
              req.destroy();
              resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'], text, streamOpen: true });
            }
          });
        },
      );
      req.on('error', (error) => {
        if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error);
      });
      req.end();
    });
    expect(firstEvent.status).toBe(200);
    expect(firstEvent.contentType).toMatch(/^text\/event-stream/);
    expect(firstEvent.text).toMatch(/event: ready/);
    // The event came through while the stream was open, not when it ended. No bound on its time: a
    // starved machine stretches it, and nginx 1.22 passes an event stream's small writes at once
    // even with proxy_buffering on (tried with a stand-in upstream), so a time would prove no more.
    expect(firstEvent.streamOpen).toBe(true);
  });

  it('keeps the event stream and its token out of the access log', async () => {
    const canary = `canary-${randomUUID()}`;
    await send(proxyPort, { host: panelHost, path: `/api/events/sign-history?token=${canary}` });
    await send(proxyPort, { host: panelHost, path: `/openapi.json?marker=${canary}` });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const log = services.find((service) => service.name === 'nginx')?.output() ?? '';
    expect(log).toContain('"GET /openapi.json HTTP/1.1" 200');
    expect(log).not.toContain('/api/events/');
    expect(log).not.toContain(canary);
  });

  it('accepts a signed GitHub webhook at repo-monitor', async () => {
    const body = JSON.stringify({ zen: 'Keep it logically awesome.', hook_id: 1 });
    const signature = `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex')}`;
    const accepted = await send(proxyPort, {
      host: monitorHost,
      method: 'POST',
      path: '/webhooks/github',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'ping',
        'x-github-delivery': randomUUID(),
        'x-hub-signature-256': signature,
      },
      body,
    });
    expect(accepted.status).toBe(202);
  });

  it("refuses panel-api bodies over panel-api's own limits at the proxy, and passes those within them", async () => {
    const post = (path: string, bytes: number) =>
      send(proxyPort, { host: panelHost, method: 'POST', path, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pad: 'x'.repeat(bytes) }) });
    // 413 from nginx (HTML) above the limit; within it the request reaches panel-api (401 or 400 in its JSON shape).
    expect((await post('/api/auth/login', 5 * 1024)).status).toBe(413);
    expect((await post('/api/auth/login', 1024)).status).toBe(400);
    expect((await post('/api/ops/backup/webdav/test', 100 * 1024)).status).toBe(413);
    expect((await post('/api/sign-tasks', 100 * 1024)).status).toBe(401);
    expect((await post('/api/sign-tasks', 600 * 1024)).status).toBe(413);
    expect((await post('/api/config/import-preview', 3 * 1024 * 1024)).status).toBe(401);
    expect((await post('/api/config/import/all', 5 * 1024 * 1024)).status).toBe(413);
    expect((await post('/api/config/import-previewx', 100 * 1024)).status).toBe(413);
  });

  it('refuses webhook bodies over 1 MiB at the proxy', async () => {
    const tooLarge = Buffer.alloc(1024 * 1024 + 1, 'a');
    const refused = await send(proxyPort, {
      host: monitorHost,
      method: 'POST',
      path: '/webhooks/github',
      headers: { 'content-type': 'application/json', 'x-github-event': 'ping', 'x-github-delivery': randomUUID() },
      body: tooLarge,
    });
    expect(refused.status).toBe(413);
  });
});
