#!/usr/bin/env node
// npm test's first step: makes sure the native modules the tests load (sqlite3, argon2) work after
// `npm ci --ignore-scripts`.
//
// argon2 ships prebuilt binaries in its package, but they do not load on this CI machine, so it is
// compiled (about 70 s of one core, beside the build and typecheck). sqlite3's install script asks GitHub for a prebuilt
// binary (prebuild-install) and compiles SQLite when it cannot get one: about 80 s of one core, on
// every fresh clone of a machine that cannot reach GitHub (this CI machine). prebuild-install looks in
// npm's cache (`<npm cache>/_prebuilds/`) before it downloads, so once this step has compiled sqlite3
// it packs the binary there under the name the download would have had; the next install on this
// machine takes it from there as it would take a downloaded one. The key is the package version, the
// N-API version, the platform and the architecture, as for the download.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
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

const started = Date.now();
// sqlite3's install script first runs prebuild-install, which unpacks a cached (or downloaded)
// binary; its verbose log names the cache file. Only when that gives no working binary does npm
// rebuild compile it.
const cache = cachedPrebuild();
if (modules.every(loads)) {
  console.log(`sqlite3: its binary was taken from npm's cache (${cache}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.exit(0);
}
// argon2's shipped binaries do not load on every machine (not on this CI machine): then it is compiled too.
const missing = modules.filter((name) => !loads(name));
console.log(`${missing.join(' and ')} ${missing.length > 1 ? 'do' : 'does'} not load${existsSync(cache ?? '') ? ` (sqlite3 came from npm's cache)` : ''}: npm rebuild compiles ${missing.length > 1 ? 'them' : 'it'}`);
const rebuild = spawnSync('npm', ['rebuild', '--no-audit', '--no-fund', ...missing], { cwd: root, stdio: 'inherit' });
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
console.log(`native modules ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
