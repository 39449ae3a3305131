// Three panel-api replicas under faults (issue 31, docs/scaling.md): three processes from dist on one
// fresh PostgreSQL database, each with its own empty data directory, behind deploy/proxy/nginx.conf
// (round-robin), and the Telegram simulator as its own process (apps/panel-api/test/
// telegram-simulator-process.ts, through @swc-node/register) that every replica reaches with APP_TELEGRAM_GATEWAY=simulator. It
// refuses a second live connection of one session (AUTH_KEY_DUPLICATED) and records every overlap.
// 1. `--accounts` accounts (imported through nginx), each with a sign task due every minute (a
//    check-in bot) and a keyword listener on a group where a matching and a non-matching message
//    arrive every two seconds.
// 2. The replicas start one after the other: the rebalance time after each join.
//    Then the timezone is changed through each replica in turn and read back from every replica and
//    three times round-robin through nginx: each read must show the change (settings in the database).
// 3. Faults: replica a is killed with kill -9 three seconds before a minute's due runs (its accounts
//    are due while they have no owner); in the next minute, replica b is paused with SIGSTOP while its
//    runs are in flight, for the lease and four seconds more, then resumed with SIGCONT.
// Then it reads the simulator and the database: overlaps, every due run (claim, run record, check-in
// at the bot), every matching message's hit, the paused replica's refused late writes, takeover times.
// Exits 1 unless: 0 overlaps, 0 duplicate and 0 missed runs, 0 missed hits, late writes refused, no stale settings read.
// Usage: npx nx build panel-api && node tools/bench/panel-cluster.mjs [--accounts 20] [--lease 4]
//   [--database <name>] [--report <file.json>]
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, freePort, percentile, startNginx } from './repo-monitor-common.mjs';

const require = createRequire(join(ROOT, 'package.json'));
const { Client } = require('pg');

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] !== undefined ? process.argv[index + 1] : fallback;
}
const ACCOUNTS = Number(option('accounts', 20));
const LEASE_SECONDS = Number(option('lease', 4));
const DATABASE = option('database', `panel_cluster_${randomBytes(6).toString('hex')}`);
const REPORT = option('report', undefined);
const MAIN = process.env.PANEL_API_MAIN ?? join(ROOT, 'dist', 'apps', 'panel-api', 'main.js');
const PG = 'postgres://postgres@127.0.0.1:5432';
const HOST = 'panel.localhost';
const ADMIN_PASSWORD = 'cluster-bench-admin-password';
const GROUP = '-1009001';
const BOT = 'cluster_checkin_bot';
// A simulated Telegram answer takes this long, so the runs of a minute are still in flight when replica b is paused.
const LATENCY_MS = 400;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

if (!/^[a-z0-9_]+$/.test(DATABASE)) throw new Error('--database: lower-case letters, digits and _ only');
if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`npx nx build panel-api\` first`);

/** Waits until `check` holds, at most `ms`; resolves with whether it held. */
async function until(check, ms, every = 100) {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await sleep(every);
  }
}

/** Sleeps until `second` (0-59) of the wall-clock minute, the next one when it has passed; resolves with that time. */
async function untilSecond(second) {
  const now = Date.now();
  const minute = Math.floor(now / 60_000) * 60_000;
  let target = minute + second * 1000;
  if (target <= now) target += 60_000;
  await sleep(target - now);
  return target;
}

/** JSON over HTTP with an optional Host header (nginx routes panel.* to panel-api); status 0 when the connection failed. */
function request(url, path, { method = 'GET', body, token, host, timeoutMs = 15_000 } = {}) {
  return new Promise((resolve) => {
    const target = new URL(path, url);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers = { accept: 'application/json' };
    if (payload) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    if (host) headers.host = host;
    const call = http.request({ host: target.hostname, port: target.port, path: target.pathname + target.search, method, headers, timeout: timeoutMs }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: response.statusCode ?? 0, body: json, text });
      });
    });
    call.on('timeout', () => call.destroy(new Error('timeout')));
    call.on('error', () => resolve({ status: 0, body: undefined, text: '' }));
    if (payload) call.write(payload);
    call.end();
  });
}

