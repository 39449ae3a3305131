// Shared helpers for the repo-monitor benchmark and crash test: start the built service, sign deliveries.
import { execFileSync, spawn } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import http from 'node:http';
import { createServer } from 'node:net';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The built service; `REPO_MONITOR_MAIN=<other main.js>` runs another build (e.g. a copy of the base commit's dist for "before"). */
export const MAIN = process.env.REPO_MONITOR_MAIN ? resolve(process.env.REPO_MONITOR_MAIN) : join(ROOT, 'dist', 'apps', 'repo-monitor', 'main.js');
export const INBOUND_SECRET = 'bench-inbound-secret';

export function requireBuild() {
  if (!existsSync(MAIN)) {
    console.error(`missing ${MAIN}: run \`npx nx build repo-monitor\` first`);
    process.exit(2);
  }
}

export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export function sign(body, secret = INBOUND_SECRET) {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * Starts `repo-monitor serve` from dist; resolves once /readyz answers 200. `options.port` restarts a
 * killed instance on its old port (behind a proxy); `options.cwd` gives it its own working folder.
 */
export async function startService(env, options = {}) {
  const port = options.port ?? (await freePort());
  // REPO_MONITOR_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the service under the benchmark.
  const nodeArgs = (process.env.REPO_MONITOR_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, MAIN, 'serve'], {
    env: { PATH: process.env.PATH, MONITOR_HTTP_ADDR: `127.0.0.1:${port}`, MONITOR_LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
    cwd: options.cwd,
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited (${child.exitCode}): ${stderr}`);
    try {
      const response = await fetch(`${url}/readyz`);
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`service not ready: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, child, port, stop: () => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', resolve), child.kill('SIGTERM')))) };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** POSTs one signed delivery; resolves with the status code (0 when the connection failed). */
export async function postDelivery(baseUrl, event, body, deliveryId, secret = INBOUND_SECRET) {
  return (await sendDelivery(baseUrl, event, body, deliveryId, { secret })).status;
}

/**
 * POSTs one signed delivery; resolves with the status code (0 when the connection failed) and the
 * answer's `status` field (`accepted`, `duplicate`) when there is one. `host` sets the Host header
 * (nginx routes repo-monitor by a `monitor.*` name).
 */
export function sendDelivery(baseUrl, event, body, deliveryId, { secret = INBOUND_SECRET, host } = {}) {
  const url = new URL('/webhooks/github', baseUrl);
  return new Promise((resolve) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-github-event': event,
          'x-github-delivery': deliveryId,
          'x-hub-signature-256': sign(body, secret),
          ...(host ? { host } : {}),
        },
      },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => {
          let answer;
          try {
            answer = JSON.parse(Buffer.concat(chunks).toString('utf8')).status;
          } catch {
            // not JSON (e.g. nginx's 502 page)
          }
          resolve({ status: response.statusCode ?? 0, answer });
        });
        response.on('error', () => resolve({ status: 0 }));
      },
    );
    request.on('error', () => resolve({ status: 0 }));
    request.end(body);
  });
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export function issuePayload(number, title) {
  return JSON.stringify({
    action: 'opened',
    installation: { id: 1 },
    repository: { id: 500 + (number % 5), full_name: `bench/repo-${number % 5}`, private: false, html_url: `https://github.com/bench/repo-${number % 5}` },
    issue: { number, title, state: 'open', html_url: `https://github.com/bench/repo-${number % 5}/issues/${number}`, user: { login: 'bench' }, updated_at: '2024-05-01T10:00:00Z' },
    sender: { login: 'bench' },
  });
}

/**
 * A minimal Bot API (sendMessage) and webhook receiver that record what arrives. The webhook receiver
 * is idempotent as Standard Webhooks describe: a webhook-id seen before is acknowledged, not applied again.
 */
