// `npm start` stops everything it started when the process that was started is stopped: SIGTERM to
// npm itself, SIGHUP to a `sh -c` that keeps waiting (it passes no signal on, so start.mjs is
// re-parented), and kill -9 of start.mjs (each service notices and stops itself). Each case starts
// both services from dist/ (the build step made it; START_BUILD=0) on free ports with a temporary
// data directory, waits for "Ready.", kills the top process and then asserts that both ports are
// free and that no process of the tree is left.
import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '../..');
const STARTED_WITHIN_MS = 90_000;
const STOPPED_WITHIN_MS = 45_000;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.setTimeout(1000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(false));
  });
}

/** Every live process whose parent chain leads to `pid` (read from /proc), `pid` included. */
function processTree(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] !== 'Z') parents.set(Number(entry), Number(fields[1]));
    } catch {
      // The process ended while the list was read.
    }
  }
  const tree = parents.has(pid) ? [pid] : [];
  for (let i = 0; i < tree.length; i++) for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
  return tree;
}

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function until(what: string, check: () => boolean | Promise<boolean>, withinMs: number, detail: () => string): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not within ${withinMs} ms\n${detail()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

interface Started {
  top: ChildProcess;
  output: () => string;
  panelPort: number;
  monitorPort: number;
  dataDir: string;
}

/** Starts `command` (which runs start.mjs) in a process group of its own and waits for "Ready.". */
async function start(command: string, args: string[]): Promise<Started> {
  const [panelPort, monitorPort] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(join(tmpdir(), 'npm-start-'));
  const top = spawn(command, args, {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      START_BUILD: '0',
      START_DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(panelPort),
      MONITOR_HTTP_ADDR: `127.0.0.1:${monitorPort}`,
      LOG_LEVEL: 'warn',
      ADMIN_PASSWORD: '',
    },
  });
  let text = '';
  top.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  top.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const output = () => text.slice(-4000);
  await until('both services ready', () => text.includes('Ready.') || top.exitCode !== null, STARTED_WITHIN_MS, output);
  if (!text.includes('Ready.')) throw new Error(`npm start ended before it was ready:\n${output()}`);
  return { top, output, panelPort, monitorPort, dataDir };
}

/** Kills the top process with `signal` (or a process of the tree chosen by `target`) and checks everything went. */
async function killAndExpectAllGone(started: Started, signal: NodeJS.Signals, target: (tree: number[]) => number): Promise<void> {
  const tree = processTree(started.top.pid ?? -1);
  // npm or sh, start.mjs and the two services at least.
  expect(tree.length).toBeGreaterThanOrEqual(3);
  expect(await portAnswers(started.panelPort)).toBe(true);
  expect(await portAnswers(started.monitorPort)).toBe(true);
  try {
    process.kill(target(tree), signal);
    await until('every process of `npm start` gone', () => tree.every((pid) => !alive(pid)), STOPPED_WITHIN_MS, () => `left: ${tree.filter(alive).join(', ')}\n${started.output()}`);
    expect([await portAnswers(started.panelPort), await portAnswers(started.monitorPort)]).toEqual([false, false]);
  } finally {
    for (const pid of tree) if (alive(pid)) process.kill(pid, 'SIGKILL');
    rmSync(started.dataDir, { recursive: true, force: true });
  }
}

describe('npm start stops both services when the process that was started is stopped', () => {
  beforeAll(() => {
    for (const main of ['dist/apps/panel-api/main.js', 'dist/apps/repo-monitor/main.js']) {
      if (!existsSync(join(root, main))) throw new Error(`${main} is missing: build first (npx nx run-many -t build --projects panel-api,repo-monitor)`);
    }
  });

  it('SIGTERM to npm itself', async () => {
    const started = await start('npm', ['start', '--silent']);
    // The services' own log lines reach the terminal (they once stayed in Nest's start-up buffer):
    // panel-api's first start says, as a warning, where its generated admin password is.
    expect(started.output()).toMatch(/Created the admin \\?"admin\\?" with a generated password; read it from \S+\.admin_bootstrap_password/);
    await killAndExpectAllGone(started, 'SIGTERM', (tree) => tree[0]);
  });

  it('SIGHUP to a sh -c that keeps waiting and passes no signal on (start.mjs is re-parented)', async () => {
    // `; exit $?` keeps sh from exec-ing node, as some shells and process managers do.
    const started = await start('sh', ['-c', 'node tools/scripts/start.mjs; exit $?']);
    await killAndExpectAllGone(started, 'SIGHUP', (tree) => tree[0]);
  });

  it('kill -9 of start.mjs: each service notices and stops itself', async () => {
    const started = await start(process.execPath, ['tools/scripts/start.mjs']);
    await killAndExpectAllGone(started, 'SIGKILL', (tree) => tree[0]);
  });
});