async function admin(sql) {
  const client = new Client({ connectionString: `${PG}/postgres` });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const work = mkdtempSync(join(tmpdir(), 'panel-cluster-'));
const children = [];
const replicas = {};
let nginx;
let simulator;
let db;
let pusher;
let ok = false;
const report = { database: DATABASE, accounts: ACCOUNTS, lease_seconds: LEASE_SECONDS };

/** The Telegram simulator process; resolves with its URLs. */
async function startSimulator() {
  // @swc-node/register resolves the workspace's path aliases (@shared/...) that the simulator's imports reach.
  const child = spawn(process.execPath, ['-r', '@swc-node/register', join(ROOT, 'apps/panel-api/test/telegram-simulator-process.ts'), '--stale-ms', '1500'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, SWC_NODE_PROJECT: join(ROOT, 'apps/panel-api/tsconfig.spec.json') },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  let errors = '';
  child.stderr.on('data', (chunk) => (errors += chunk));
  const urls = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the simulator did not start within 60 s: ${errors}`)), 60_000);
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const newline = output.indexOf('\n');
      if (newline >= 0) {
        clearTimeout(timer);
        resolve(JSON.parse(output.slice(0, newline)));
      }
    });
    child.once('exit', (code) => reject(new Error(`the simulator exited (${code}): ${errors}`)));
  });
  const control = async (path, body) => {
    const response = await request(urls.controlUrl, path, { method: body === undefined ? 'GET' : 'POST', body });
    if (response.status !== 200) throw new Error(`simulator ${path}: ${response.status} ${response.text}`);
    return response.body;
  };
  return { ...urls, child, control };
}

/** One replica from dist; resolves once /readyz answers 200. */
async function startReplica(name, env, port) {
  const dataDir = mkdtempSync(join(work, `data-${name}-`));
  const logPath = join(work, `${name}.log`);
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      PORT: String(port),
      APP_DATA_DIR: dataDir,
      APP_CLUSTER_REPLICA_ID: `replica-${name}`,
      APP_CLUSTER_ADDRESS: `http://127.0.0.1:${port}`,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: dataDir,
  });
  children.push(child);
  let log = '';
  child.stdout.on('data', (chunk) => (log += chunk));
  child.stderr.on('data', (chunk) => (log += chunk));
  const url = `http://127.0.0.1:${port}`;
  const ready = await until(async () => {
    if (child.exitCode !== null) throw new Error(`replica ${name} exited (${child.exitCode}): ${log.slice(-4000)}`);
    return (await request(url, '/readyz', { timeoutMs: 2000 })).status === 200;
  }, 90_000, 200);
  if (!ready) throw new Error(`replica ${name} not ready within 90 s: ${log.slice(-4000)}`);
  const replica = { name, id: `replica-${name}`, url, port, child, log: () => log, saveLog: () => writeFileSync(logPath, log) };
  replicas[name] = replica;
  return replica;
}

async function login(url, host) {
  const response = await request(url, '/api/auth/login', { method: 'POST', body: { username: 'admin', password: ADMIN_PASSWORD }, host });
  if (response.status !== 200) throw new Error(`login: ${response.status} ${response.text}`);
  return response.body.access_token;
}

/** GET /api/ops/cluster of one replica (directly: a paused replica behind nginx would hold the request). */
async function clusterOf(replica, token) {
  const response = await request(replica.url, '/api/ops/cluster', { token, timeoutMs: 3000 });
  return response.status === 200 ? response.body : undefined;
}

/** Waits until every account has a live owner and the shares differ by at most one over `expected` replicas; the time it took. */
async function untilBalanced(observer, token, expected, ms) {
  const started = Date.now();
  let last;
  const balanced = await until(async () => {
    last = await clusterOf(observer, token);
    if (!last || last.replicas.length !== expected || last.accounts.some((account) => account.owner === null)) return false;
    const counts = last.replicas.map((replica) => replica.accounts.length);
    return Math.max(...counts) - Math.min(...counts) <= 1;
  }, ms);
  if (!balanced) throw new Error(`the accounts did not spread over ${expected} replicas within ${ms} ms: ${JSON.stringify(last)}`);
  return { ms: Date.now() - started, view: last };
}

