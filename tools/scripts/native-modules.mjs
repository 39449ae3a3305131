#!/usr/bin/env node
// npm test's first step: makes sure the native modules the tests load (sqlite3, argon2) work after
// `npm ci --ignore-scripts`.
//
// argon2 ships prebuilt binaries in its package, but the linux-x64 one crashes on this CI machine
// (a segmentation fault at load), so it is compiled (about 70 s of one core) and the compiled
// binary is kept in npm's cache too (`<npm cache>/_prebuilds/argon2-v<version>-<platform>-<arch>-<libc>.node`);
// node-gyp-build loads build/Release/argon2.node before the shipped prebuilds, so the next install
// on this machine copies it there and loads it. sqlite3's install script asks GitHub for a prebuilt
// binary (prebuild-install) and compiles SQLite when it cannot get one: about 80 s of one core, on
// every fresh clone of a machine that cannot reach GitHub (this CI machine). prebuild-install looks in
// npm's cache (`<npm cache>/_prebuilds/`) before it downloads, so once this step has compiled sqlite3
// it packs the binary there under the name the download would have had; the next install on this
// machine takes it from there as it would take a downloaded one. The key is the package version, the
// N-API version, the platform and the architecture, as for the download.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const modules = ['sqlite3', 'argon2'];

const loads = (name) => spawnSync(process.execPath, ['-e', `require(${JSON.stringify(name)})`], { cwd: root }).status === 0;

if (modules.every(loads)) {
  console.log(`${modules.join(' and ')} load: nothing to build`);
  process.exit(0);
}

const sqlite3Dir = join(root, 'node_modules/sqlite3');
/** Where prebuild-install looks for a cached sqlite3 binary (its verbose log names the file). */
function cachedPrebuild() {
  const bin = join(root, 'node_modules/prebuild-install/bin.js');
  const probe = spawnSync(process.execPath, [bin, '--runtime', 'napi', '--verbose'], { cwd: sqlite3Dir, encoding: 'utf8', timeout: 60_000 });
  return /looking for cached prebuild @ (\S+)/.exec(`${probe.stdout}${probe.stderr}`)?.[1];
}

const argon2Dir = join(root, 'node_modules/argon2');
const argon2Binary = join(argon2Dir, 'build/Release/argon2.node');
/** Where a compiled argon2 is kept: keyed by its version, the platform, the architecture and the C library. */
function argon2CacheFile() {
  const { version } = JSON.parse(readFileSync(join(argon2Dir, 'package.json'), 'utf8'));
  const glibc = process.report?.getReport().header.glibcVersionRuntime;
  const cacheDir = process.env.npm_config_cache || join(homedir(), '.npm');
  return join(cacheDir, '_prebuilds', `argon2-v${version}-${process.platform}-${process.arch}-${glibc ? `glibc${glibc}` : 'other'}.node`);
}
/** Copies `from` to `to` through a temporary name, so a reader never sees half a file. */
function copyWhole(from, to) {
  mkdirSync(dirname(to), { recursive: true });
  const temporary = `${to}.${process.pid}.tmp`;
  copyFileSync(from, temporary);
  renameSync(temporary, to);
}

const started = Date.now();
// sqlite3's install script first runs prebuild-install, which unpacks a cached (or downloaded)
// binary; its verbose log names the cache file. Only when that gives no working binary does npm
// rebuild compile it.
const cache = cachedPrebuild();
const argon2Cache = argon2CacheFile();
let argon2FromCache = false;
if (!loads('argon2') && existsSync(argon2Cache) && !existsSync(argon2Binary)) {
  copyWhole(argon2Cache, argon2Binary);
  argon2FromCache = loads('argon2');
  if (!argon2FromCache) rmSync(argon2Binary, { force: true });
}
if (modules.every(loads)) {
  const fromCache = [existsSync(cache ?? '') && `sqlite3 (${cache})`, argon2FromCache && `argon2 (${argon2Cache})`].filter(Boolean);
  console.log(`native modules ready in ${((Date.now() - started) / 1000).toFixed(1)} s${fromCache.length ? `, from npm's cache: ${fromCache.join(', ')}` : ''}`);
  process.exit(0);
}
// argon2's shipped binaries do not load on every machine (not on this CI machine): then it is compiled too.
const missing = modules.filter((name) => !loads(name));
console.log(`${missing.join(' and ')} ${missing.length > 1 ? 'do' : 'does'} not load${existsSync(cache ?? '') ? ` (sqlite3 came from npm's cache)` : ''}: npm rebuild compiles ${missing.length > 1 ? 'them' : 'it'}`);
// JOBS=max: node-gyp's make compiles a module's files on every core (sqlite3's C++ files beside SQLite itself).
const rebuild = spawnSync('npm', ['rebuild', '--no-audit', '--no-fund', ...missing], { cwd: root, stdio: 'inherit', env: { ...process.env, JOBS: 'max' } });
if (rebuild.status !== 0) process.exit(rebuild.status ?? 1);
const broken = modules.filter((name) => !loads(name));
if (broken.length) {
  console.log(`${broken.join(' and ')} still do not load after npm rebuild`);
  process.exit(1);
}
if (cache && !existsSync(cache)) {
  mkdirSync(dirname(cache), { recursive: true });
  const temporary = `${cache}.${process.pid}.tmp`;
  const pack = spawnSync('tar', ['-czf', temporary, 'build/Release/node_sqlite3.node'], { cwd: sqlite3Dir, stdio: 'inherit' });
  if (pack.status === 0) {
    renameSync(temporary, cache);
    console.log(`sqlite3: the compiled binary is kept in ${cache} for the next install`);
  } else {
    rmSync(temporary, { force: true });
  }
}
if (missing.includes('argon2') && existsSync(argon2Binary) && !existsSync(argon2Cache)) {
  copyWhole(argon2Binary, argon2Cache);
  console.log(`argon2: the compiled binary is kept in ${argon2Cache} for the next install`);
}
console.log(`native modules ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
