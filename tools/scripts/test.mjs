#!/usr/bin/env node
// `npm test`: lint (module boundaries included), the dependency check (every package in package.json
// used, every imported package declared), typecheck, the committed OpenAPI documents against
// the code, the web apps' generated API types against their service's document, build, unit and
// component tests, e2e tests on SQLite, e2e tests again on PostgreSQL, the web apps' browser tests
// (Chromium: panel-web, then repo-monitor-web) and the deployment tests.
//
// The steps run one after another. Running them in four lanes at once (checks; build, browser and
// deploy; e2e on SQLite; e2e on PostgreSQL) was measured on the 2-core machine: 1,672 s against
// 1,555 s one after another, with every step's CPU time up and timing failures in tests that wait
// for the machine. One after another the steps need about 1,930 CPU seconds and keep 1.2-1.9 cores
// busy, except the browser steps (0.5): two cores cannot finish them in under about 16 minutes
// however they are split, so the way to 15 is less CPU, not more overlap. TEST_LANES=4 still runs
// the lanes, to measure again.
// Each step's output is kept in tmp/test-logs/<step>.log and printed whole when the step ends. Every
// step runs even after a failure so the final line counts everything; that line is
// `N passed, N failed[, N skipped]`, summed from the test runners' reports in tmp/test-results/.
// Before it, the run prints how long each step took (and how many cores it kept busy) and the
// slowest spec files and tests, so the next slowdown is seen when it comes.
// PostgreSQL is required: when it is missing the run fails.
//
// `npm test -- <step> [<step> ...]` runs only the named steps.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const resultsDir = join(root, 'tmp/test-results');
const logsDir = join(root, 'tmp/test-logs');
const require = createRequire(import.meta.url);
// No colour codes in CI logs. Nx turns FORCE_COLOR=0 into NO_COLOR=1 and then hands its tasks
// FORCE_COLOR=true (colours, plus Node's "NO_COLOR is ignored" warning in every worker); 'false' is
// passed through as it is, and NO_COLOR covers Nx's own output.
// Jest reads its .cts configs through ts-node, which type-checks them first: 5-20 s of CPU for each
// of the run's ~20 Jest processes. The typecheck step checks them already, so they are only transpiled.
const env = {
  ...process.env,
  NX_NO_CLOUD: 'true',
  NX_DAEMON: 'false',
  NX_TUI: 'false',
  FORCE_COLOR: 'false',
  NO_COLOR: '1',
  TS_NODE_TRANSPILE_ONLY: 'true',
};
const postgresUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const only = process.argv.slice(2);
const sequential = process.env.TEST_LANES !== '4';
const timeBinary = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

const projects = 'panel-api,repo-monitor,config,crypto,database,http-service,notify,outbound-http,testing,update-check,web-ui,panel-web,repo-monitor-web';
const lintTargets = ['apps', 'libs'];
const nx = (...args) => ['npx', ['nx', ...args]];
const node = (...args) => [process.execPath, args];
const jest = (...args) => node('node_modules/jest/bin/jest.js', ...args);

