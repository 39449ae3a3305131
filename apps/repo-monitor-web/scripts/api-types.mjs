#!/usr/bin/env node
// Generates apps/repo-monitor-web/src/api/schema.d.ts from repo-monitor's committed OpenAPI document
// (apps/repo-monitor/openapi.json) with openapi-typescript, so a change to the API that breaks a page
// fails the console's typecheck. With --check it only compares and exits 1 when the file is stale
// (the test run calls it that way).
import openapiTS, { astToString } from 'openapi-typescript';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const source = join(root, 'apps/repo-monitor/openapi.json');
const target = join(root, 'apps/repo-monitor-web/src/api/schema.d.ts');
const check = process.argv.includes('--check');

const document = JSON.parse(readFileSync(source, 'utf8'));
const ast = await openapiTS(document, { alphabetize: true, exportType: false });
const header = '// Generated from apps/repo-monitor/openapi.json by apps/repo-monitor-web/scripts/api-types.mjs. Do not edit.\n\n';
const text = header + astToString(ast);
if (check) {
  const current = existsSync(target) ? readFileSync(target, 'utf8') : '';
  if (current !== text) {
    console.error('apps/repo-monitor-web/src/api/schema.d.ts is stale: run `npx nx run repo-monitor-web:api-types` and commit it.');
    process.exit(1);
  }
  console.log('repo-monitor-web API types match apps/repo-monitor/openapi.json');
} else {
  writeFileSync(target, text);
  console.log(`wrote ${target}`);
}
