#!/usr/bin/env node
// Flakiness check: runs e2e or browser spec files several times in a row, on SQLite and on
// PostgreSQL, optionally while a second process keeps every core busy, and prints each spec's
// passes and failures. A spec that fails once here is flaky (or the product is), never "the machine".
//
//   node tools/scripts/repeat-specs.mjs [--times 3] [--load] [--db sqlite,postgres] <project> [<spec substring> ...]
//
// Other arguments starting with -- go to jest (e.g. --testPathIgnorePatterns=cluster-).
// <project> is panel-api, repo-monitor (e2e), panel-web, repo-monitor-web (browser) or deploy.
// Without a spec substring every spec of the project runs. --load starts one busy-looping child per
// core for the whole run (a CPU "stress" from a second process). Exit 1 when any run failed.
import { fork, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// A child started with --burn only keeps one core busy until it is killed.
if (process.argv[2] === '--burn') {
  for (;;) Math.sqrt(Math.random());
}

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const configs = {
  'panel-api': 'apps/panel-api/jest.e2e.config.cts',
  'repo-monitor': 'apps/repo-monitor/jest.e2e.config.cts',
  'panel-web': 'apps/panel-web/jest.browser.config.cts',
  'repo-monitor-web': 'apps/repo-monitor-web/jest.browser.config.cts',
  deploy: 'deploy/jest.e2e.config.cts',
};

const args = process.argv.slice(2);
function option(name, fallback) {
  const index = args.indexOf(name);
  if (index === -1) return fallback;
  const [value] = args.splice(index, 2).slice(1);
  return value;
}
const times = Number(option('--times', '3'));
const databases = option('--db', 'sqlite,postgres').split(',');
const loadIndex = args.indexOf('--load');
const load = loadIndex !== -1;
if (load) args.splice(loadIndex, 1);
const [project, ...patterns] = args;
if (!configs[project] || !Number.isInteger(times) || times < 1 || databases.some((db) => !['sqlite', 'postgres'].includes(db))) {
  console.error('usage: node tools/scripts/repeat-specs.mjs [--times 3] [--load] [--db sqlite,postgres] <panel-api|repo-monitor|panel-web|repo-monitor-web|deploy> [<spec substring> ...]');
  process.exit(2);
}
// Browser and deployment specs run on SQLite only (as in npm test).
const drivers = configs[project].includes('e2e.config') && project !== 'deploy' ? databases : ['sqlite'];

const burners = load
  ? cpus().map(() => fork(join(root, 'tools/scripts/repeat-specs.mjs'), ['--burn'], { stdio: 'ignore' }))
  : [];
const stopBurners = () => burners.forEach((child) => child.kill('SIGKILL'));
process.on('exit', stopBurners);

const env = {
  ...process.env,
  NX_NO_CLOUD: 'true',
  NX_DAEMON: 'false',
  FORCE_COLOR: 'false',
  NO_COLOR: '1',
  TS_NODE_TRANSPILE_ONLY: 'true',
  TEST_RESULTS_LABEL: 'repeat',
};
const outcomes = [];
for (const driver of drivers) {
  for (let round = 1; round <= times; round++) {
    // One report file per run, so several runs can go at the same time.
    const reportFile = join(root, `tmp/repeat-specs-${project}-${driver}-${process.pid}.json`);
    const jestArgs = ['node_modules/jest/bin/jest.js', '-c', configs[project], '--runInBand', '--passWithNoTests', '--json', '--outputFile', reportFile, ...patterns];
    rmSync(reportFile, { force: true });
    const started = Date.now();
    const result = spawnSync(process.execPath, jestArgs, { cwd: root, env: { ...env, TEST_DATABASE_DRIVER: driver }, encoding: 'utf8' });
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    let report;
    try {
      report = JSON.parse(readFileSync(reportFile, 'utf8'));
    } catch {
      report = undefined;
    }
    if (!report) {
      console.log(`${driver} round ${round}: jest did not report (exit ${result.status})\n${result.stderr.slice(-4000)}`);
      outcomes.push({ driver, round, file: '(run)', ok: false });
      continue;
    }
    for (const suite of report.testResults) {
      // 'failed' is the only failing status: a suite with skipped tests reports 'focused' or 'pending'.
      const ok = suite.status !== 'failed';
      outcomes.push({ driver, round, file: suite.name.replace(`${root}/`, ''), ok });
      if (!ok) console.log(`FAILED ${driver} round ${round}: ${suite.name}\n${suite.message.slice(0, 4000)}`);
    }
    // Database-free specs run on SQLite only (as in npm test), so a spec asked for on PostgreSQL may match nothing.
    if (report.numTotalTestSuites === 0) console.log(`${driver} round ${round}: no spec here runs on ${driver}`);
    else console.log(`${driver} round ${round}: ${report.numPassedTests} passed, ${report.numFailedTests} failed in ${seconds}s${load ? ` (with ${burners.length} busy processes)` : ''}`);
  }
}
stopBurners();
// --passWithNoTests above lets a database skip a database-free spec; a pattern that matches nothing anywhere is a mistake.
if (outcomes.length === 0) {
  console.error(`no spec of ${project} matches ${patterns.join(' ') || '(all)'}`);
  process.exit(1);
}

const byFile = new Map();
for (const outcome of outcomes) {
  const key = `${outcome.driver} ${outcome.file}`;
  const entry = byFile.get(key) ?? { passed: 0, failed: 0 };
  entry[outcome.ok ? 'passed' : 'failed'] += 1;
  byFile.set(key, entry);
}
console.log('\nspec (database): passed/failed');
for (const [key, entry] of [...byFile].sort()) console.log(`  ${entry.failed ? 'FLAKY ' : ''}${key}: ${entry.passed}/${entry.failed}`);
process.exit(outcomes.every((outcome) => outcome.ok) ? 0 : 1);
