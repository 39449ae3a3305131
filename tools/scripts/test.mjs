#!/usr/bin/env node
// `npm test`: lint (module boundaries included), the dependency check (every package in package.json
// used, every imported package declared), typecheck, the committed OpenAPI documents against
// the code, the web apps' generated API types against their service's document, build, unit and
// component tests, e2e tests on SQLite, e2e tests again on PostgreSQL, the web apps' browser tests
// (Chromium: panel-web, then repo-monitor-web) and the deployment tests. Every step runs even after a failure so the final line counts
// everything; that line is `N passed, N failed[, N skipped]`, summed from the test runners' reports
// in tmp/test-results/. PostgreSQL is required: when it is missing the run fails.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const resultsDir = join(root, 'tmp/test-results');
const require = createRequire(import.meta.url);
// No colour codes in CI logs. Nx turns FORCE_COLOR=0 into NO_COLOR=1 and then hands its tasks
// FORCE_COLOR=true (colours, plus Node's "NO_COLOR is ignored" warning in every worker); 'false' is
// passed through as it is, and NO_COLOR covers Nx's own output.
const env = { ...process.env, NX_NO_CLOUD: 'true', NX_DAEMON: 'false', NX_TUI: 'false', FORCE_COLOR: 'false', NO_COLOR: '1' };
const postgresUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const only = process.argv.slice(2);

const failures = [];

function step(name, args, extraEnv = {}) {
  run(name, 'npx', ['nx', ...args], extraEnv);
}

function run(name, command, args, extraEnv = {}) {
  if (only.length && !only.includes(name)) return;
  const started = Date.now();
  console.log(`\n=== ${name}: ${[command === 'npx' ? [] : [basename(command)], args].flat().join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...env, ...extraEnv } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    failures.push(name);
    console.log(`=== ${name}: FAILED after ${seconds}s`);
  } else {
    console.log(`=== ${name}: ok in ${seconds}s`);
  }
}

async function postgresReachable() {
  const { Client } = require('pg');
  const client = new Client({ connectionString: postgresUrl, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch (error) {
    console.log(`PostgreSQL is required for the e2e tests but ${postgresUrl.replace(/:[^:@/]*@/, ':***@')} is unreachable: ${error.message}`);
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

rmSync(resultsDir, { recursive: true, force: true });
const projects = 'panel-api,repo-monitor,config,crypto,database,http-service,notify,outbound-http,testing,update-check,web-ui,panel-web,repo-monitor-web';

step('lint', ['run-many', '-t', 'lint', '--projects', projects, '--skip-nx-cache']);
run('dependencies', process.execPath, ['tools/scripts/check-dependencies.mjs']);
step('typecheck', ['run-many', '-t', 'typecheck', '--projects', projects]);
run('openapi', process.execPath, ['tools/scripts/openapi.mjs', '--check']);
run('api-types', process.execPath, ['apps/panel-web/scripts/api-types.mjs', '--check']);
run('api-types', process.execPath, ['apps/repo-monitor-web/scripts/api-types.mjs', '--check']);
step('build', ['run-many', '-t', 'build', '--projects', 'panel-api,repo-monitor']);
step('unit', ['run-many', '-t', 'test', '--projects', projects, '--skip-nx-cache'], { TEST_RESULTS_LABEL: 'unit' });
step('e2e-sqlite', ['run-many', '-t', 'e2e', '--projects', 'panel-api,repo-monitor', '--skip-nx-cache'], {
  TEST_DATABASE_DRIVER: 'sqlite',
  TEST_RESULTS_LABEL: 'e2e-sqlite',
});
if (!only.length || only.includes('e2e-postgres')) {
  if (await postgresReachable()) {
    step('e2e-postgres', ['run-many', '-t', 'e2e', '--projects', 'panel-api,repo-monitor', '--skip-nx-cache'], {
      TEST_DATABASE_DRIVER: 'postgres',
      TEST_DATABASE_URL: postgresUrl,
      TEST_RESULTS_LABEL: 'e2e-postgres',
    });
  } else {
    failures.push('e2e-postgres (PostgreSQL missing)');
  }
}
// Browser tests: the built web app served by the real panel-api on SQLite, driven in /usr/bin/chromium.
step('browser', ['run', 'panel-web:browser', '--skip-nx-cache'], { TEST_DATABASE_DRIVER: 'sqlite', TEST_RESULTS_LABEL: 'browser' });
step('browser-monitor', ['run', 'repo-monitor-web:browser', '--skip-nx-cache'], { TEST_DATABASE_DRIVER: 'sqlite', TEST_RESULTS_LABEL: 'browser-monitor' });
step('deploy', ['run', 'deploy:e2e', '--skip-nx-cache'], { TEST_RESULTS_LABEL: 'deploy' });

let passed = 0;
let failed = 0;
let skipped = 0;
const failedByLabel = new Map();
if (existsSync(resultsDir)) {
  for (const file of readdirSync(resultsDir)) {
    const report = JSON.parse(readFileSync(join(resultsDir, file), 'utf8'));
    passed += report.passed;
    failed += report.failed;
    skipped += report.skipped;
    failedByLabel.set(report.label, (failedByLabel.get(report.label) ?? 0) + report.failed + report.suitesFailed);
  }
}
// A step that failed without a failing test (lint, typecheck, build, a suite that did not load,
// no tests found) still counts as one failure, so the last line never hides a broken run.
for (const name of failures) {
  if (!failedByLabel.get(name)) failed += 1;
}
if (failures.length) console.log(`\nFailed steps: ${failures.join(', ')}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failures.length || failed ? 1 : 0);