/** @type {{ name: string, lane: string, command: [string, string[]], env?: Record<string, string>, needs?: () => Promise<string | undefined> }[]} */
const steps = [
  // One ESLint process for every project, each file under its project's own eslint.config.mjs (the
  // lookup `nx run <project>:lint` makes per project): half the CPU of thirteen processes.
  { name: 'lint', lane: 'checks', command: node('node_modules/eslint/bin/eslint.js', '--flag', 'v10_config_lookup_from_file', ...lintTargets) },
  { name: 'dependencies', lane: 'checks', command: node('tools/scripts/check-dependencies.mjs') },
  { name: 'typecheck', lane: 'checks', command: node('tools/scripts/typecheck.mjs') },
  { name: 'openapi', lane: 'checks', command: node('tools/scripts/openapi.mjs', '--check') },
  { name: 'api-types', lane: 'checks', command: node('apps/panel-web/scripts/api-types.mjs', '--check') },
  { name: 'api-types-monitor', lane: 'checks', command: node('apps/repo-monitor-web/scripts/api-types.mjs', '--check') },
  {
    name: 'unit',
    lane: 'checks',
    command: nx('run-many', '-t', 'test', '--projects', projects, '--skip-nx-cache'),
    env: { TEST_RESULTS_LABEL: 'unit' },
  },
  // The build is made once; the browser and deployment steps use it as it is (they are not Nx
  // targets here, so nothing rebuilds it behind their back).
  { name: 'build', lane: 'build', command: nx('run-many', '-t', 'build', '--projects', 'panel-api,repo-monitor', '--skip-nx-cache') },
  {
    name: 'browser',
    lane: 'build',
    command: jest('-c', 'apps/panel-web/jest.browser.config.cts', '--runInBand'),
    env: { TEST_DATABASE_DRIVER: 'sqlite', TEST_RESULTS_LABEL: 'browser' },
  },
  {
    name: 'browser-monitor',
    lane: 'build',
    command: jest('-c', 'apps/repo-monitor-web/jest.browser.config.cts', '--runInBand'),
    env: { TEST_DATABASE_DRIVER: 'sqlite', TEST_RESULTS_LABEL: 'browser-monitor' },
  },
  { name: 'deploy', lane: 'build', command: jest('-c', 'deploy/jest.e2e.config.cts', '--runInBand'), env: { TEST_RESULTS_LABEL: 'deploy' } },
  {
    name: 'e2e-sqlite',
    lane: 'sqlite',
    command: nx('run-many', '-t', 'e2e', '--projects', 'panel-api,repo-monitor', '--skip-nx-cache'),
    env: { TEST_DATABASE_DRIVER: 'sqlite', TEST_RESULTS_LABEL: 'e2e-sqlite' },
  },
  {
    name: 'e2e-postgres',
    lane: 'postgres',
    command: nx('run-many', '-t', 'e2e', '--projects', 'panel-api,repo-monitor', '--skip-nx-cache'),
    env: { TEST_DATABASE_DRIVER: 'postgres', TEST_DATABASE_URL: postgresUrl, TEST_RESULTS_LABEL: 'e2e-postgres' },
    needs: postgresMissing,
  },
];

const unknown = only.filter((name) => !steps.some((step) => step.name === name));
if (unknown.length) {
  console.log(`Unknown step ${unknown.join(', ')}; the steps are ${steps.map((step) => step.name).join(', ')}.`);
  process.exit(2);
}

