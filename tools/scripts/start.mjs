#!/usr/bin/env node
// `npm start`: builds both services and runs them from dist/ on SQLite under ./data:
//   panel-api     http://127.0.0.1:8000  (data in ./data/panel-api)
//   repo-monitor  http://127.0.0.1:8080  (data in ./data/repo-monitor)
// On the first run it creates repo-monitor's admin password and master key under ./data/repo-monitor
// (mode 0600) and passes them in; panel-api writes its own admin password to its data directory.
// HOST/PORT (panel-api) and MONITOR_HTTP_ADDR (repo-monitor) move them. The services log readable
// lines at `warn` here (LOG_LEVEL=info npm start for every request); once both answer /readyz, one
// block says where to open them and where the passwords are.
// Stopping the process that was started (Ctrl-C, SIGTERM, SIGHUP; also `kill` of npm, whose `sh -c` may
// not pass the signal on) stops both services: this script stops them when it is re-parented, and each
// service (started with exit-with-parent.cjs) stops itself when this script is gone, even after kill -9.
// START_BUILD=0 runs what dist/ already holds; START_DATA_DIR moves ./data (deploy/test/npm-start uses both).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const data = process.env.START_DATA_DIR ? resolve(process.env.START_DATA_DIR) : join(root, 'data');
const panelData = join(data, 'panel-api');
const monitorData = join(data, 'repo-monitor');
const env = { ...process.env, NX_NO_CLOUD: 'true', NX_DAEMON: 'false', NX_TUI: 'false' };

// The process that started this one (npm, its `sh -c`, a terminal, a process manager).
const startedBy = process.ppid;

if (process.env.START_BUILD !== '0') {
  const build = spawnSync('npx', ['nx', 'run-many', '-t', 'build', '--projects', 'panel-api,repo-monitor'], {
    cwd: root,
    stdio: 'inherit',
    env,
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

/** Reads a generated secret, creating it (0600) on first use. */
function secretFile(path, make) {
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${make()}\n`, { mode: 0o600, flag: 'wx' });
  }
  return readFileSync(path, 'utf8').trim();
}

// Accounts' sessions and secrets live here: readable by this user only.
mkdirSync(data, { recursive: true, mode: 0o700 });
mkdirSync(panelData, { recursive: true, mode: 0o700 });
mkdirSync(monitorData, { recursive: true, mode: 0o700 });
const monitorPasswordFile = join(monitorData, '.admin_password');
const monitorPassword = secretFile(monitorPasswordFile, () => randomBytes(18).toString('base64url'));
const monitorKey = secretFile(join(monitorData, '.encryption_key'), () => randomBytes(32).toString('hex'));

const panelHost = process.env.HOST ?? '127.0.0.1';
const panelPort = process.env.PORT ?? '8000';
const monitorAddr = process.env.MONITOR_HTTP_ADDR ?? '127.0.0.1:8080';
const logLevel = process.env.LOG_LEVEL ?? 'warn';

/** The address a browser on this machine opens for a listen address (0.0.0.0 and :: mean every interface). */
function browserUrl(host, port) {
  const local = host === '' || host === '0.0.0.0' || host === '::' || host === '[::]' ? '127.0.0.1' : host;
  return `http://${local.includes(':') && !local.startsWith('[') ? `[${local}]` : local}:${port}`;
}
const monitorPortAt = monitorAddr.lastIndexOf(':');
const panelUrl = browserUrl(panelHost, panelPort);
const monitorUrl = browserUrl(monitorAddr.slice(0, monitorPortAt), monitorAddr.slice(monitorPortAt + 1));

// Each service stops itself (as on SIGTERM) once this script is gone, however it went.
const exitWithParent = ['--require', join(root, 'tools/scripts/exit-with-parent.cjs')];

const services = [
  {
    name: 'panel-api',
    args: [...exitWithParent, join(root, 'dist/apps/panel-api/main.js')],
    env: { APP_DATA_DIR: panelData, HOST: panelHost, PORT: panelPort, LOG_FORMAT: process.env.LOG_FORMAT ?? 'text', LOG_LEVEL: logLevel },
  },
  {
    name: 'repo-monitor',
    args: [...exitWithParent, join(root, 'dist/apps/repo-monitor/main.js'), 'serve'],
    env: {
      MONITOR_HTTP_ADDR: monitorAddr,
      MONITOR_DATABASE_DRIVER: 'sqlite',
      MONITOR_DATABASE_URL: `file:${join(monitorData, 'repo-monitor.db')}`,
      MONITOR_ADMIN_USERNAME: 'admin',
      MONITOR_ADMIN_PASSWORD: monitorPassword,
      MONITOR_ENCRYPTION_KEY: monitorKey,
      MONITOR_LOG_FORMAT: process.env.MONITOR_LOG_FORMAT ?? process.env.LOG_FORMAT ?? 'text',
      MONITOR_LOG_LEVEL: process.env.MONITOR_LOG_LEVEL ?? logLevel,
    },
  },
];

/** Whether something already answers on host:port (another copy of these services, or any program). */
function portTaken(host, port) {
  return new Promise((resolve) => {
    const socket = connect({ host: host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host, port: Number(port) });
    socket.setTimeout(1000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(false));
  });
}

const taken = [];
if (await portTaken(panelHost, panelPort)) taken.push(`panel-api's ${panelUrl} (move it with PORT=… or HOST=…)`);
const monitorHost = monitorAddr.slice(0, monitorPortAt);
if (await portTaken(monitorHost, monitorAddr.slice(monitorPortAt + 1))) {
  taken.push(`repo-monitor's ${monitorUrl} (move it with MONITOR_HTTP_ADDR=host:port)`);
}
if (taken.length) {
  console.log(`Something already answers on ${taken.join(' and ')}: is another \`npm start\` running?`);
  process.exit(1);
}

// Each service runs in its own process group, so Ctrl-C in the terminal reaches this script alone;
// it then asks each service once (SIGTERM) to drain and stop, and waits for both.
const children = services.map((service) => {
  const child = spawn(process.execPath, service.args, {
    cwd: root,
    env: { ...env, ...service.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
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
    // A service that stops on its own (it failed to start, or crashed) stops the other one too.
    shutdown(stopping ? exitCode : code || 1);
  });
  return child;
});

let stopping = false;
let exitCode = 0;
function shutdown(code) {
  if (!stopping) {
    stopping = true;
    exitCode = code;
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    // The services drain for a few seconds; a service that hangs is stopped hard after 30 s.
    setTimeout(() => {
      for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }, 30_000).unref();
  }
  if (children.every((child) => child.exitCode !== null || child.signalCode !== null)) process.exit(exitCode);
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));
// The terminal closed.
process.on('SIGHUP', () => shutdown(0));
// npm (or a process manager) was killed and its `sh -c` did not pass the signal on: this script now
// belongs to init (or a subreaper), so nobody will ask it to stop; it stops by itself.
const parentWatch = setInterval(() => {
  if (process.ppid === startedBy) return;
  clearInterval(parentWatch);
  console.log('The process that started `npm start` is gone: stopping both services.');
  shutdown(0);
}, 500);
parentWatch.unref();
// Should this script itself be killed, the services do not outlive it.
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
});

async function answers(url, accept = () => true) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
    const ok = response.ok && accept(response);
    await response.body?.cancel();
    return ok;
  } catch {
    return false;
  }
}

