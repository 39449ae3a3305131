#!/usr/bin/env node
// After `nx build <app>`: trims dist/apps/<app>/package.json to the packages the bundle really
// loads, and writes its package-lock.json as the exact subset of the workspace lockfile those
// packages need. Nx's generated files list every package any file of a linked library imports,
// test helpers included (so images installed test stand-ins), and its pruned lockfile loses the
// workspace's `overrides`, which made `npm ci` in the image refuse it.
//
// Optional peer dependencies are the host's choice, and the host here is the bundle: one is installed
// only when the bundle requires it (the Fastify adapter, the pg and sqlite3 drivers, @fastify/static)
// or a package depends on it outright. Following them blindly put @nestjs/core's
// @nestjs/platform-express (with Express and multer) and typeorm's ts-node (with typescript and
// @swc/core) into both images, though nothing there ever loads them.
// Usage: node tools/scripts/prune-dist.mjs <app>
import { builtinModules } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const app = process.argv[2];
if (!app) {
  console.error('usage: prune-dist.mjs <app>');
  process.exit(2);
}
const dist = join(root, 'dist/apps', app);
const pkg = JSON.parse(readFileSync(join(dist, 'package.json'), 'utf8'));
const rootLock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
const rootPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const lockPackages = rootLock.packages;

// Packages the bundle requires at run time (webpack leaves every npm package external).
const bundle = readFileSync(join(dist, 'main.js'), 'utf8');
const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
const required = new Set();
for (const match of bundle.matchAll(/require\(\s*["']([^"'./][^"']*)["']\s*\)/g)) {
  const specifier = match[1];
  if (builtins.has(specifier) || builtins.has(specifier.split('/')[0])) continue;
  const parts = specifier.split('/');
  required.add(specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]);
}

/** Resolves `name` as Node would from the lockfile entry at `from`. */
function resolve(from, name) {
  let base = from;
  for (;;) {
    const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (lockPackages[candidate]) return candidate;
    if (!base) return undefined;
    const index = base.lastIndexOf('/node_modules/');
    base = index === -1 ? '' : base.slice(0, index);
  }
}

/** The peer dependencies of a lockfile entry that are not optional: npm installs those with it. */
function requiredPeers(entry) {
  const optional = entry?.peerDependenciesMeta ?? {};
  return Object.keys(entry?.peerDependencies ?? {}).filter((name) => !optional[name]?.optional);
}

// Keep what the bundle requires, plus the required peers of kept packages (nestjs-pino's pino-http).
const listed = pkg.dependencies ?? {};
const kept = new Set([...required].filter((name) => listed[name]));
for (let changed = true; changed; ) {
  changed = false;
  for (const name of [...kept]) {
    for (const peer of requiredPeers(lockPackages[`node_modules/${name}`])) {
      if (listed[peer] && !kept.has(peer)) {
        kept.add(peer);
        changed = true;
      }
    }
  }
}
const missing = [...required].filter((name) => !listed[name] && !lockPackages[`node_modules/${name}`]);
if (missing.length) {
  console.error(`prune-dist: the bundle requires packages the workspace does not have: ${missing.join(', ')}`);
  process.exit(1);
}
for (const name of required) if (!listed[name] && lockPackages[`node_modules/${name}`]) kept.add(name);

const dependencies = Object.fromEntries(
  [...kept].sort().map((name) => [name, listed[name] ?? lockPackages[`node_modules/${name}`].version]),
);

// The closure of the kept packages in the workspace lockfile: production edges, required peers only.
const closure = new Map();
const queue = Object.keys(dependencies).map((name) => resolve('', name));
while (queue.length) {
  const path = queue.pop();
  if (!path || closure.has(path)) continue;
  const entry = lockPackages[path];
  closure.set(path, entry);
  for (const name of [...Object.keys(entry.dependencies ?? {}), ...Object.keys(entry.optionalDependencies ?? {}), ...requiredPeers(entry)]) {
    const target = resolve(path, name);
    if (target) queue.push(target);
  }
}

const prunedPkg = { ...pkg, dependencies };
if (rootPkg.overrides) prunedPkg.overrides = rootPkg.overrides;
const packages = { '': { name: pkg.name, version: pkg.version, dependencies } };
if (rootPkg.overrides) packages[''].overrides = rootPkg.overrides;
for (const path of [...closure.keys()].sort()) {
  const { dev: _dev, devOptional: _devOptional, peer: _peer, ...entry } = closure.get(path);
  packages[path] = entry;
}
// The image's `npm ci` reviews install scripts against allowScripts like the workspace does: keep the
// decisions for the packages this image installs, so the native builds run without a warning.
const installedNames = new Set([...closure.keys()].map((path) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)));
const allowScripts = Object.fromEntries(Object.entries(rootPkg.allowScripts ?? {}).filter(([name]) => installedNames.has(name)));
if (Object.keys(allowScripts).length) prunedPkg.allowScripts = allowScripts;
writeFileSync(join(dist, 'package.json'), `${JSON.stringify(prunedPkg, null, 2)}\n`);
writeFileSync(
  join(dist, 'package-lock.json'),
  `${JSON.stringify({ name: pkg.name, version: pkg.version, lockfileVersion: 3, requires: true, packages }, null, 2)}\n`,
);
const dropped = Object.keys(listed).filter((name) => !kept.has(name));
const optionalPeersLeftOut = new Set();
for (const [path, entry] of closure) {
  for (const name of Object.keys(entry.peerDependenciesMeta ?? {})) {
    const target = resolve(path, name);
    if (target && !closure.has(target)) optionalPeersLeftOut.add(name);
  }
}
console.log(
  `prune-dist ${app}: ${Object.keys(dependencies).length} packages (${closure.size} installed); left out ${dropped.join(', ') || 'nothing'}; ` +
    `optional peers the bundle never loads: ${[...optionalPeersLeftOut].sort().join(', ') || 'none'}`,
);
