// Jest reporter that writes each run's own counts to tmp/test-results/, so `npm test` can print
// one `N passed, N failed` line taken from the test runner's report rather than from parsing logs.
// It also keeps every spec file's and test's duration, so the run can print the slowest of each, and
// when the files run in this process (`--runInBand`, as the e2e, browser and deploy steps do) each
// file's CPU time: the spec's and the in-process service's, not that of child processes. CPU time
// stays meaningful on a busy machine, where wall time doubles.
const { mkdirSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');

const root = join(__dirname, '../..');
/** Tests kept per run: enough for the overall top 20 whatever the split between runs. */
const KEPT_TESTS = 40;

class ResultsReporter {
  constructor(globalConfig) {
    this.globalConfig = globalConfig;
    /** process.cpuUsage() when each spec file started, by its path. */
    this.cpuAtStart = new Map();
    /** CPU seconds each spec file took, by its path. */
    this.cpuSeconds = new Map();
  }

  onTestFileStart(test) {
    this.cpuAtStart.set(test.path, process.cpuUsage());
  }

  onTestFileResult(test) {
    const start = this.cpuAtStart.get(test.path);
    if (!start) return;
    const { user, system } = process.cpuUsage(start);
    this.cpuSeconds.set(test.path, (user + system) / 1e6);
  }

  onRunComplete(contexts, results) {
    const dir = join(root, 'tmp/test-results');
    mkdirSync(dir, { recursive: true });
    const first = contexts && [...contexts][0];
    const name = (first?.config?.displayName?.name || 'jest').replace(/[^A-Za-z0-9_-]/g, '_');
    const label = process.env.TEST_RESULTS_LABEL || 'run';
    const file = join(dir, `${label}-${name}-${process.pid}-${Date.now()}.json`);
    // With workers the files ran elsewhere and this process's CPU says nothing about them.
    const inBand = this.globalConfig.maxWorkers === 1;
    const files = results.testResults.map((suite) => ({
      file: relative(root, suite.testFilePath),
      seconds: Math.max(0, (suite.perfStats.end - suite.perfStats.start) / 1000),
      ...(inBand && this.cpuSeconds.has(suite.testFilePath) && { cpu: this.cpuSeconds.get(suite.testFilePath) }),
    }));
    const tests = results.testResults
      .flatMap((suite) =>
        suite.testResults.map((test) => ({
          file: relative(root, suite.testFilePath),
          name: test.fullName,
          seconds: (test.duration ?? 0) / 1000,
        })),
      )
      .sort((a, b) => b.seconds - a.seconds)
      .slice(0, KEPT_TESTS);
    writeFileSync(
      file,
      JSON.stringify({
        label,
        passed: results.numPassedTests,
        failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
        skipped: results.numPendingTests + results.numTodoTests,
        suitesFailed: results.numFailedTestSuites,
        files,
        tests,
      }),
    );
  }
}

module.exports = ResultsReporter;
