#!/usr/bin/env node
// `npm test`: lint (module boundaries included), the dependency check (every package in package.json
// used, every imported package declared), typecheck, the committed OpenAPI documents against
// the code, the web apps' generated API types against their service's document, build, unit and
// component tests, e2e tests on SQLite, e2e tests again on PostgreSQL, the web apps' browser tests
// (Chromium: panel-web, then repo-monitor-web) and the deployment tests.
//
// The steps run four at a time (TEST_JOBS), each when the steps it needs have ended (the build
// before the browser, deployment and e2e steps), the longest first. One at a time they kept 1.2-1.9
// cores busy, the browser steps 0.2-0.5, and each e2e Jest process (two shards per service and
// database) 0.3-0.6, waiting on its service much of the time, and the replica proofs 0.2; four at a
// time fill both cores (five took 16 % more CPU and longer on a fresh clone: the cores were the limit).
// TEST_JOBS=1 runs them one after another.
//
// The native modules (the first step, which most others wait for) and the replica proofs
// (deploy-cluster-*, as soon as the build is there) run at normal priority, every other step at the
// scheduler's idle priority (SCHED_IDLE: it gets a core only when no normal process wants it), and
// no PostgreSQL e2e step runs beside the replica proofs (see deploy-cluster-panel).
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
// How many steps run at once (TEST_JOBS=1: one after another).
const jobs = Math.max(1, Number(process.env.TEST_JOBS ?? 4) || 1);
// How many Jest processes share each service's e2e specs on each database (E2E_SHARDS=1: one).
const e2eShards = Math.max(1, Number(process.env.E2E_SHARDS ?? 2) || 1);
const timeBinary = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const niceBinary = existsSync('/usr/bin/nice') ? '/usr/bin/nice' : undefined;
const chrtBinary = existsSync('/usr/bin/chrt') ? '/usr/bin/chrt' : undefined;

const unitProjects = ['apps/panel-api', 'apps/repo-monitor', ...['config', 'crypto', 'database', 'http-service', 'notify', 'outbound-http', 'testing', 'update-check', 'panel-texts'].map((lib) => `libs/${lib}`)];
const lintTargets = ['apps', 'libs'];
const nx = (...args) => ['npx', ['nx', ...args]];
const node = (...args) => [process.execPath, args];
const jest = (...args) => node('node_modules/jest/bin/jest.js', ...args);

/**
 * Each step: its command, the steps it must wait for (`after`), and the seconds it took alone on a
 * quiet 2-core machine (`expect`), which orders the queue (see runAll).
 * `light`: it mostly waits on its child processes and takes none of the TEST_JOBS places.
 * `quiet`: a replica proof, at normal priority while the others yield, with no `postgres` step beside it.
 * `urgent`: at normal priority while the others yield, because most steps wait for it.
 * `postgres`: it keeps the PostgreSQL server busy (its backends run at normal priority, whoever asks).
 * @type {{ name: string, command: [string, string[]], env?: Record<string, string>, after?: string[], light?: boolean, quiet?: boolean, urgent?: boolean, postgres?: boolean, expect: number, needs?: () => Promise<string | undefined> }[]}
 */