export async function startReceivers(botToken) {
  const telegram = [];
  const webhooks = [];
  const applied = new Set();
  const port = await freePort();
  let messageId = 0;
  const server = http.createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (request.url === `/bot${botToken}/sendMessage`) {
        const body = JSON.parse(text);
        telegram.push(body.text);
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ ok: true, result: { message_id: ++messageId, date: Math.floor(Date.now() / 1000), chat: { id: Number(body.chat_id), type: 'private' }, text: body.text } }));
        return;
      }
      if (request.url === '/hook') {
        const id = request.headers['webhook-id'];
        webhooks.push({ id, text });
        if (!applied.has(id)) applied.add(id);
        response.writeHead(200);
        response.end('ok');
        return;
      }
      response.writeHead(404);
      response.end();
    });
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}`, telegram, webhooks, applied, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** The issue numbers named in notification texts by `titlePattern` (one capture group). */
export function numbersIn(texts, titlePattern) {
  return texts.map((text) => titlePattern.exec(text)?.[1]).filter(Boolean).map(Number);
}

/** The outbound delivery id (webhook-id) repo-monitor derives from an outbox idempotency key. */
export function outboundDeliveryId(idempotencyKey) {
  const hex = createHash('sha256').update(idempotencyKey).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export function countBy(values) {
  const counts = new Map();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}

function replaceOnce(text, search, replacement) {
  if (!text.includes(search)) throw new Error(`deploy/proxy/nginx.conf no longer contains "${search}"`);
  return text.split(search).join(replacement);
}

/**
 * Runs deploy/proxy/nginx.conf (as deploy/test/proxy.e2e-spec.ts does) with the repo_monitor upstream
 * (and the panel_api one, for tools/bench/panel-cluster.mjs) rewritten to the given local ports, so
 * nginx balances round-robin across them. Requests must carry a `monitor.*` (or `panel.*`) Host
 * header. Resolves once nginx accepts connections.
 */
export async function startNginx(workDir, monitorPorts, panelPorts = []) {
  const nginx = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path));
  if (!nginx) throw new Error('nginx not found: apt-get install nginx (deploy/test/proxy.e2e-spec.ts installs it in CI)');
  const port = await freePort();
  mkdirSync(workDir, { recursive: true });
  let config = readFileSync(join(ROOT, 'deploy/proxy/nginx.conf'), 'utf8');
  const servers = (ports) => (ports.length ? ports : [9]).map((upstreamPort) => `server 127.0.0.1:${upstreamPort};`).join('\n        ');
  config = replaceOnce(config, 'server panel-api:8000;', servers(panelPorts));
  config = replaceOnce(config, 'server repo-monitor:8080;', servers(monitorPorts));
  config = replaceOnce(config, 'listen 80 default_server;', `listen 127.0.0.1:${port} default_server;`);
  config = replaceOnce(config, 'listen 80;', `listen 127.0.0.1:${port};`);
  // Temp files and the log in the work folder (Debian's defaults are root-only; /dev/stdout is a pipe here).
  const tempPaths = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `    ${kind}_temp_path ${join(workDir, `${kind}_temp`)};`).join('\n');
  config = replaceOnce(config, 'http {\n', `http {\n${tempPaths}\n`);
  config = replaceOnce(config, 'access_log /dev/stdout main;', 'access_log off;');
  const configPath = join(workDir, 'nginx.conf');
  writeFileSync(configPath, config);
  const args = ['-e', 'stderr', '-p', workDir, '-c', configPath, '-g', `daemon off; pid ${join(workDir, 'nginx.pid')};`];
  const logPath = join(workDir, 'nginx.log');
  const log = openSync(logPath, 'a');
  try {
    execFileSync(nginx, ['-t', '-q', ...args], { stdio: ['ignore', log, log] });
  } catch {
    closeSync(log);
    throw new Error(`nginx -t refused the rendered config:\n${readFileSync(logPath, 'utf8')}`);
  }
  const child = spawn(nginx, args, { stdio: ['ignore', log, log] });
  closeSync(log);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): ${readFileSync(logPath, 'utf8')}`);
    const listening = await new Promise((resolve) => {
      const request = http.get({ host: '127.0.0.1', port, path: '/', headers: { host: 'nothing.invalid' } }, (response) => {
        response.resume();
        resolve(true);
      });
      request.on('error', () => resolve(false));
    });
    if (listening) break;
    if (Date.now() > deadline) throw new Error(`nginx not listening: ${readFileSync(logPath, 'utf8')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, child, stop: () => new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : (child.once('exit', resolve), child.kill('SIGQUIT')))) };
}
