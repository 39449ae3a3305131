#!/usr/bin/env node
// Fails when package.json declares a package nothing in the repository uses (an image or a CI
// install then carries it for nothing, as @nestjs/platform-express brought Express and multer into
// both images), or when a file imports a package package.json does not declare (it resolves only
// because another package happens to depend on it, and breaks the day that package stops).
//
// A declared package counts as used when:
//  - a file of the repository imports, requires, require.resolve()s, import()s or `-r`-preloads it,
//    names it in `/// <reference types>`, or reads a file under node_modules/<name>/;
//  - a configuration file the tools read names it: an Nx plugin or executor (nx.json, project.json),
//    a Jest preset or transform, a Vite/Vitest option, a tsconfig `types` entry;
//  - its command runs in a project.json target, a package.json script, .ci/run or a Dockerfile;
//  - a used package requires it as a (non-optional) peer dependency, so npm needs it at the top;
//  - it is @types/<name> of a used <name> (@types/node: of Node's built-in modules);
//  - or it is in ALLOWED below, with the reason none of the above can see it.
// Usage: node tools/scripts/check-dependencies.mjs
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** Packages used in ways this script cannot see, each with the reason. Keep it short. */
const ALLOWED = {
  tslib: 'tsconfig.base.json sets importHelpers: the compiled services require it',
  '@swc/helpers':
    "@swc-node/register turns tsconfig.base.json's importHelpers into SWC's externalHelpers: the TypeScript it runs (e2e child processes, openapi.mjs, benchmarks) requires it",
  'ts-node': "Jest loads the jest*.config.cts files with it (Node 20 has no built-in TypeScript)",
  '@eslint/js': "@nx/eslint-plugin's flat configs (eslint.config.mjs) load it without declaring it",
  'typescript-eslint': "@nx/eslint-plugin's flat configs (eslint.config.mjs) load it without declaring it",
  'eslint-config-prettier': "@nx/eslint-plugin's flat configs add it when it and prettier are installed",
  prettier: 'the formatter .prettierrc configures (editors and `npx prettier`)',
};

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const declared = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})]);
const tsconfigBase = JSON.parse(readFileSync(join(root, 'tsconfig.base.json'), 'utf8'));
const aliases = Object.keys(tsconfigBase.compilerOptions?.paths ?? {});
const builtins = new Set(builtinModules);

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((file) => file && existsSync(join(root, file)));
const isCode = (file) => /\.(?:[cm]?[jt]s|tsx|jsx)$/.test(file);
const isConfig = (file) =>
  file === 'nx.json' ||
  /(?:^|\/)(?:project\.json|tsconfig[^/]*\.json)$/.test(file) ||
  /(?:^|\/)(?:jest|vite|vitest|eslint|webpack)[^/]*\.(?:[cm]?[jt]s)$/.test(file) ||
  file.startsWith('tools/vite/');

/** The package a module specifier names, or undefined for relative paths, built-ins and aliases. */
function packageOf(specifier) {
  const bare = specifier.split('?')[0];
  if (!bare || bare.startsWith('.') || bare.startsWith('/') || bare.startsWith('node:') || bare.includes('${')) return undefined;
  if (aliases.some((alias) => bare === alias || bare.startsWith(`${alias}/`))) return undefined;
  const parts = bare.split('/');
  const name = bare.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  if (builtins.has(name) || !/^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i.test(name)) return undefined;
  return name;
}

const used = new Map(); // package -> first place seen
const imported = new Map(); // package imported by code -> first file
let usesBuiltins = false;
const use = (name, where) => {
  if (name && !used.has(name)) used.set(name, where);
};

