#!/usr/bin/env node
// Scheduler and live-history benchmark of panel-api (issue 5).
//
//   node tools/bench/panel-scheduler.mjs [--tasks=1000] [--accounts=100] [--clients=200] [--client-processes=2] [--events=1000]
//
// Runs tools/bench/panel-scheduler.bench.ts with @swc-node/register (TypeScript from source, no
// build needed) and --expose-gc, so heap figures are taken after a full collection. That script
// boots the real panel-api in-process with the Telegram simulator on a temporary data directory.
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const result = spawnSync(
  process.execPath,
  ['--expose-gc', '-r', '@swc-node/register', join(root, 'tools/bench/panel-scheduler.bench.ts'), ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit', env: { ...process.env, SWC_NODE_PROJECT: join(root, 'apps/panel-api/tsconfig.spec.json') } },
);
process.exit(result.status ?? 1);
