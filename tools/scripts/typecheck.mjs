#!/usr/bin/env node
// Type-checks the whole workspace with four TypeScript programs instead of one per project: every
// project's program re-reads the shared libraries and the type packages, so thirteen programs spent
// about twice the CPU of these four. Same files, same compiler options as each project's own
// tsconfig (tools/typecheck/*.json say which); `nx run <project>:typecheck` still checks one project.
//
//   node tools/scripts/typecheck.mjs
//
// Two programs at a time (one per core); exit 1 when any reports an error.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const programs = [
  // services, libraries, their unit and e2e specs, the deployment checks
  'node',
  // both web apps and libs/web-ui with their component specs (Vitest globals)
  'web',
  // the same web code without test types: production code must not lean on Vitest's globals
  'web-app',
  // both web apps' browser tests (Node with the DOM library)
  'browser',
];
const tsc = join(root, 'node_modules/typescript/bin/tsc');

function check(name) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [tsc, '-p', join(root, 'tools/typecheck', `${name}.json`), '--pretty', 'false'], { cwd: root });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`${code === 0 ? 'ok' : 'FAILED'}  tools/typecheck/${name}.json (${seconds}s)\n${output}`);
      resolve(code === 0);
    });
  });
}

const queue = [...programs];
const results = await Promise.all(
  Array.from({ length: 2 }, async () => {
    const outcomes = [];
    while (queue.length) outcomes.push(await check(queue.shift()));
    return outcomes;
  }),
);
process.exit(results.flat().every(Boolean) ? 0 : 1);
