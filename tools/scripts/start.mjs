#!/usr/bin/env node
// `npm start`: builds both services and runs them from dist/ on SQLite under ./data:
//   panel-api     http://127.0.0.1:8000  (data in ./data/panel-api)
//   repo-monitor  http://127.0.0.1:8080  (data in ./data/repo-monitor)
// On the first run it creates repo-monitor's admin password and master key under ./data/repo-monitor
// (mode 0600) and passes them in; panel-api writes its own admin password to its data directory.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const data = join(root, 'data');
const panelData = join(data, 'panel-api');
const monitorData = join(data, 'repo-monitor');
const env = { ...process.env, NX_NO_CLOUD: 'true', NX_DAEMON: 'false', NX_TUI: 'false' };

const build = spawnSync('npx', ['nx', 'run-many', '-t', 'build', '--projects', 'panel-api,repo-monitor'], {
  cwd: root,
  stdio: 'inherit',
  env,
});
if (build.status !== 0) process.exit(build.status ?? 1);

/** Reads a generated secret, creating it (0600) on first use. */
function secretFile(path, make) {
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${make()}\n`, { mode: 0o600, flag: 'wx' });
  }
  return readFileSync(path, 'utf8').trim();
}

mkdirSync(panelData, { recursive: true });
const monitorPasswordFile = join(monitorData, '.admin_password');
const monitorPassword = secretFile(monitorPasswordFile, () => randomBytes(18).toString('base64url'));
const monitorKey = secretFile(join(monitorData, '.encryption_key'), () => randomBytes(32).toString('hex'));

const services = [
  {
    name: 'panel-api',
    args: [join(root, 'dist/apps/panel-api/main.js')],
    env: { APP_DATA_DIR: panelData, HOST: process.env.HOST ?? '127.0.0.1', PORT: process.env.PORT ?? '8000', LOG_FORMAT: 'text' },
  },
  {
    name: 'repo-monitor',
    args: [join(root, 'dist/apps/repo-monitor/main.js'), 'serve'],
    env: {
      MONITOR_HTTP_ADDR: process.env.MONITOR_HTTP_ADDR ?? '127.0.0.1:8080',
      MONITOR_DATABASE_DRIVER: 'sqlite',
      MONITOR_DATABASE_URL: `file:${join(monitorData, 'repo-monitor.db')}`,
      MONITOR_ADMIN_USERNAME: 'admin',
      MONITOR_ADMIN_PASSWORD: monitorPassword,
      MONITOR_ENCRYPTION_KEY: monitorKey,
      MONITOR_LOG_FORMAT: 'text',
    },
  },
];

const children = services.map((service) => {
  const child = spawn(process.execPath, service.args, { cwd: root, env: { ...env, ...service.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const prefix = `[${service.name}] `;
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = '';
    stream.on('data', (chunk) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop();
      for (const line of lines) process.stdout.write(prefix + line + '\n');
    });
  }
  child.on('exit', (code, signal) => {
    process.stdout.write(`${prefix}exited (${signal ?? code})\n`);
    shutdown(code ?? 1);
  });
  return child;
});

let stopping = false;
function shutdown(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 1500).unref();
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

setTimeout(() => {
  const rel = (path) => `./${relative(root, path)}`;
  const panelPassword = join(panelData, '.admin_bootstrap_password');
  console.log(`
  panel-api     http://127.0.0.1:8000/docs   user admin, password in ${rel(panelPassword)}${existsSync(panelPassword) ? '' : ' (or your ADMIN_PASSWORD)'}
  repo-monitor  http://127.0.0.1:8080/docs   user admin, password in ${rel(monitorPasswordFile)}
  Stop with Ctrl-C. Data lives in ${rel(data)}.
`);
}, 2500).unref();