/** Polls `observer` until no account of `accounts` is owned by `gone`; per account, when it got its new owner (ms after `since`). */
async function takeoverTimes(observer, token, gone, accounts, since, ms) {
  const times = {};
  await until(async () => {
    const view = await clusterOf(observer, token);
    if (!view) return false;
    for (const account of view.accounts) {
      if (accounts.includes(account.name) && times[account.name] === undefined && account.owner !== null && account.owner !== gone) times[account.name] = Date.now() - since;
    }
    return accounts.every((account) => times[account] !== undefined);
  }, ms);
  return times;
}

function metric(text, name) {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  return line ? Number(line.split(' ').pop()) : undefined;
}

try {
  await admin(`CREATE DATABASE ${DATABASE}`);
  db = new Client({ connectionString: `${PG}/${DATABASE}` });
  await db.connect();
  simulator = await startSimulator();
  await simulator.control('/checkin-bot', { username: BOT });
  await simulator.control('/groups', { id: GROUP, title: 'Deals' });
  await simulator.control('/latency', { ms: LATENCY_MS });
  const users = [];
  for (let index = 0; index < ACCOUNTS; index++) {
    const user = await simulator.control('/users', { phone: `+31 600 77${String(index).padStart(4, '0')}` });
    users.push({ ...user, account: `acct-${String(index).padStart(2, '0')}` });
  }
  const accountNames = users.map((user) => user.account);

  const env = {
    APP_DATABASE_URL: `${PG}/${DATABASE}`,
    APP_ENCRYPTION_KEY: 'd4'.repeat(32),
    APP_JWT_SECRET: 'panel-cluster-bench-shared-jwt-secret-0123456789',
    ADMIN_PASSWORD,
    APP_CLUSTER_LEASE_SECONDS: String(LEASE_SECONDS),
    APP_TELEGRAM_GATEWAY: 'simulator',
    APP_TELEGRAM_SIMULATOR_URL: simulator.gatewayUrl,
    APP_TRUST_PROXY: '127.0.0.1',
    APP_UPDATE_CHECK: '0',
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
  };
  // Replica a alone first: it runs the migrations and owns every account at the start.
  const a = await startReplica('a', env, await freePort());
  // nginx in front of all three ports from the start; a replica not yet started is a refused connection nginx passes over.
  const ports = [a.port, await freePort(), await freePort()];
  nginx = await startNginx(join(work, 'nginx'), [], ports);
  const token = await login(nginx.url, HOST);
  const viaProxy = (path, options = {}) => request(nginx.url, path, { ...options, token, host: HOST });
  for (const user of users) {
    const imported = await viaProxy('/api/accounts/import-session', { method: 'POST', body: { account_name: user.account, session_string: user.session } });
    if (imported.status !== 201) throw new Error(`import ${user.account}: ${imported.status} ${imported.text}`);
    const sign = await viaProxy('/api/sign-tasks', {
      method: 'POST',
      body: { name: `checkin-${user.account}`, account_name: user.account, sign_at: '* * * * *', execution_mode: 'fixed', random_seconds: 0, chats: [{ chat_id: `@${BOT}`, actions: [{ action: 1, text: '/checkin' }] }] },
    });
    if (sign.status !== 201) throw new Error(`sign task ${user.account}: ${sign.status} ${sign.text}`);
    const watch = await viaProxy('/api/sign-tasks', {
      method: 'POST',
      body: { name: `watch-${user.account}`, account_name: user.account, execution_mode: 'listen', chats: [{ chat_id: Number(GROUP), actions: [{ action: 8, keywords: ['deal'] }] }] },
    });
    if (watch.status !== 201) throw new Error(`listen task ${user.account}: ${watch.status} ${watch.text}`);
  }

  // Joins: b, then c, each on the port nginx already balances to.
  const b = await startReplica('b', env, ports[1]);
  const joinB = await untilBalanced(b, token, 2, 12 * LEASE_SECONDS * 1000);
  const c = await startReplica('c', env, ports[2]);
  const joinC = await untilBalanced(c, token, 3, 12 * LEASE_SECONDS * 1000);
  report.rebalance_after_join_ms = { b: joinB.ms, c: joinC.ms };

  // Settings are rows of the database: a change made through one replica is served by every replica
  // (each with its own empty data directory) on its next request, asked directly and round-robin through nginx.
  const settingsStartedAt = Date.now();
  const settingsReads = [];
  for (const [writer, timezone] of [[a, 'Europe/Berlin'], [b, 'Asia/Tokyo'], [c, 'UTC']]) {
    const put = await request(writer.url, '/api/config/settings', { method: 'PUT', token, body: { timezone } });
    if (put.status !== 200) throw new Error(`settings change on ${writer.name}: ${put.status} ${put.text}`);
    const reads = [...[a, b, c].map((reader) => [reader.name, request(reader.url, '/api/config/settings', { token })]), ...[1, 2, 3].map((n) => [`nginx ${n}`, viaProxy('/api/config/settings')])];
    for (const [reader, pending] of reads) settingsReads.push({ written_on: writer.name, read_on: reader, expected: timezone, timezone: (await pending).body?.timezone });
  }
  report.settings = { reads: settingsReads.length, stale: settingsReads.filter((read) => read.timezone !== read.expected), ms: Date.now() - settingsStartedAt };

  // Every account listens somewhere before the messages start.
  let states = {};
  const listening = await until(async () => {
    states = {};
    for (const replica of [a, b, c]) {
      const status = await request(replica.url, '/api/ops/runtime-status', { token, timeoutMs: 3000 });
      const accounts = status.body?.components?.keyword_listeners?.details?.accounts ?? {};
      for (const [name, state] of Object.entries(accounts)) (states[name] ??= []).push(`${replica.name}: ${state.state} ${state.reason ?? ''}`);
    }
    return accountNames.every((name) => states[name]?.some((state) => state.includes('listening')));
  }, 30_000, 500);
  if (!listening) throw new Error(`not every account listened within 30 s: ${JSON.stringify(states)}`);
  // The due runs counted are those from the first minute after the three replicas are up and balanced.
  const steadyAt = Date.now();

  // Two messages per account every two seconds: one matching ("deal"), one not.
  const pushed = [];
  let pushing = true;
  let round = 0;
  pusher = (async () => {
    while (pushing) {
      round += 1;
      for (const user of users) {
        const match = await simulator.control('/push', { user_id: user.id, chat_id: GROUP, text: `deal ${round} for ${user.account}` });
        pushed.push({ account: user.account, message_id: match.id, at: Date.now() });
        await simulator.control('/push', { user_id: user.id, chat_id: GROUP, text: `chatter ${round}` });
      }
      await sleep(2000);
    }
  })();

  // Fault 1: kill -9 of replica a three seconds before a minute's due runs.
  await untilSecond(57);
  let view = await clusterOf(c, token);
  const ofA = view.replicas.find((replica) => replica.id === a.id)?.accounts ?? [];
  const killedAt = Date.now();
  a.child.kill('SIGKILL');
  const afterKill = await takeoverTimes(c, token, a.id, ofA, killedAt, 6 * LEASE_SECONDS * 1000);

  // Fault 2: SIGSTOP of replica b just after the next minute's runs started, past its lease, then SIGCONT.
  const pauseMinute = await untilSecond(0);
  await sleep(600);
  view = await clusterOf(c, token);
  const ofB = view.replicas.find((replica) => replica.id === b.id)?.accounts ?? [];
  const refusedBefore = metric((await request(b.url, '/metrics')).text, 'panel_cluster_fenced_writes_refused_total') ?? 0;
  const pausedAt = Date.now();
  b.child.kill('SIGSTOP');
  const afterPause = await takeoverTimes(c, token, b.id, ofB, pausedAt, 6 * LEASE_SECONDS * 1000);
  await until(async () => Date.now() - pausedAt >= LEASE_SECONDS * 1000 + 4000, 60_000, 100);
  b.child.kill('SIGCONT');
  const resumedAt = Date.now();
  const rejoin = await untilBalanced(c, token, 2, 12 * LEASE_SECONDS * 1000);

  // One more minute of due runs on the two replicas (the resumed one among them), then the messages stop and everything settles.
  await untilSecond(0);
  await untilSecond(25);
  const endAt = Date.now();
  pushing = false;
  await pusher;
  const matching = pushed.length;
  const hitsSettled = await until(async () => Number((await db.query(`SELECT COUNT(*) AS n FROM keyword_hits`)).rows[0].n) >= matching, 30_000, 500);

  // ----- counts ------------------------------------------------------------------------------------
  const sim = await simulator.control('/report');
  const firstDue = Math.ceil((steadyAt + 2000) / 60_000) * 60_000;
  const lastDue = Math.floor((endAt - 20_000) / 60_000) * 60_000;
  const dueMinutes = [];
  for (let due = firstDue; due <= lastDue; due += 60_000) dueMinutes.push(due);
  const claims = (await db.query(`SELECT job, due_at, account, replica_id, state, run_id FROM job_claims WHERE job LIKE 'sign-%'`)).rows;
  const logs = (await db.query(`SELECT run_id, account_name, state, success, message FROM sign_logs`)).rows;
  const userOf = new Map(users.map((user) => [user.id, user.account]));
  const runs = { due: 0, executed_once: 0, interrupted: 0, duplicate: 0, missed: 0, failed: 0, details: [] };
  for (const account of accountNames) {
    for (const due of dueMinutes) {
      runs.due += 1;
      const claimed = claims.filter((claim) => claim.account === account && Number(claim.due_at) === due);
      const records = claimed.flatMap((claim) => logs.filter((log) => log.run_id === claim.run_id));
      const checkins = sim.checkins.filter((checkin) => userOf.get(checkin.user_id) === account && checkin.at >= due && checkin.at < due + 60_000).length;
      const detail = { account, due: new Date(due).toISOString(), claims: claimed.length, claim_states: claimed.map((claim) => claim.state), records: records.map((record) => record.state), checkins, owner: claimed[0]?.replica_id };
      if (claimed.length > 1 || records.length > 1 || checkins > 1) {
        runs.duplicate += 1;
        runs.details.push({ ...detail, verdict: 'duplicate' });
      } else if (claimed.length === 0 || records.length === 0) {
        runs.missed += 1;
        runs.details.push({ ...detail, verdict: 'missed' });
      } else if (records[0].state === 'interrupted') {
        runs.interrupted += 1;
        runs.details.push({ ...detail, verdict: 'interrupted', message: records[0].message });
      } else if (records[0].state === 'finished' && records[0].success && checkins === 1) runs.executed_once += 1;
      else {
        runs.failed += 1;
        runs.details.push({ ...detail, verdict: 'failed', message: records[0].message });
      }
    }
  }
  const hits = (await db.query(`SELECT account_name, message_id, COUNT(*) AS n FROM keyword_hits GROUP BY account_name, message_id`)).rows;
  const hitCount = new Map(hits.map((row) => [`${row.account_name}:${row.message_id}`, Number(row.n)]));
  const matchedOnce = pushed.filter((message) => hitCount.get(`${message.account}:${message.message_id}`) === 1).length;
  const pushedKeys = new Set(pushed.map((message) => `${message.account}:${message.message_id}`));
  const bMetrics = (await request(b.url, '/metrics')).text;
  const refusedAfter = metric(bMetrics, 'panel_cluster_fenced_writes_refused_total') ?? 0;
  const takeovers = [...Object.values(afterKill), ...Object.values(afterPause)].sort((x, y) => x - y);

  Object.assign(report, {
    settled: hitsSettled,
    overlaps: sim.overlaps.length,
    overlap_details: sim.overlaps,
    simulator: { stale_drops: sim.stale_drops, connections_accepted: sim.connections_accepted },
    due_minutes: dueMinutes.map((due) => new Date(due).toISOString()),
    runs,
    // The first 50 matching messages without a hit (account:message id), for a failure's report.
    missed_hit_keys: pushed.filter((message) => !hitCount.has(`${message.account}:${message.message_id}`)).map((message) => `${message.account}:${message.message_id}`).slice(0, 50),
    hits: {
      matching_messages: matching,
      recorded_once: matchedOnce,
      missed: pushed.filter((message) => !hitCount.has(`${message.account}:${message.message_id}`)).length,
      recorded_more_than_once: [...hitCount.values()].filter((n) => n > 1).length,
      recorded_for_non_matching: hits.filter((row) => !pushedKeys.has(`${row.account_name}:${row.message_id}`)).length,
    },
    kill: { replica: a.id, accounts: ofA.length, takeover_ms: afterKill },
    pause: {
      replica: b.id,
      accounts: ofB.length,
      paused_ms: resumedAt - pausedAt,
      paused_after_due_ms: pausedAt - pauseMinute,
      takeover_ms: afterPause,
      late_writes_refused: refusedAfter - refusedBefore,
      refused_in_log: (b.log().match(/Fenced write refused/g) ?? []).length,
      rebalance_after_resume_ms: rejoin.ms,
    },
    failover_ms: { p50: percentile(takeovers, 50), max: takeovers.at(-1) ?? null, samples: takeovers.length },
  });
  ok =
    report.settled &&
    report.overlaps === 0 &&
    runs.duplicate === 0 &&
    runs.missed === 0 &&
    runs.failed === 0 &&
    runs.executed_once + runs.interrupted === runs.due &&
    report.hits.missed === 0 &&
    report.hits.recorded_for_non_matching === 0 &&
    report.pause.late_writes_refused > 0 &&
    report.settings.reads === 18 &&
    report.settings.stale.length === 0 &&
    takeovers.length === ofA.length + ofB.length;
} catch (error) {
  report.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
  console.error(report.error);
  report.overlap_details ??= (await simulator?.control('/report').catch(() => undefined))?.overlaps;
} finally {
  // A clean stop first, so each replica's log is complete; what does not stop within five seconds is killed.
  await Promise.all(
    Object.values(replicas).map(async (replica) => {
      const child = replica.child;
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGCONT');
      child.kill('SIGTERM');
      await until(async () => child.exitCode !== null || child.signalCode !== null, 5000);
    }),
  );
  for (const replica of Object.values(replicas)) replica.saveLog();
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        child.kill('SIGCONT');
        child.kill('SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  await nginx?.stop().catch(() => undefined);
  await db?.end().catch(() => undefined);
  await admin(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`).catch((error) => console.error(`dropping ${DATABASE}: ${error.message}`));
  report.ok = ok;
  if (REPORT) writeFileSync(REPORT, `${JSON.stringify(report, null, 2)}\n`);
  const { runs, hits, pause, kill } = report;
  console.log(
    [
      `panel-api cluster: ${ACCOUNTS} accounts, 3 replicas, lease ${LEASE_SECONDS} s`,
      `  rebalance after a join: ${JSON.stringify(report.rebalance_after_join_ms ?? {})} ms; after the paused replica resumed: ${pause?.rebalance_after_resume_ms ?? '-'} ms`,
      `  failover (kill -9 of ${kill?.accounts ?? '-'} accounts, SIGSTOP of ${pause?.accounts ?? '-'}): p50 ${report.failover_ms?.p50 ?? '-'} ms, max ${report.failover_ms?.max ?? '-'} ms`,
      `  settings changed through each replica, read back on all and through nginx: ${report.settings ? `${report.settings.reads - report.settings.stale.length}/${report.settings.reads} current, ${report.settings.ms} ms` : '-'}`,
      `  overlaps at the simulator: ${report.overlaps ?? '-'}`,
      `  due runs: ${runs?.due ?? '-'}, executed once ${runs?.executed_once ?? '-'}, interrupted ${runs?.interrupted ?? '-'}, duplicate ${runs?.duplicate ?? '-'}, missed ${runs?.missed ?? '-'}, failed ${runs?.failed ?? '-'}`,
      `  hits: ${hits?.recorded_once ?? '-'} of ${hits?.matching_messages ?? '-'} matching messages recorded once, missed ${hits?.missed ?? '-'}`,
      `  paused replica's late writes refused: ${pause?.late_writes_refused ?? '-'}`,
      ok ? 'OK' : `FAILED${report.error ? `: ${report.error.split('\n')[0]}` : ''} (logs in ${work})`,
    ].join('\n'),
  );
  if (!ok) {
    // The logs stay on the machine that ran it; a CI log needs the why in its own text.
    for (const detail of (runs?.details ?? []).filter((item) => ['duplicate', 'missed', 'failed'].includes(item.verdict))) {
      console.log(`  ${detail.verdict}: ${JSON.stringify(detail)}`);
      for (const replica of Object.values(replicas)) {
        const lines = replica.log().split('\n').filter((line) => line.includes(`sign-${detail.account}-`) || line.includes(`(${detail.account})`));
        for (const line of lines.slice(-12)) console.log(`    ${replica.name}: ${line.slice(0, 400)}`);
      }
    }
    if (hits?.missed) console.log(`  missed hits: ${JSON.stringify(report.missed_hit_keys ?? [])}`);
  }
  if (ok) rmSync(work, { recursive: true, force: true });
  process.exit(ok ? 0 : 1);
}