const steps = [
  // Native modules. `.ci/run` installs with --ignore-scripts and they are made ready here, beside the
  // checks that need none: sqlite3 from npm's cache when this machine compiled it before (seconds),
  // else compiled (80 s of one core; tools/scripts/native-modules.mjs). After a plain `npm ci` they
  // are built already and the step only says so.
  // Every step that loads them waits for it, so it runs at normal priority (`urgent`): at idle
  // priority beside typecheck, build and the component tests, compiling both took 257 s of wall time.
  { name: 'native', command: node('tools/scripts/native-modules.mjs'), urgent: true, expect: 80 },
  // One ESLint process for every project, each file under its project's own eslint.config.mjs (the
  // lookup `nx run <project>:lint` makes per project): half the CPU of thirteen processes.
  { name: 'lint', command: node('node_modules/eslint/bin/eslint.js', '--flag', 'v10_config_lookup_from_file', ...lintTargets), expect: 20 },
  { name: 'dependencies', command: node('tools/scripts/check-dependencies.mjs'), expect: 3 },
  { name: 'typecheck', command: node('tools/scripts/typecheck.mjs'), expect: 45 },
  { name: 'openapi', command: node('tools/scripts/openapi.mjs', '--check'), after: ['native'], expect: 15 },
  { name: 'api-types', command: node('apps/panel-web/scripts/api-types.mjs', '--check'), expect: 3 },
  { name: 'api-types-monitor', command: node('apps/repo-monitor-web/scripts/api-types.mjs', '--check'), expect: 3 },
  // Unit tests of the services and libraries: one Jest process for all their projects (one per
  // project spent its first seconds on Jest and the config each time).
  { name: 'unit', command: jest('--projects', ...unitProjects.map((project) => `${project}/jest.config.cts`)), after: ['native'], expect: 70 },
  // Component tests of the web apps and libs/web-ui (Vitest, jsdom).
  ...[
    ['unit-web', 'apps/panel-web/vite.config.mts'],
    ['unit-monitor-web', 'apps/repo-monitor-web/vite.config.mts'],
    ['unit-web-ui', 'libs/web-ui/vitest.config.mts'],
  ].map(([name, config]) => ({ name, command: node('node_modules/vitest/vitest.mjs', 'run', '--config', config), expect: name === 'unit-web-ui' ? 15 : 40 })),
  // The build is made once; every later step uses it as it is (none is an Nx target here, so nothing
  // rebuilds it behind their back). Two e2e specs start the built service as a process.
  { name: 'build', command: nx('run-many', '-t', 'build', '--projects', 'panel-api,repo-monitor', '--skip-nx-cache'), expect: 60 },
  {
    name: 'browser',
    command: jest('-c', 'apps/panel-web/jest.browser.config.cts', '--runInBand'),
    env: { TEST_DATABASE_DRIVER: 'sqlite' },
    after: ['native', 'build'],
    expect: 300,
    // The About page's cluster case starts two replicas on PostgreSQL.
    needs: postgresMissing,
  },
  {
    name: 'browser-monitor',
    command: jest('-c', 'apps/repo-monitor-web/jest.browser.config.cts', '--runInBand'),
    env: { TEST_DATABASE_DRIVER: 'sqlite' },
    after: ['native', 'build'],
    expect: 300,
  },
  // Deployment checks, in three Jest processes: the two replica proofs (three panel-api replicas under
  // kill -9 and SIGSTOP, about 210 s of wall-clock minutes; repo-monitor behind nginx with a kill -9,
  // about 60 s) and the rest (image recipe, proxy, chart, compose, npm start). All mostly wait on
  // child processes.
  //
  // The three panel-api replicas hold 4 s leases, and a replica starved of CPU loses trust in its
  // leases: its runs in flight end as interrupted and its takeovers come late, a limit of the product
  // under starvation (docs/scaling.md), not of the test. Beside the other steps at `nice 10` it failed
  // once at load 10-14 (12 interrupted runs for 10 paused accounts, a failover of 8.6 s): nice 10 still
  // leaves them a tenth of the cores, and the PostgreSQL server they keep busy runs at normal
  // priority. Run alone at the end, the proofs cost 230-290 s of wall time at 0.2 cores. So they
  // run `quiet`: at normal priority from the moment the build is there, every other step at idle
  // priority (it runs only on a core no normal process wants), and the PostgreSQL e2e steps after them.
  ...[
    ['deploy-cluster-panel', 'panel-cluster', 210],
    ['deploy-cluster-monitor', 'repo-monitor-cluster', 60],
  ].map(([name, spec, expect]) => ({
    name,
    command: jest('-c', 'deploy/jest.e2e.config.cts', '--runInBand', '--testPathPatterns', `${spec}\\.e2e-spec`),
    after: ['native', 'build'],
    light: true,
    quiet: true,
    expect,
  })),
  {
    name: 'deploy',
    command: jest('-c', 'deploy/jest.e2e.config.cts', '--runInBand', '--testPathIgnorePatterns', '/node_modules/', 'cluster\\.e2e-spec'),
    after: ['native', 'build'],
    // A third of a core (npm ci into an empty folder, services started as processes, waiting on
    // them): among the heavy steps it came last and ran a minute with the cores half idle.
    light: true,
    expect: 200,
  },
  // e2e: per service and database, E2E_SHARDS Jest processes (2), each running its share of the spec
  // files in turn (--runInBand). One process per run waited on its service much of the time (0.6
  // cores) and the longest (panel-api on SQLite) ended last; shards of about equal time (weighed by
  // tools/testing/balanced-sequencer.js) fill the cores and end together.
  ...['panel-api', 'repo-monitor'].flatMap((app) =>
    ['sqlite', 'postgres'].flatMap((driver) =>
      Array.from({ length: e2eShards }, (_, index) => ({
        name: `e2e-${driver}-${app}${e2eShards > 1 ? `-${index + 1}` : ''}`,
        command: jest('-c', `apps/${app}/jest.e2e.config.cts`, '--runInBand', ...(e2eShards > 1 ? [`--shard=${index + 1}/${e2eShards}`] : [])),
        env: driver === 'sqlite' ? { TEST_DATABASE_DRIVER: 'sqlite' } : { TEST_DATABASE_DRIVER: 'postgres', TEST_DATABASE_URL: postgresUrl },
        after: ['native', 'build'],
        expect: Math.round((app === 'panel-api' ? 560 : 520) / e2eShards),
        ...(driver === 'postgres' && { needs: postgresMissing, postgres: true }),
      })),
    ),
  ),
];