async function postgresMissing() {
  const { Client } = require('pg');
  const client = new Client({ connectionString: postgresUrl, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    return `PostgreSQL is required for the e2e tests but ${postgresUrl.replace(/:[^:@/]*@/, ':***@')} is unreachable: ${error.message}`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const failures = [];
const timings = [];
const started = Date.now();
const clock = () => `${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s`;

/** Runs one step with its output in its own log file; prints the log when the step ends. */
async function runStep(step) {
  const missing = await step.needs?.();
  if (missing) {
    console.log(`\n=== ${step.name}: FAILED: ${missing}`);
    failures.push(`${step.name} (${missing})`);
    return;
  }
  const logFile = join(logsDir, `${step.name}.log`);
  const timeFile = join(logsDir, `${step.name}.time`);
  const [command, args] = step.command;
  const shown = `${command === process.execPath ? 'node' : command} ${args.join(' ')}`;
  console.log(`[${clock()}] ${step.name} started: ${shown}`);
  const stepStarted = Date.now();
  const out = openSync(logFile, 'w');
  const [file, argv] = timeBinary ? [timeBinary, ['-q', '-o', timeFile, '-f', '%U %S', command, ...args]] : [command, args];
  const status = await new Promise((resolve) => {
    const child = spawn(file, argv, { cwd: root, stdio: ['ignore', out, out], env: { ...env, ...step.env } });
    child.on('error', (error) => resolve(`could not start: ${error.message}`));
    child.on('exit', (code, signal) => resolve(code ?? signal));
  });
  closeSync(out);
  const seconds = (Date.now() - stepStarted) / 1000;
  let cpu;
  if (timeBinary && existsSync(timeFile)) {
    const [user, system] = readFileSync(timeFile, 'utf8').trim().split('\n').pop().split(' ').map(Number);
    if (Number.isFinite(user + system)) cpu = user + system;
  }
  timings.push({ name: step.name, lane: step.lane, seconds, cpu });
  console.log(`\n=== ${step.name}: ${shown}`);
  process.stdout.write(readFileSync(logFile, 'utf8'));
  if (status !== 0) {
    failures.push(step.name);
    console.log(`=== ${step.name}: FAILED after ${seconds.toFixed(1)}s (exit ${status})`);
  } else {
    console.log(`=== ${step.name}: ok in ${seconds.toFixed(1)}s`);
  }
}

rmSync(resultsDir, { recursive: true, force: true });
rmSync(logsDir, { recursive: true, force: true });
mkdirSync(logsDir, { recursive: true });

const chosen = steps.filter((step) => !only.length || only.includes(step.name));
const lanes = new Map();
for (const step of chosen) lanes.set(sequential ? 'one' : step.lane, [...(lanes.get(sequential ? 'one' : step.lane) ?? []), step]);
await Promise.all(
  [...lanes.values()].map(async (laneSteps) => {
    for (const step of laneSteps) await runStep(step);
  }),
);

let passed = 0;
let failed = 0;
let skipped = 0;
const failedByLabel = new Map();
const files = [];
const tests = [];
if (existsSync(resultsDir)) {
  for (const file of readdirSync(resultsDir)) {
    const report = JSON.parse(readFileSync(join(resultsDir, file), 'utf8'));
    passed += report.passed;
    failed += report.failed;
    skipped += report.skipped;
    failedByLabel.set(report.label, (failedByLabel.get(report.label) ?? 0) + report.failed + report.suitesFailed);
    for (const entry of report.files ?? []) files.push({ ...entry, label: report.label });
    for (const entry of report.tests ?? []) tests.push({ ...entry, label: report.label });
  }
}
// A step that failed without a failing test (lint, typecheck, build, a suite that did not load,
// no tests found) still counts as one failure, so the last line never hides a broken run.
for (const name of failures) {
  if (!failedByLabel.get(name)) failed += 1;
}

const total = (Date.now() - started) / 1000;
console.log(`\nSteps (${sequential ? 'one after another' : 'lanes at the same time'}; cores: CPU time over wall time):`);
for (const timing of timings) {
  const cores = timing.cpu === undefined ? '' : `  cpu ${timing.cpu.toFixed(0).padStart(5)}s  cores ${(timing.cpu / timing.seconds).toFixed(2)}`;
  console.log(`  ${timing.name.padEnd(18)} ${timing.lane.padEnd(9)} ${timing.seconds.toFixed(0).padStart(5)}s${cores}`);
}
console.log(`  ${'all'.padEnd(28)} ${total.toFixed(0).padStart(5)}s`);
console.log('\nSlowest 20 spec files:');
for (const entry of files.sort((a, b) => b.seconds - a.seconds).slice(0, 20)) {
  console.log(`  ${entry.seconds.toFixed(1).padStart(6)}s  ${entry.label.padEnd(16)} ${entry.file}`);
}
console.log('\nSlowest 20 tests:');
for (const entry of tests.sort((a, b) => b.seconds - a.seconds).slice(0, 20)) {
  console.log(`  ${entry.seconds.toFixed(1).padStart(6)}s  ${entry.label.padEnd(16)} ${entry.file}: ${entry.name}`);
}
if (failures.length) console.log(`\nFailed steps: ${failures.join(', ')}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failures.length || failed ? 1 : 0);
