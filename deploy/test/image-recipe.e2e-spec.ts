// What each Dockerfile does, without Docker: copy the built dist/ folder (with the package.json and
// lockfile the build generated) into an empty directory, `npm ci --omit=dev` there, start the app
// and get 200 from /healthz. A dependency the bundle needs but the generated package.json lacks
// fails here, exactly as it would in the image.
import { ChildProcess, execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = join(__dirname, '../..');

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string): Promise<number> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}:\n${output()}`);
    try {
      const response = await fetch(url);
      return response.status;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`no answer from ${url}:\n${output()}`);
}

interface ImageCase {
  app: 'panel-api' | 'repo-monitor';
  args: string[];
  env: (port: number, data: string) => Record<string, string>;
}

const images: ImageCase[] = [
  {
    app: 'panel-api',
    args: ['main.js'],
    env: (port, data) => ({ PORT: String(port), HOST: '127.0.0.1', APP_DATA_DIR: data }),
  },
  {
    app: 'repo-monitor',
    args: ['main.js', 'serve'],
    env: (port, data) => ({ MONITOR_HTTP_ADDR: `127.0.0.1:${port}`, MONITOR_DATABASE_URL: `file:${join(data, 'repo-monitor.db')}` }),
  },
];

describe('image recipe', () => {
  const folders: string[] = [];
  const children: ChildProcess[] = [];

  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  it.each(images)('$app installs from its dist/ alone and answers /healthz', async ({ app, args, env }) => {
    const dist = join(root, 'dist/apps', app);
    expect(existsSync(join(dist, 'package.json'))).toBe(true);
    expect(existsSync(join(dist, 'package-lock.json'))).toBe(true);
    const image = mkdtempSync(join(tmpdir(), `image-${app}-`));
    folders.push(image);
    cpSync(dist, join(image, 'app'), { recursive: true });
    // JOBS=max lets node-gyp compile the native modules (sqlite3, argon2 when no prebuild fits) on every core.
    const install = await run('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], {
      cwd: join(image, 'app'),
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, JOBS: 'max' },
    });
    // Every install script the image needs (sqlite3, argon2) is approved in allowScripts, and the rest
    // are denied on purpose, so npm has nothing left to warn about.
    expect(`${install.stdout}${install.stderr}`).not.toContain('not yet covered by allowScripts');

    const port = await freePort();
    let output = '';
    const child = spawn(process.execPath, args, {
      cwd: join(image, 'app'),
      // Only what the image sets: no workspace node_modules on the module path.
      env: { PATH: process.env['PATH'] ?? '', NODE_ENV: 'production', LOG_LEVEL: 'warn', ...env(port, join(image, 'data')) },
    });
    children.push(child);
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    expect(await waitForHealth(`http://127.0.0.1:${port}/healthz`, child, () => output)).toBe(200);
    child.kill('SIGTERM');
  });
});
