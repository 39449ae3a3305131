// Shared helpers for the repo-monitor benchmark and crash test: start the built service, sign deliveries.
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import http from 'node:http';
import { createServer } from 'node:net';
import { existsSync } from 'node:fs';
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

/** Starts `repo-monitor serve` from dist; resolves once /readyz answers 200. */
export async function startService(env) {
  const port = await freePort();
  // REPO_MONITOR_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the service under the benchmark.
  const nodeArgs = (process.env.REPO_MONITOR_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, MAIN, 'serve'], {
    env: { PATH: process.env.PATH, MONITOR_HTTP_ADDR: `127.0.0.1:${port}`, MONITOR_LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
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
export function postDelivery(baseUrl, event, body, deliveryId, secret = INBOUND_SECRET) {
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
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', () => resolve(0));
      },
    );
    request.on('error', () => resolve(0));
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