/** A name given on the command line picks that step, or every step it is the prefix of (`e2e-sqlite`). */
const picks = (name, step) => step.name === name || step.name.startsWith(`${name}-`);
const unknown = only.filter((name) => !steps.some((step) => picks(name, step)));
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
  const timed = timeBinary ? [timeBinary, ['-q', '-o', timeFile, '-f', '%U %S', command, ...args]] : [command, args];
  // Every step but the replica proofs and the native modules yields the CPU to them (see
  // deploy-cluster-panel and native): idle priority where chrt is (util-linux), else the lowest nice.
  const yielding = chrtBinary ? [chrtBinary, ['--idle', '0', ...timed.flat()]] : niceBinary ? [niceBinary, ['-n', '19', ...timed.flat()]] : timed;
  const [file, argv] = step.quiet || step.urgent ? timed : yielding;
  const status = await new Promise((resolve) => {
    const child = spawn(file, argv, { cwd: root, stdio: ['ignore', out, out], env: { ...env, TEST_RESULTS_LABEL: step.name, ...step.env } });
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
  timings.push({ name: step.name, seconds, cpu });
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

const chosen = steps.filter((step) => !only.length || only.some((name) => picks(name, step)));
await runAll(chosen, jobs);

/**
 * Runs the steps `limit` at a time: a step starts once the steps it comes after (among those
 * chosen) have ended; of the steps ready, the one that starts the longest chain goes first.
 */
async function runAll(chosenSteps, limit) {
  const names = new Set(chosenSteps.map((step) => step.name));
  const afterOf = (step) => step.after ?? [];
  // A step's rank is the longest chain of expected seconds it starts (itself and what waits for it).
  const rank = new Map();
  const rankOf = (step) => {
    if (!rank.has(step.name)) {
      const dependents = chosenSteps.filter((other) => other !== step && afterOf(other).includes(step.name));
      rank.set(step.name, step.expect + Math.max(0, ...dependents.map(rankOf)));
    }
    return rank.get(step.name);
  };
  const waiting = [...chosenSteps].sort((a, b) => rankOf(b) - rankOf(a));
  const ended = new Set();
  const running = new Set();
  await new Promise((resolve) => {
    const fill = () => {
      if (!waiting.length && !running.size) return resolve();
      for (;;) {
        // A `postgres` step waits for the replica proofs (`quiet`) to end; they go first.
        const quietLeft = waiting.some((other) => other.quiet) || [...running].some((run) => run.quiet);
        const postgresRunning = [...running].some((run) => run.postgres);
        const ready = (step) =>
          afterOf(step).every((name) => !names.has(name) || ended.has(name)) && (!step.postgres || !quietLeft) && (!step.quiet || !postgresRunning);
        // A light step (it mostly waits on its child processes) does not take one of the `limit` places.
        const heavy = [...running].filter((run) => !run.light).length;
        const index = waiting.findIndex((step) => ready(step) && (step.light || heavy < limit));
        if (index === -1) break;
        const [step] = waiting.splice(index, 1);
        const run = runStep(step)
          // A step that could not even run (its log not writable, say) fails; the others go on.
          .catch((error) => {
            console.log(`=== ${step.name}: FAILED: ${error.message}`);
            failures.push(step.name);
          })
          .then(() => {
            running.delete(run);
            ended.add(step.name);
            fill();
          });
        run.light = Boolean(step.light);
        run.quiet = Boolean(step.quiet);
        run.postgres = Boolean(step.postgres);
        running.add(run);
      }
    };
    fill();
  });
}

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
console.log(`\nSteps (${jobs === 1 ? 'one after another' : `${jobs} at a time`}; cores: CPU time over wall time):`);
for (const timing of timings) {
  const cores = timing.cpu === undefined ? '' : `  cpu ${timing.cpu.toFixed(0).padStart(5)}s  cores ${(timing.cpu / timing.seconds).toFixed(2)}`;
  console.log(`  ${timing.name.padEnd(24)} ${timing.seconds.toFixed(0).padStart(5)}s${cores}`);
}
console.log(`  ${'all'.padEnd(24)} ${total.toFixed(0).padStart(5)}s  cpu ${timings.reduce((sum, timing) => sum + (timing.cpu ?? 0), 0).toFixed(0).padStart(5)}s`);
console.log('\nSlowest 20 spec files (wall time; CPU time of the files run in the runner\'s own process):');
for (const entry of files.sort((a, b) => b.seconds - a.seconds).slice(0, 20)) {
  const cpu = entry.cpu === undefined ? '' : ` cpu ${entry.cpu.toFixed(1).padStart(5)}s`;
  console.log(`  ${entry.seconds.toFixed(1).padStart(6)}s${cpu}  ${entry.label.padEnd(24)} ${entry.file}`);
}
const byCpu = files.filter((entry) => entry.cpu !== undefined).sort((a, b) => b.cpu - a.cpu);
if (byCpu.length) {
  console.log(`\nMost CPU-hungry 20 spec files (of ${byCpu.length} run in-band, ${byCpu.reduce((sum, entry) => sum + entry.cpu, 0).toFixed(0)} CPU-s in all):`);
  for (const entry of byCpu.slice(0, 20)) console.log(`  ${entry.cpu.toFixed(1).padStart(6)}s  ${entry.label.padEnd(24)} ${entry.file}`);
}
console.log('\nSlowest 20 tests:');
for (const entry of tests.sort((a, b) => b.seconds - a.seconds).slice(0, 20)) {
  console.log(`  ${entry.seconds.toFixed(1).padStart(6)}s  ${entry.label.padEnd(24)} ${entry.file}: ${entry.name}`);
}
if (failures.length) console.log(`\nFailed steps: ${failures.join(', ')}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failures.length || failed ? 1 : 0);
