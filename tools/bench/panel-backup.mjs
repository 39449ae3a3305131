#!/usr/bin/env node
// Benchmark of panel-api's full backup export against `tar -czf` of the same data directory.
//
//   npx nx build panel-api && node tools/bench/panel-backup.mjs [--files-mb=1024] [--db-mb=200] [--settle=30] [--keep] [--data=DIR]
//
// Generates a data directory (sessions/ and .signer/history/ files, a SQLite database with a bulk
// table) in a temporary folder, starts the built service on it, downloads POST /api/ops/backup/export
// after it has idled --settle seconds, and measures wall time and the service's peak RSS during the
// export (VmHWM, reset just before),
// then runs the archive engine alone in a bare Node process, then `tar -czf` on the same folder, and
// measures them the same way (maxrss from /usr/bin/time). Everything is removed after, unless
// --keep; --data=DIR generates the data directory there once and reuses it on later runs.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(join(root, 'package.json'));
const sqlite3 = require('sqlite3');

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, value ?? 'true'];
  }),
);
const FILES_MB = Number(args['files-mb'] ?? 1024);
const SETTLE_SECONDS = Number(args.settle ?? 30);
const DB_MB = Number(args['db-mb'] ?? 200);
const TARGET_PEAK_RSS_MB = 150;
const ADMIN_PASSWORD = 'bench-admin-password';
const MB = 1024 * 1024;

const main = join(root, 'dist/apps/panel-api/main.js');
if (!existsSync(main)) {
  console.error('dist/apps/panel-api/main.js is missing: run `npx nx build panel-api` first.');
  process.exit(1);
}

const work = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), 'panel-backup-bench-'));
const dataDir = args.data ? resolve(args.data) : join(work, 'data');
const reuseData = Boolean(args.data) && existsSync(join(dataDir, 'db.sqlite'));
let server;

function cleanUp() {
  if (server && server.exitCode === null) server.kill('SIGKILL');
  if (args.keep !== 'true') rmSync(work, { recursive: true, force: true });
}
process.on('SIGINT', () => {
  cleanUp();
  process.exit(130);
});

/** Half of the files are random bytes (sessions: incompressible), half log text (history: compressible). */
function generateFiles() {
  const sessions = join(dataDir, 'sessions');
  const history = join(dataDir, '.signer', 'history', 'daily');
  mkdirSync(sessions, { recursive: true });
  mkdirSync(history, { recursive: true });
  const sessionBytes = Math.floor((FILES_MB * MB) / 2);
  const sessionSize = 512 * 1024;
  for (let index = 0; index * sessionSize < sessionBytes; index += 1) writeFileSync(join(sessions, `account-${index}.session`), randomBytes(sessionSize));
  const logSize = 8 * MB;
  const logBytes = FILES_MB * MB - sessionBytes;
  for (let index = 0; index * logSize < logBytes; index += 1) {
    const lines = [];
    let size = 0;
    while (size < logSize) {
      const line = `${new Date(Date.UTC(2024, 0, 1) + size).toISOString()} run=${randomBytes(8).toString('hex')} account=alice chat=-100${size % 977} step=${size % 7} ok=${size % 3 !== 0} reply="${randomBytes(12).toString('base64')}"\n`;
      lines.push(line);
      size += line.length;
    }
    writeFileSync(join(history, `run-${index}.log`), lines.join('').slice(0, logSize));
  }
  writeFileSync(join(dataDir, '.signer', 'daily.json'), JSON.stringify({ name: 'daily' }));
}

function run(database, sql, params = []) {
  return new Promise((resolve, reject) => database.run(sql, params, (error) => (error ? reject(error) : resolve())));
}

