#!/usr/bin/env node
// `npm run openapi`: writes each service's OpenAPI document, built from the code, to the committed
// file apps/<app>/openapi.json. `npm run openapi -- --check` writes nothing and fails when a
// committed document differs from the code (CI runs it). Optional app names limit the run:
// `npm run openapi -- panel-api`. Each run also regenerates the web apps' API types from the
// documents (apps/panel-web and apps/repo-monitor-web, scripts/api-types.mjs), so resolving a merge
// conflict in either generated file is: take a side, run this, commit.
//
// Each app's src/openapi-export.ts builds the application against a throwaway data directory
// (TypeScript run through @swc-node/register, as in the tests) without listening: no network, no
// database server. The output is canonical: paths and component schemas in name order, two-space
// JSON with a final newline, nothing that changes from run to run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const APPS = ['panel-api', 'repo-monitor'];

const args = process.argv.slice(2);
const check = args.includes('--check');
const unknownFlags = args.filter((arg) => arg.startsWith('-') && arg !== '--check');
const names = args.filter((arg) => !arg.startsWith('-'));
const unknownApps = names.filter((name) => !APPS.includes(name));
if (unknownFlags.length || unknownApps.length) {
  console.error(`usage: node tools/scripts/openapi.mjs [--check] [${APPS.join('|')} ...]`);
  process.exit(2);
}
const apps = names.length ? names : APPS;

function sortedKeys(object) {
  return Object.fromEntries(Object.keys(object).sort().map((key) => [key, object[key]]));
}

/** Stable text of a document: the generator's order for everything but the two big maps. */
export function canonicalOpenApi(document) {
  const copy = { ...document };
  if (copy.paths) copy.paths = sortedKeys(copy.paths);
  if (copy.components?.schemas) copy.components = { ...copy.components, schemas: sortedKeys(copy.components.schemas) };
  return `${JSON.stringify(copy, null, 2)}\n`;
}

function generate(app, workDir) {
  const output = join(workDir, `${app}.json`);
  const env = { ...process.env, SWC_NODE_PROJECT: join(root, `apps/${app}/tsconfig.app.json`) };
  const result = spawnSync(process.execPath, ['-r', '@swc-node/register', join(root, `apps/${app}/src/openapi-export.ts`), output], {
    cwd: root,
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (result.status !== 0 || !existsSync(output)) {
    process.stderr.write(result.stdout ?? '');
    process.stderr.write(result.stderr ?? '');
    console.error(`${app}: generating the OpenAPI document failed (exit ${result.status ?? result.signal})`);
    return undefined;
  }
  return canonicalOpenApi(JSON.parse(readFileSync(output, 'utf8')));
}

/** The web app whose API types come from each service's document. */
const WEB_APPS = { 'panel-api': 'panel-web', 'repo-monitor': 'repo-monitor-web' };

/** Regenerates a web app's API types from its service's document. */
function regenerateWebTypes(app) {
  const web = WEB_APPS[app];
  const script = join(root, `apps/${web}/scripts/api-types.mjs`);
  if (!existsSync(script)) return;
  const result = spawnSync(process.execPath, [script], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`regenerating the ${web} API types failed`);
    failed++;
  }
}

/** The first lines where two texts differ, as a short hint of what changed. */
function diffHint(committed, generated) {
  const a = committed.split('\n');
  const b = generated.split('\n');
  let line = 0;
  while (line < a.length && line < b.length && a[line] === b[line]) line++;
  const from = Math.max(0, line - 3);
  const show = (lines, sign) => lines.slice(from, line + 4).map((text, i) => `${from + i === line ? sign : ' '} ${from + i + 1}: ${text}`);
  return [`first difference at line ${line + 1}:`, '--- committed', ...show(a, '-'), '+++ from the code', ...show(b, '+')].join('\n');
}

const workDir = mkdtempSync(join(tmpdir(), 'openapi-'));
let failed = 0;
try {
  for (const app of apps) {
    const file = join(root, `apps/${app}/openapi.json`);
    const generated = generate(app, workDir);
    if (generated === undefined) {
      failed++;
      continue;
    }
    const committed = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    if (check) {
      if (committed === generated) {
        console.log(`apps/${app}/openapi.json matches the code`);
      } else {
        failed++;
        console.error(
          committed === undefined
            ? `apps/${app}/openapi.json is missing`
            : `apps/${app}/openapi.json differs from the code\n${diffHint(committed, generated)}`,
        );
      }
    } else {
      if (committed === generated) {
        console.log(`apps/${app}/openapi.json unchanged`);
      } else {
        writeFileSync(file, generated);
        console.log(`apps/${app}/openapi.json written`);
      }
      regenerateWebTypes(app);
    }
  }
} finally {
  rmSync(workDir, { recursive: true, force: true });
}
if (failed) {
  console.error(check ? 'Regenerate with `npm run openapi` and commit the result.' : 'No document was written for the apps that failed.');
  process.exit(1);
}
