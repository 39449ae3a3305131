#!/usr/bin/env node
// Account safety governor benchmark of panel-api (issue 35): the time it adds per action within budget.
//
//   node tools/bench/panel-governor.mjs [--accounts=1000] [--actions=20] [--concurrency=50] [--rounds=5]
//
// Runs tools/bench/panel-governor.bench.ts with @swc-node/register (from source, no build). Exit 2
// when the governor adds 1 ms or more per action.
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const result = spawnSync(process.execPath, ['-r', '@swc-node/register', join(root, 'tools/bench/panel-governor.bench.ts'), ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, SWC_NODE_PROJECT: join(root, 'apps/panel-api/tsconfig.spec.json') },
});
process.exit(result.status ?? 1);