async function generateDatabase() {
  const database = new sqlite3.Database(join(dataDir, 'db.sqlite'));
  await run(database, 'PRAGMA journal_mode=WAL');
  await run(database, 'CREATE TABLE bench_payload (id INTEGER PRIMARY KEY, body BLOB NOT NULL)');
  const rowSize = 4096;
  const rows = Math.floor((DB_MB * MB) / rowSize);
  await run(database, 'BEGIN');
  for (let index = 0; index < rows; index += 1) await run(database, 'INSERT INTO bench_payload (body) VALUES (?)', [randomBytes(rowSize)]);
  await run(database, 'COMMIT');
  await new Promise((resolve) => database.close(resolve));
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

function statusOf(pid) {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

/** Samples RSS every 50 ms as a cross-check of VmHWM (and in case clear_refs is not permitted). */
function sampleRss(pid) {
  let peak = 0;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, statusOf(pid).rssMb);
    } catch {
      /* process gone */
    }
  }, 50);
  return () => {
    clearInterval(timer);
    return peak;
  };
}

async function startService() {
  const port = await freePort();
  server = spawn(process.execPath, [main], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), APP_DATA_DIR: dataDir, ADMIN_PASSWORD, LOG_LEVEL: 'warn', APP_UPDATE_CHECK: '0' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`panel-api exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return url;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error('panel-api did not become ready within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function benchExport(url) {
  const login = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${await login.text()}`);
  const { access_token: token } = await login.json();
  // A backup runs in a service that has been up for a while (a button in the panel, or the
  // automatic job on its interval), not in the seconds after start, when V8 still holds the
  // start-up garbage and a full young generation until its memory reducer runs.
  const afterStart = statusOf(server.pid).rssMb;
  await new Promise((resolve) => setTimeout(resolve, SETTLE_SECONDS * 1000));
  const baseline = statusOf(server.pid).rssMb;
  let hwmReset = true;
  try {
    writeFileSync(`/proc/${server.pid}/clear_refs`, '5');
  } catch {
    hwmReset = false;
  }
  const stopSampling = sampleRss(server.pid);
  const started = process.hrtime.bigint();
  const response = await fetch(`${url}/api/ops/backup/export`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  if (response.status !== 200) throw new Error(`export failed: ${response.status} ${await response.text()}`);
  const archive = join(work, 'export.tar.gz');
  await pipeline(Readable.fromWeb(response.body), createWriteStream(archive));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const sampledPeak = stopSampling();
  const { peakMb } = statusOf(server.pid);
  return { seconds, peakMb: hwmReset ? peakMb : sampledPeak, sampledPeak, afterStart, baseline, hwmReset, bytes: statSync(archive).size };
}

/**
 * The archive engine alone (the same source files the service uses, transpiled on the fly) in a
 * bare Node process writing to a file: what an export costs without the rest of the service.
 */
function benchEngine() {
  const ts = require('typescript');
  const engineDir = join(work, 'engine');
  mkdirSync(engineDir, { recursive: true });
  for (const name of ['backups/backup-archive', 'backups/sqlite-snapshot', 'common/chunk-reclaimer']) {
    const source = readFileSync(join(root, 'apps/panel-api/src/app', `${name}.ts`), 'utf8');
    const output = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true } });
    mkdirSync(dirname(join(engineDir, name)), { recursive: true });
    writeFileSync(join(engineDir, `${name}.js`), output.outputText);
  }
  const archive = join(work, 'engine.tar.gz');
  writeFileSync(
    join(engineDir, 'run.js'),
    `const { createWriteStream } = require('node:fs');
const { pipeline } = require('node:stream/promises');
const { createBackupArchive } = require('./backups/backup-archive');
const { createSqliteSnapshot } = require('./backups/sqlite-snapshot');
(async () => {
  const dataDir = ${JSON.stringify(dataDir)};
  const snapshot = await createSqliteSnapshot(dataDir + '/db.sqlite', dataDir + '/.backup_tmp');
  const manifest = { format: 'tg-signpulse-backup', version: 1, created_at: new Date().toISOString(), app_version: 'bench', database: 'included', contents: [], excluded: [], restore: '' };
  const sources = [{ name: 'sessions', path: dataDir + '/sessions', kind: 'directory' }, { name: '.signer', path: dataDir + '/.signer', kind: 'directory' }];
  const opened = createBackupArchive({ manifest, sqliteSnapshotPath: snapshot.path, sources });
  await pipeline(opened.stream, createWriteStream(${JSON.stringify(archive)}));
  await opened.done;
  await snapshot.remove();
})().catch((error) => { console.error(error); process.exit(1); });
`,
  );
  const started = process.hrtime.bigint();
  const result = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, join(engineDir, 'run.js')], {
    encoding: 'utf8',
    env: { ...process.env, NODE_PATH: join(root, 'node_modules') },
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.status !== 0) throw new Error(`engine run failed: ${result.stderr}`);
  const maxRssKb = Number(result.stderr.trim().split('\n').pop());
  const bytes = statSync(archive).size;
  rmSync(archive);
  return { seconds, peakMb: maxRssKb / 1024, bytes };
}

