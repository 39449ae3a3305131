#!/usr/bin/env node
// Keyword matching and keyword-hits benchmark of panel-api (issue 6).
//
//   node tools/bench/panel-keyword-hits.mjs [--hits=1000000] [--messages=20000] [--runs=20] [--skip-matching] [--skip-hits] [--keep] [--data=DIR]
//
// Runs tools/bench/panel-keyword-hits.bench.ts with @swc-node/register (TypeScript from source, no
// build needed). That script boots the real panel-api in-process on a temporary SQLite database.
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const result = spawnSync(
  process.execPath,
  ['--expose-gc', '-r', '@swc-node/register', join(root, 'tools/bench/panel-keyword-hits.bench.ts'), ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit', env: { ...process.env, SWC_NODE_PROJECT: join(root, 'apps/panel-api/tsconfig.spec.json') } },
);
process.exit(result.status ?? 1);
