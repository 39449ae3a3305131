// Vitest reporter that writes the same counts file as results-reporter.js (Jest), so `npm test`
// prints one `N passed, N failed` line that includes the web apps' component tests.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = join(dirname(fileURLToPath(import.meta.url)), '../../tmp/test-results');

function count(tasks, totals) {
  for (const task of tasks ?? []) {
    if (task.type === 'suite' || task.tasks) {
      count(task.tasks, totals);
      continue;
    }
    const state = task.result?.state;
    if (task.mode === 'skip' || task.mode === 'todo') totals.skipped += 1;
    else if (state === 'pass') totals.passed += 1;
    else totals.failed += 1;
  }
}

export default class VitestResultsReporter {
  onFinished(files = [], errors = []) {
    const totals = { passed: 0, failed: 0, skipped: 0 };
    let suitesFailed = 0;
    for (const file of files) {
      if (file.result?.state === 'fail' && !(file.tasks ?? []).length) suitesFailed += 1;
      count(file.tasks, totals);
    }
    const label = process.env.TEST_RESULTS_LABEL || 'run';
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, `${label}-vitest-${process.pid}-${Date.now()}.json`),
      JSON.stringify({ label, ...totals, failed: totals.failed + errors.length, suitesFailed }),
    );
  }
}