const IMPORT_PATTERNS = [
  /\bfrom\s*['"]([^'"\n]+)['"]/g,
  /\bimport\s*['"]([^'"\n]+)['"]/g,
  /\bimport\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g,
  /\brequire(?:\.resolve)?\s*\(\s*['"]([^'"\n]+)['"]\s*[,)]/g,
  /\b(?:jest|vi)\.(?:mock|requireActual|importActual)\s*\(\s*['"]([^'"\n]+)['"]/g,
  /['"](?:-r|--require|--import)['"]\s*,\s*['"]([^'"\n]+)['"]/g,
];

for (const file of files.filter(isCode)) {
  const source = readFileSync(join(root, file), 'utf8');
  for (const match of source.matchAll(/^\s*\/\/\/\s*<reference\s+types=["']([^"']+)["']/gm)) use(packageOf(match[1]), file);
  // Comments mention packages without using them: drop whole-line and block comments.
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  for (const pattern of IMPORT_PATTERNS) {
    for (const match of code.matchAll(pattern)) {
      if (match[1].startsWith('node:') || builtins.has(match[1].split('/')[0])) usesBuiltins = true;
      const name = packageOf(match[1]);
      if (!name) continue;
      use(name, file);
      if (!imported.has(name)) imported.set(name, file);
    }
  }
  for (const match of code.matchAll(/node_modules\/((?:@[\w.-]+\/)?[\w.-]+)/g)) use(match[1], file);
}

// Configuration files: any string naming a declared package (or an executor `<package>:<name>`).
for (const file of files.filter(isConfig)) {
  const source = readFileSync(join(root, file), 'utf8');
  for (const match of source.matchAll(/['"]([^'"\s]+)['"]/g)) {
    const name = packageOf(match[1].split(':')[0]);
    if (name && declared.has(name)) use(name, file);
    if (file.includes('tsconfig') && name && declared.has(`@types/${name}`)) use(`@types/${name}`, file);
  }
}

// Commands: the first word of each command, or the word after npx.
const commands = [...Object.values(pkg.scripts ?? {})];
for (const file of files) {
  if (basename(file) === 'project.json') {
    const walk = (value, key) => {
      if (typeof value === 'string' && (key === 'command' || key === 'commands')) commands.push(value);
      else if (Array.isArray(value)) value.forEach((item) => walk(item, key));
      else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, k);
    };
    walk(JSON.parse(readFileSync(join(root, file), 'utf8')), '');
  } else if (file === '.ci/run' || /Dockerfile$|\.sh$/.test(file)) {
    commands.push(...readFileSync(join(root, file), 'utf8').split('\n'));
  } else if (isCode(file)) {
    // spawn('npx', ['nx', ...]) and the like in scripts.
    for (const match of readFileSync(join(root, file), 'utf8').matchAll(/['"]npx['"]\s*,\s*\[\s*['"]([^'"]+)['"]/g)) commands.push(match[1]);
  }
}
const bins = new Map(); // command -> package
for (const name of declared) {
  const manifest = join(root, 'node_modules', name, 'package.json');
  if (!existsSync(manifest)) continue;
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8'));
  if (typeof bin === 'string') bins.set(name.split('/').pop(), name);
  else for (const command of Object.keys(bin ?? {})) bins.set(command, name);
}
for (const command of commands) {
  for (const part of command.split(/&&|\|\||[;|]/)) {
    const words = part.trim().replace(/^(?:RUN|CMD|ENTRYPOINT)\s+/, '').split(/\s+/);
    const word = words[0] === 'npx' ? words[1] : words[0];
    if (bins.has(word)) use(bins.get(word), `command: ${part.trim()}`);
  }
}

if (usesBuiltins) use('@types/node', "Node's built-in modules");
for (const name of Object.keys(ALLOWED)) use(name, `ALLOWED: ${ALLOWED[name]}`);

// Required peers of used packages, and the types of used packages, until nothing changes.
for (let changed = true; changed; ) {
  const before = used.size;
  for (const name of [...used.keys()]) {
    const manifest = join(root, 'node_modules', name, 'package.json');
    if (existsSync(manifest)) {
      const { peerDependencies = {}, peerDependenciesMeta = {} } = JSON.parse(readFileSync(manifest, 'utf8'));
      for (const peer of Object.keys(peerDependencies)) {
        if (!peerDependenciesMeta[peer]?.optional && declared.has(peer)) use(peer, `peer of ${name}`);
      }
    }
    const types = name.startsWith('@') ? `@types/${name.slice(1).replace('/', '__')}` : `@types/${name}`;
    if (declared.has(types)) use(types, `types of ${name}`);
  }
  changed = used.size !== before;
}

const unused = [...declared].filter((name) => !used.has(name)).sort();
const undeclared = [...imported.keys()].filter((name) => !declared.has(name)).sort();
const staleAllowed = Object.keys(ALLOWED).filter((name) => !declared.has(name));
for (const name of unused) console.error(`check-dependencies: ${name} is in package.json but nothing uses it: remove it (or add it to ALLOWED with the reason)`);
for (const name of undeclared) console.error(`check-dependencies: ${imported.get(name)} imports ${name}, which package.json does not declare`);
for (const name of staleAllowed) console.error(`check-dependencies: ALLOWED names ${name}, which package.json does not declare`);
if (process.env.CHECK_DEPENDENCIES_VERBOSE) for (const [name, where] of [...used].sort()) if (declared.has(name)) console.log(`${name}: ${where}`);
if (unused.length || undeclared.length || staleAllowed.length) process.exit(1);
console.log(`check-dependencies: all ${declared.size} packages in package.json are used, and every imported package is declared`);
