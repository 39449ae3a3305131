#!/usr/bin/env node
// Writes tools/testing/spec-seconds.json from the last `npm test` (tmp/test-results/): each in-band
// spec file's wall seconds, averaged over the runs that had it (SQLite and PostgreSQL). The balanced
// sequencer (tools/testing/balanced-sequencer.js) splits the e2e steps' shards by these weights.
// Run it after a full `npm test` when specs were added or became much slower, and commit the file.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const resultsDir = join(root, 'tmp/test-results');
const sums = new Map();
for (const name of readdirSync(resultsDir)) {
  const report = JSON.parse(readFileSync(join(resultsDir, name), 'utf8'));
  for (const { file, seconds } of report.files ?? []) {
    if (!/\.(e2e|browser)-spec\.ts$/.test(file)) continue;
    const [total, count] = sums.get(file) ?? [0, 0];
    sums.set(file, [total + seconds, count + 1]);
  }
}
const files = Object.fromEntries(
  [...sums.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([file, [total, count]]) => [file, Math.round((total / count) * 10) / 10]),
);
const out = join(root, 'tools/testing/spec-seconds.json');
writeFileSync(out, `${JSON.stringify({ note: 'written by tools/scripts/spec-seconds.mjs from a full npm test; only the proportions matter', files }, null, 2)}\n`);
console.log(`${Object.keys(files).length} spec files weighed into ${out}`);
