// Vitest reporter that writes the same counts file as results-reporter.js (Jest), so `npm test`
// prints one `N passed, N failed` line that includes the web apps' component tests.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const dir = join(root, 'tmp/test-results');

function count(tasks, totals, file) {
  for (const task of tasks ?? []) {
    if (task.type === 'suite' || task.tasks) {
      count(task.tasks, totals, file);
      continue;
    }
    totals.tests.push({ file, name: task.name, seconds: (task.result?.duration ?? 0) / 1000 });
    const state = task.result?.state;
    if (task.mode === 'skip' || task.mode === 'todo') totals.skipped += 1;
    else if (state === 'pass') totals.passed += 1;
    else totals.failed += 1;
  }
}

export default class VitestResultsReporter {
  onFinished(files = [], errors = []) {
    const totals = { passed: 0, failed: 0, skipped: 0, tests: [] };
    const fileTimes = [];
    let suitesFailed = 0;
    for (const file of files) {
      if (file.result?.state === 'fail' && !(file.tasks ?? []).length) suitesFailed += 1;
      const path = relative(root, file.filepath ?? file.name);
      fileTimes.push({ file: path, seconds: (file.result?.duration ?? 0) / 1000 });
      count(file.tasks, totals, path);
    }
    const tests = totals.tests.sort((a, b) => b.seconds - a.seconds).slice(0, 40);
    const label = process.env.TEST_RESULTS_LABEL || 'run';
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, `${label}-vitest-${process.pid}-${Date.now()}.json`),
      JSON.stringify({
        label,
        passed: totals.passed,
        failed: totals.failed + errors.length,
        skipped: totals.skipped,
        suitesFailed,
        files: fileTimes,
        tests,
      }),
    );
  }
}