function benchTar() {
  const archive = join(work, 'tar.tar.gz');
  const started = process.hrtime.bigint();
  const result = spawnSync('/usr/bin/time', ['-f', '%M', 'tar', '-czf', archive, '-C', dataDir, '.'], { encoding: 'utf8' });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.status !== 0) throw new Error(`tar failed: ${result.stderr}`);
  const maxRssKb = Number(result.stderr.trim().split('\n').pop());
  return { seconds, peakMb: maxRssKb / 1024, bytes: statSync(archive).size };
}

const fmt = (value, digits = 1) => value.toFixed(digits);

try {
  if (!reuseData) console.log(`Generating ${FILES_MB} MB of files and a ${DB_MB} MB SQLite database in ${dataDir} …`);
  if (reuseData) {
    console.log(`Reusing the data directory ${dataDir} …`);
  } else {
    generateFiles();
    await generateDatabase();
  }
  const url = await startService();
  console.log(`panel-api is ready; logging in, letting it idle ${SETTLE_SECONDS} s, then exporting …`);
  const ours = await benchExport(url);
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  rmSync(join(work, 'export.tar.gz'));
  console.log('Running the archive engine alone, then tar -czf, on the same directory …');
  const engine = benchEngine();
  const tar = benchTar();
  console.log('');
  console.log('                         time (s)   peak RSS (MB)   archive (MB)');
  console.log(`panel-api export         ${fmt(ours.seconds).padStart(8)}   ${fmt(ours.peakMb).padStart(13)}   ${fmt(ours.bytes / MB).padStart(12)}`);
  console.log(`archive engine alone     ${fmt(engine.seconds).padStart(8)}   ${fmt(engine.peakMb).padStart(13)}   ${fmt(engine.bytes / MB).padStart(12)}`);
  console.log(`tar -czf                 ${fmt(tar.seconds).padStart(8)}   ${fmt(tar.peakMb).padStart(13)}   ${fmt(tar.bytes / MB).padStart(12)}`);
  console.log('');
  console.log(`ratio export / tar: time ${fmt(ours.seconds / tar.seconds, 2)}x, peak RSS ${fmt(ours.peakMb / tar.peakMb, 1)}x`);
  console.log(`ratio engine / tar: time ${fmt(engine.seconds / tar.seconds, 2)}x, peak RSS ${fmt(engine.peakMb / tar.peakMb, 1)}x`);
  console.log(
    `panel-api RSS just after start ${fmt(ours.afterStart)} MB, after ${SETTLE_SECONDS} s idle (before the export) ${fmt(ours.baseline)} MB; peak during it ${fmt(ours.peakMb)} MB ` +
      `(${ours.hwmReset ? 'VmHWM reset before the export' : 'sampled every 50 ms'}; sampled peak ${fmt(ours.sampledPeak)} MB)`,
  );
  console.log(`export cost over the idle service: +${fmt(ours.peakMb - ours.baseline)} MB`);
  const ok = ours.peakMb < TARGET_PEAK_RSS_MB;
  const engineOk = engine.peakMb < TARGET_PEAK_RSS_MB;
  console.log(`target peak RSS < ${TARGET_PEAK_RSS_MB} MB: service during the export ${ok ? 'met' : 'NOT met'}; archive engine alone ${engineOk ? 'met' : 'NOT met'}`);
  process.exitCode = ok ? 0 : 2;
} catch (error) {
  console.error(error instanceof Error ? error.stack : error);
  process.exitCode = 1;
} finally {
  cleanUp();
}
