// Jest reporter that writes each run's own counts to tmp/test-results/, so `npm test` can print
// one `N passed, N failed` line taken from the test runner's report rather than from parsing logs.
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

class ResultsReporter {
  constructor(globalConfig) {
    this.globalConfig = globalConfig;
  }

  onRunComplete(contexts, results) {
    const dir = join(__dirname, '../../tmp/test-results');
    mkdirSync(dir, { recursive: true });
    const first = contexts && [...contexts][0];
    const name = (first?.config?.displayName?.name || 'jest').replace(/[^A-Za-z0-9_-]/g, '_');
    const label = process.env.TEST_RESULTS_LABEL || 'run';
    const file = join(dir, `${label}-${name}-${process.pid}-${Date.now()}.json`);
    writeFileSync(
      file,
      JSON.stringify({
        label,
        passed: results.numPassedTests,
        failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
        skipped: results.numPendingTests + results.numTodoTests,
        suitesFailed: results.numFailedTestSuites,
      }),
    );
  }
}

module.exports = ResultsReporter;