/** Waits until both services are ready, then prints the one block a person needs. */
async function announce() {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (stopping) return;
    const ready = await Promise.all([answers(`${panelUrl}/readyz`), answers(`${monitorUrl}/readyz`)]);
    if (stopping) return;
    if (ready.every(Boolean)) break;
    if (Date.now() > deadline) {
      console.log('Both services have not answered /readyz within 2 minutes; see the log lines above.');
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const isPage = (response) => (response.headers.get('content-type') ?? '').startsWith('text/html');
  const [panelWeb, monitorWeb] = await Promise.all([answers(`${panelUrl}/`, isPage), answers(`${monitorUrl}/`, isPage)]);
  const rel = (path) => `./${relative(root, path)}`;
  const panelPassword = join(panelData, '.admin_bootstrap_password');
  const panelPasswordNote = existsSync(panelPassword)
    ? `password in ${rel(panelPassword)}`
    : process.env.ADMIN_PASSWORD
      ? 'password: your ADMIN_PASSWORD'
      : 'password: the one you chose (the generated file goes once it is changed; ADMIN_PASSWORD_RESET=1 resets it)';
  const lines = [
    '',
    'Ready.',
    `  panel-api     ${panelWeb ? `${panelUrl}/  (web app)   ` : ''}${panelUrl}/docs  (API docs)`,
    `                user admin, ${panelPasswordNote}`,
    `  repo-monitor  ${monitorWeb ? `${monitorUrl}/  (console)   ` : ''}${monitorUrl}/docs  (API docs)`,
    `                user admin, password in ${rel(monitorPasswordFile)}`,
    `  Data in ${rel(data)} (keep ${rel(join(monitorData, '.encryption_key'))} with it). Logs: LOG_LEVEL=${logLevel}. Stop with Ctrl-C.`,
    '',
  ];
  console.log(lines.join('\n'));
}
void announce();
