// What each Dockerfile does, without Docker: copy the built dist/ folder (with the package.json and
// lockfile the build generated) into an empty directory, `npm ci --omit=dev` there, start the app
// and get 200 from /healthz. A dependency the bundle needs but the generated package.json lacks
// fails here, exactly as it would in the image.
//
// In the image build, sqlite3's install script downloads its official prebuilt binary from GitHub.
// GitHub is out of reach here, so the script would fall back to compiling SQLite from source, twice,
// for minutes. Instead a local server stands in for the download host (prebuild-install's documented
// `npm_config_sqlite3_binary_host_mirror`) and serves the binary the workspace install built: the same
// download-and-unpack path the image takes, in seconds.
import { ChildProcess, execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, Server } from 'node:http';
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
      await response.body?.cancel();
      // 503 is the service saying it is still starting (its listener answers before the app is
      // ready, as a container's health check sees it); keep asking.
      if (response.status !== 503) return response.status;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no answer from ${url}:\n${output()}`);
}

interface ImageCase {
  app: 'panel-api' | 'repo-monitor';
  args: string[];
  env: (port: number, data: string) => Record<string, string>;
  /** Packages the image must not install. */
  absent: string[];
}

// @nestjs/core's optional Express adapter (with multer), typeorm's optional ts-node (with typescript
// and @swc/core): nothing in either image loads them.
const OPTIONAL_PEERS_NEVER_LOADED = ['@nestjs/platform-express', 'multer', 'ts-node', 'typescript', '@swc/core'];

const images: ImageCase[] = [
  {
    app: 'panel-api',
    args: ['main.js'],
    env: (port, data) => ({ PORT: String(port), HOST: '127.0.0.1', APP_DATA_DIR: data }),
    absent: [...OPTIONAL_PEERS_NEVER_LOADED, 'express'],
  },
  {
    app: 'repo-monitor',
    args: ['main.js', 'serve'],
    env: (port, data) => ({ MONITOR_HTTP_ADDR: `127.0.0.1:${port}`, MONITOR_DATABASE_URL: `file:${join(data, 'repo-monitor.db')}` }),
    // Express stays: @modelcontextprotocol/sdk depends on it outright (its Express helpers, unused here).
    absent: OPTIONAL_PEERS_NEVER_LOADED,
  },
];

/** Serves `<mirror>/v<version>/sqlite3-v<version>-napi-v<n>-<platform>-<arch>.tar.gz` as prebuild-install asks for it. */
async function sqlitePrebuildMirror(folder: string): Promise<{ server: Server; url: string; served: string[] }> {
  const sqlite = join(root, 'node_modules/sqlite3');
  const { version } = JSON.parse(readFileSync(join(sqlite, 'package.json'), 'utf8')) as { version: string };
  const tarball = join(folder, 'sqlite3-prebuild.tar.gz');
  await run('tar', ['-czf', tarball, '-C', sqlite, 'build/Release/node_sqlite3.node']);
  const body = readFileSync(tarball);
  const served: string[] = [];
  const wanted = new RegExp(`^/v${version.replace(/\./g, '\\.')}/sqlite3-v${version.replace(/\./g, '\\.')}-napi-v\\d+-${process.platform}-${process.arch}\\.tar\\.gz$`);
  const server = createHttpServer((req, res) => {
    if (req.url && wanted.test(req.url)) {
      served.push(req.url);
      res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': body.length }).end(body);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { server, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, served };
}

describe('image recipe', () => {
  const folders: string[] = [];
  const children: ChildProcess[] = [];
  let mirror: Awaited<ReturnType<typeof sqlitePrebuildMirror>>;

  beforeAll(async () => {
    const folder = mkdtempSync(join(tmpdir(), 'sqlite-prebuild-'));
    folders.push(folder);
    mirror = await sqlitePrebuildMirror(folder);
  });

  afterAll(() => {
    mirror?.server.close();
    for (const child of children) child.kill('SIGKILL');
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  it.each(images)('$app installs from its dist/ alone and answers /healthz', async ({ app, args, env, absent }) => {
    const dist = join(root, 'dist/apps', app);
    expect(existsSync(join(dist, 'package.json'))).toBe(true);
    expect(existsSync(join(dist, 'package-lock.json'))).toBe(true);
    // Optional peers the bundle never loads stay out of the image.
    const locked = Object.keys((JSON.parse(readFileSync(join(dist, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> }).packages);
    expect(locked.filter((path) => absent.some((name) => path.endsWith(`node_modules/${name}`)))).toEqual([]);
    const image = mkdtempSync(join(tmpdir(), `image-${app}-`));
    folders.push(image);
    cpSync(dist, join(image, 'app'), { recursive: true });
    const install = await run('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], {
      cwd: join(image, 'app'),
      maxBuffer: 64 * 1024 * 1024,
      // JOBS=max: should a native module still need compiling (argon2 without a fitting prebuild), every core helps.
      env: { ...process.env, JOBS: 'max', npm_config_sqlite3_binary_host_mirror: mirror.url },
    });
    // sqlite3 came from the download path (the mirror, or prebuild-install's cache of it), not from a
    // compile, which would have left node-gyp's Makefile behind.
    expect(existsSync(join(image, 'app/node_modules/sqlite3/build/Release/node_sqlite3.node'))).toBe(true);
    expect(existsSync(join(image, 'app/node_modules/sqlite3/build/Makefile'))).toBe(false);
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
    {
      // The web app (panel-web, or repo-monitor's console) comes from the installed dist/ (web/):
      // the page and every script it loads.
      const page = await fetch(`http://127.0.0.1:${port}/dashboard`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('<div id="root">');
      const scripts = [...html.matchAll(/src="(\/assets\/[^"]+\.js)"/g)].map((match) => match[1]);
      expect(scripts.length).toBeGreaterThan(0);
      for (const script of scripts) {
        const asset = await fetch(`http://127.0.0.1:${port}${script}`);
        expect([script, asset.status, asset.headers.get('cache-control')]).toEqual([script, 200, 'public, max-age=31536000, immutable']);
      }
    }
    child.kill('SIGTERM');
  });
});
