#!/usr/bin/env node
// The package registry this project is built against serves only the platform binaries for this
// machine (linux-x64); the others (darwin, win32, arm…) answer 404, so `npm install` leaves them out
// of package-lock.json and `npm ci` then refuses the lockfile as out of sync. This adds an entry
// for every such missing optional platform package, marked optional with the os/cpu its name says,
// so `npm ci` accepts the lockfile and skips them on platforms they do not fit (as it would anyway).
// Run it after every `npm install`: `node tools/scripts/complete-lockfile.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const lockPath = join(root, 'package-lock.json');
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const packages = lock.packages;

const OS = ['darwin', 'win32', 'linux', 'android', 'freebsd', 'openharmony', 'sunos', 'aix', 'netbsd', 'openbsd'];
const CPU = { arm64: 'arm64', aarch64: 'arm64', x64: 'x64', ia32: 'ia32', arm: 'arm', riscv64: 'riscv64', ppc64: 'ppc64', s390x: 's390x', loong64: 'loong64' };

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((part) => OS.includes(part));
  const cpu = parts.map((part) => CPU[part]).find(Boolean);
  const entry = {};
  if (os) entry.os = [os];
  if (cpu) entry.cpu = [cpu];
  if (parts.includes('musl') || parts.some((part) => part.startsWith('musl'))) entry.libc = ['musl'];
  else if (os === 'linux' && parts.some((part) => part.startsWith('gnu'))) entry.libc = ['glibc'];
  return entry;
}

/** Where Node would find `dep` from the package at `from` (walking up node_modules folders). */
function resolves(from, dep) {
  let base = from;
  for (;;) {
    if (packages[`${base ? `${base}/` : ''}node_modules/${dep}`]) return true;
    if (!base) return false;
    const index = base.lastIndexOf('/node_modules/');
    base = index === -1 ? '' : base.slice(0, index);
  }
}

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [dep, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    if (resolves(path, dep)) continue;
    const version = String(spec).replace(/^[\^~=>< ]+/, '').split(/\s/)[0];
    const target = `node_modules/${dep}`;
    if (packages[target]) continue;
    packages[target] = { version, dev: entry.dev || undefined, optional: true, ...platformOf(dep) };
    added += 1;
  }
}

const sorted = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
lock.packages = sorted;
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} optional platform entr${added === 1 ? 'y' : 'ies'}`);
