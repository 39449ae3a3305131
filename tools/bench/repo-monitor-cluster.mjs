// Two replicas under faults: two repo-monitor processes (from dist) on one fresh PostgreSQL database
// behind deploy/proxy/nginx.conf (round-robin across both), a local Bot API and webhook receiver.
// 1. Throughput: `--throughput` deliveries through nginx with one replica, then as many with two,
//    each timed until every one is processed (0 skips this).
// 2. Faults: `--deliveries` signed deliveries at `--concurrency`, `kill -9` of one replica at ~40 %,
//    started again at once on the same port and database; what got no 2xx is redelivered (as GitHub
//    would); a last batch after the restart shows whether the restarted replica takes its share.
// Then it waits (bounded) for the inbox and outbox to settle and checks that every delivery answered
// 2xx was processed exactly once and every notification reached both receivers, a repeat only for an
// outbox entry in flight (`sending`) at the kill (see repo-monitor-crash.mjs for why that is inherent).
// Exits 1 on any loss, processing duplicate or unexplained repeat.
// Usage: npx nx build repo-monitor && node tools/bench/repo-monitor-cluster.mjs [--deliveries 3000]
//   [--concurrency 32] [--throughput 1000] [--database <name>] [--report <file.json>]
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { ROOT, countBy, issuePayload, numbersIn, outboundDeliveryId, requireBuild, sendDelivery, startNginx, startReceivers, startService, INBOUND_SECRET } from './repo-monitor-common.mjs';

const require = createRequire(join(ROOT, 'package.json'));
const { Client } = require('pg');

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] !== undefined ? process.argv[index + 1] : fallback;
}
const DELIVERIES = Number(option('deliveries', 3000));
const CONCURRENCY = Number(option('concurrency', 32));
const THROUGHPUT = Number(option('throughput', 1000));
const DATABASE = option('database', `repo_monitor_cluster_${randomBytes(6).toString('hex')}`);
const REPORT = option('report', undefined);
const BOT_TOKEN = '123456:CLUSTER-test-token';
const TITLE = /Cluster test issue (\d+)/;
const HOST = 'monitor.localhost';
const PG = 'postgres://postgres@127.0.0.1:5432';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

if (!/^[a-z0-9_]+$/.test(DATABASE)) throw new Error('--database: lower-case letters, digits and _ only');
requireBuild();

async function admin(sql) {
  const client = new Client({ connectionString: `${PG}/postgres` });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const db = new Client({ connectionString: `${PG}/${DATABASE}` });
const rows = async (sql, params) => (await db.query(sql, params)).rows;
const count = async (sql, params) => Number((await rows(sql, params))[0].n);

/** Reads one counter sample (`name{label="value"}`) from an instance's /metrics; undefined when it does not answer. */
async function metric(service, name, label) {
  try {
    const text = await (await fetch(`${service.url}/metrics`)).text();
    const line = text.split('\n').find((candidate) => candidate.startsWith(`${name}{${label}}`));
    return line ? Number(line.split(' ').pop()) : 0;
  } catch {
    return undefined;
  }
}
async function work(service) {
  return {
    deliveries_accepted: await metric(service, 'monitor_webhook_deliveries_total', 'result="accepted"'),
    notifications_sent: await metric(service, 'monitor_outbox_transitions_total', 'state="sent"'),
  };
}

/** Waits until `check` holds, at most `ms`; resolves with whether it held. */
async function until(check, ms, every = 200) {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await sleep(every);
  }
}

const work_dir = mkdtempSync(join(tmpdir(), 'repo-monitor-cluster-'));
const children = [];
let nginx;
let sinks;
let ok = false;
const report = { database: DATABASE, deliveries: DELIVERIES, concurrency: CONCURRENCY };
try {
  await admin(`CREATE DATABASE ${DATABASE}`);
  await db.connect();
  sinks = await startReceivers(BOT_TOKEN);
  const env = {
    MONITOR_DATABASE_DRIVER: 'postgres',
    MONITOR_DATABASE_URL: `${PG}/${DATABASE}`,
    MONITOR_VCS_WEBHOOK_SECRET: INBOUND_SECRET,
    MONITOR_ENCRYPTION_KEY: 'c3'.repeat(32),
    MONITOR_BOT_TOKEN: BOT_TOKEN,
    MONITOR_BOT_CHAT_ID: '777',
    MONITOR_BOT_API_BASE_URL: sinks.url,
    MONITOR_HTTP_WEBHOOK_URL: `${sinks.url}/hook`,
    MONITOR_HTTP_WEBHOOK_SECRET: 'cluster-test-outbound-secret-01',
    MONITOR_HTTP_WEBHOOK_ALLOW_PRIVATE: 'true',
    MONITOR_AGGREGATION_WINDOW: '0s',
    MONITOR_AGGREGATION_BURST_THRESHOLD: '10000',
    MONITOR_UPDATE_CHECK: 'false',
  };
  const replica = async (name, port) => {
    const service = await startService(env, { port, cwd: mkdtempSync(join(work_dir, `${name}-`)) });
    children.push(service.child);
    return service;
  };
  // One after the other: the first runs the migrations on the empty database.
  const a = await replica('a');
  let b = await replica('b');

  const accepted = new Set();
  const failed = new Set();
  const duplicateOnRedelivery = new Set();
  let nextNumber = 1;
  /** Sends `numbers` through nginx at CONCURRENCY; `afterEach` runs after every answer. */
  async function stream(numbers, afterEach = () => undefined) {
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (;;) {
          const index = next++;
          if (index >= numbers.length) return;
          const number = numbers[index];
          const { status, answer } = await sendDelivery(nginx.url, 'issues', issuePayload(number, `Cluster test issue ${number}`), `cluster-${number}`, { host: HOST });
          if (status >= 200 && status < 300) {
            accepted.add(number);
            failed.delete(number);
            if (answer === 'duplicate') duplicateOnRedelivery.add(number);
          } else failed.add(number);
          await afterEach();
        }
      }),
    );
  }
  const fresh = (n) => Array.from({ length: n }, () => nextNumber++);
  const processed = () => count(`SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'processed'`);
  /** Deliveries per second from the first send until every one of them is processed. */
  async function timed(n) {
    const before = await processed();
    const started = performance.now();
    await stream(fresh(n));
    if (!(await until(async () => (await processed()) >= before + n, 120_000, 50))) throw new Error('throughput phase: deliveries not processed within 120 s');
    return n / ((performance.now() - started) / 1000);
  }

  if (THROUGHPUT > 0) {
    nginx = await startNginx(join(work_dir, 'nginx-one'), [a.port]);
    const one = await timed(THROUGHPUT);
    await nginx.stop();
    nginx = await startNginx(join(work_dir, 'nginx-two'), [a.port, b.port]);
    const two = await timed(THROUGHPUT);
    report.throughput = { deliveries_per_phase: THROUGHPUT, one_replica_per_s: Math.round(one), two_replicas_per_s: Math.round(two), ratio: Number((two / one).toFixed(2)) };
    console.log(`throughput (ingest to processed, through nginx): one replica ${Math.round(one)}/s, two ${Math.round(two)}/s, ratio ${(two / one).toFixed(2)}`);
  } else {
    nginx = await startNginx(join(work_dir, 'nginx-two'), [a.port, b.port]);
  }

  // The fault phase.
  const faultNumbers = fresh(DELIVERIES);
  const killAfter = Math.floor(DELIVERIES * 0.4);
  let sent = 0;
  let killedAt;
  let restarted;
  let inFlight;
  const bPort = b.port;
  const killAndRestart = async () => {
    b.child.kill('SIGKILL');
    await new Promise((resolve) => (b.child.exitCode !== null || b.child.signalCode !== null ? resolve() : b.child.once('exit', resolve)));
    // Only these may reach a receiver twice: a superset (it also holds the survivor's claims of this moment).
    inFlight = await rows(`SELECT idempotency_key, channel_kind, message FROM notification_outbox WHERE state = 'sending'`);
    b = await replica('b-restarted', bPort);
    return { readyAt: performance.now() };
  };
  console.log(`fault phase: ${DELIVERIES} deliveries at concurrency ${CONCURRENCY} through nginx, kill -9 of one replica after ${killAfter}`);
  await stream(faultNumbers, () => {
    sent++;
    if (!killedAt && sent >= killAfter) {
      killedAt = performance.now();
      restarted = killAndRestart();
    }
  });
  const { readyAt } = await restarted;
  const answeredBeforeRedelivery = accepted.size;
  const noAnswer = failed.size;
  // GitHub redelivers what got no 2xx (a delivery stored just before the kill answers `duplicate`).
  for (let round = 0; round < 5 && failed.size > 0; round++) await stream([...failed]);
  // The restarted replica's first work: a delivery accepted or a notification sent by the new process.
  let firstWorkAt;
  const restartedWorks = until(async () => {
    const figures = await work(b);
    if ((figures.deliveries_accepted ?? 0) + (figures.notifications_sent ?? 0) > 0) {
      firstWorkAt ??= performance.now();
      return true;
    }
    return false;
  }, 120_000, 50);
  // nginx takes a server it could not reach out of rotation for its fail_timeout (10 s): wait
  // (bounded) until a request through nginx reaches the restarted process again.
  // (fetch drops a Host header; node:http sends it.)
  const startOf = (target, host) =>
    new Promise((resolve) => {
      const url = new URL('/metrics', target);
      const request = http.get({ host: url.hostname, port: url.port, path: url.pathname, headers: host ? { host } : {} }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve(/^process_start_time_seconds (\S+)$/m.exec(text)?.[1]));
        response.on('error', () => resolve(undefined));
      });
      request.on('error', () => resolve(undefined));
    });
  const restartedStart = await startOf(b.url);
  if (!restartedStart) throw new Error('the restarted replica has no process_start_time_seconds in /metrics');
  // One request routed there is not enough: nginx may still hold connections to the killed process
  // in its keep-alive pool, and the first request sent over one fails and takes the replica out of
  // rotation for another 10 s (a fresh-clone run sent the whole last batch to the survivor). So it
  // waits until the restarted replica answers at least 3 of the last 10 requests through nginx.
  const routedTo = [];
  const routed = await until(
    async () => {
      routedTo.push((await startOf(nginx.url, HOST)) === restartedStart);
      const last = routedTo.slice(-10);
      return last.length === 10 && last.filter(Boolean).length >= 3;
    },
    60_000,
    100,
  );
  if (!routed) throw new Error('nginx did not route to the restarted replica within 60 s');
  report.kill_to_back_in_rotation_ms = Math.round(performance.now() - killedAt);
  const aBefore = await work(a);
  const bBefore = await work(b);
  const afterRestart = fresh(Math.max(64, Math.floor(DELIVERIES / 10)));
  await stream(afterRestart);
  // nginx keeps a server it could not reach out of rotation for its fail_timeout (10 s), in each worker
  // process, and a worker's stale keep-alive connection to the killed process can still fail at the
  // batch's first request after the probes above reached the restarted one. On a quiet machine the
  // whole batch then fits in those 10 s (a fresh-clone run sent it all to the survivor). So more
  // follows, 16 deliveries every 2 s for at most 30 s, until the restarted replica took some.
  const lastBatchStarted = performance.now();
  while (((await work(b)).deliveries_accepted ?? 0) === (bBefore.deliveries_accepted ?? 0) && performance.now() - lastBatchStarted < 30_000) {
    await sleep(2_000);
    const more = fresh(16);
    afterRestart.push(...more);
    await stream(more);
  }
  await restartedWorks;
  const aAfter = await work(a);
  const bAfter = await work(b);

  // Settled: nothing left in the inbox, nothing pending or claimed in the outbox (a claim of the killed
  // replica is released when its lease, 15 s, runs out, and sent again).
  const settled = await until(
    async () =>
      (await count(`SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'accepted'`)) === 0 &&
      (await count(`SELECT COUNT(*) AS n FROM notification_outbox WHERE state IN ('pending', 'sending')`)) === 0,
    300_000,
    250,
  );
  const settledAt = performance.now();
  // Sends answered just before the last outbox commit are already recorded by the receivers; nothing is left to arrive.
  const expected = accepted.size;
  const processedRows = await rows(`SELECT delivery_id FROM webhook_deliveries WHERE status = 'processed'`);
  const eventRows = await rows(`SELECT delivery_id FROM events WHERE kind = 'issues.opened'`);
  const outbox = await rows(`SELECT state, COUNT(*) AS n FROM notification_outbox GROUP BY state`);
  const acceptedIds = new Set([...accepted].map((number) => `cluster-${number}`));
  const processedIds = new Set(processedRows.map((row) => row.delivery_id));
  const eventsPerDelivery = countBy(eventRows.map((row) => row.delivery_id));
  const processedExactlyOnce = [...acceptedIds].filter((id) => processedIds.has(id) && eventsPerDelivery.get(id) === 1).length;
  const processedTwice = [...eventsPerDelivery].filter(([, n]) => n > 1).length;
  const processedNotAccepted = [...processedIds].filter((id) => !acceptedIds.has(id)).length;

  const inFlightTelegram = new Set(inFlight.filter((row) => row.channel_kind === 'telegram').map((row) => Number(TITLE.exec((typeof row.message === 'string' ? JSON.parse(row.message) : row.message).title)?.[1])));
  const inFlightWebhooks = new Set(inFlight.filter((row) => row.channel_kind === 'http_webhook').map((row) => outboundDeliveryId(row.idempotency_key)));
  const telegramCounts = countBy(numbersIn(sinks.telegram, TITLE));
  const telegramMissing = [...accepted].filter((number) => !telegramCounts.has(number));
  const webhookCounts = countBy(sinks.webhooks.map((hit) => hit.id));
  const expectedWebhookIds = new Set((await rows(`SELECT idempotency_key FROM notification_outbox WHERE channel_kind = 'http_webhook'`)).map((row) => outboundDeliveryId(row.idempotency_key)));
  const webhookMissing = [...expectedWebhookIds].filter((id) => !webhookCounts.has(id));
  const cause = (isInFlight) => (isInFlight ? 'in flight at the kill (sent, not yet marked sent)' : 'UNEXPLAINED');
  const duplicates = [
    ...[...telegramCounts].filter(([, n]) => n > 1).map(([number, n]) => ({ channel: 'telegram', notification: `issue ${number}`, copies: n, cause: cause(inFlightTelegram.has(number)) })),
    ...[...webhookCounts].filter(([, n]) => n > 1).map(([id, n]) => ({ channel: 'webhook', notification: id, copies: n, cause: cause(inFlightWebhooks.has(id)) })),
  ];
  const delta = (after, before, key) => (after[key] ?? 0) - (before[key] ?? 0);

  Object.assign(report, {
    settled,
    recovery_ms: {
      kill_to_restarted_ready: Math.round(readyAt - killedAt),
      kill_to_restarted_first_work: firstWorkAt ? Math.round(firstWorkAt - killedAt) : null,
      kill_to_settled: Math.round(settledAt - killedAt),
    },
    answered_2xx: expected,
    answered_2xx_before_redelivery: answeredBeforeRedelivery,
    no_2xx_in_fault_phase: noAnswer,
    duplicate_on_redelivery: duplicateOnRedelivery.size,
    never_answered: failed.size,
    processed_exactly_once: processedExactlyOnce,
    processed_more_than_once: processedTwice,
    processed_without_a_2xx: processedNotAccepted,
    issues_opened_events: eventRows.length,
    outbox_by_state: Object.fromEntries(outbox.map((row) => [row.state, Number(row.n)])),
    in_flight_at_kill: { telegram: inFlightTelegram.size, webhook: inFlightWebhooks.size },
    telegram: { expected, distinct: telegramCounts.size, raw_messages: sinks.telegram.length, missing: telegramMissing.length, doubled: duplicates.filter((d) => d.channel === 'telegram').length },
    webhook: {
      expected: expectedWebhookIds.size,
      distinct_webhook_ids: webhookCounts.size,
      raw_requests: sinks.webhooks.length,
      applied_by_idempotent_receiver: sinks.applied.size,
      missing: webhookMissing.length,
      doubled: duplicates.filter((d) => d.channel === 'webhook').length,
    },
    duplicates,
    per_replica: {
      survivor_whole_run: aAfter,
      restarted_since_restart: bAfter,
      last_batch: {
        deliveries: afterRestart.length,
        survivor: { deliveries_accepted: delta(aAfter, aBefore, 'deliveries_accepted'), notifications_sent: delta(aAfter, aBefore, 'notifications_sent') },
        restarted: { deliveries_accepted: delta(bAfter, bBefore, 'deliveries_accepted'), notifications_sent: delta(bAfter, bBefore, 'notifications_sent') },
      },
    },
  });
  console.log(JSON.stringify(report, null, 2));
  const processingOk = settled && failed.size === 0 && processedExactlyOnce === expected && processedTwice === 0 && processedNotAccepted === 0 && eventRows.length === expected;
  const deliveryOk = telegramMissing.length === 0 && webhookMissing.length === 0 && expectedWebhookIds.size === expected && sinks.applied.size === expected;
  const explained = duplicates.every((duplicate) => duplicate.cause !== 'UNEXPLAINED');
  const shareOk = report.per_replica.last_batch.restarted.deliveries_accepted > 0;
  report.ok = { processing: processingOk, notifications: deliveryOk, duplicates_explained: explained, restarted_takes_share: shareOk };
  console.log(`processing: ${expected} answered 2xx, ${processedExactlyOnce} processed exactly once, ${processedTwice} more than once -> ${processingOk ? 'OK' : 'MISMATCH'}`);
  console.log(`notifications: none missing -> ${deliveryOk ? 'OK' : 'MISSING'}; ${duplicates.length} repeat(s), ${explained ? 'all from sends in flight at the kill' : 'SOME UNEXPLAINED'}`);
  console.log(`restarted replica: ready ${report.recovery_ms.kill_to_restarted_ready} ms after the kill, first work after ${report.recovery_ms.kill_to_restarted_first_work} ms, took ${report.per_replica.last_batch.restarted.deliveries_accepted} of the last ${afterRestart.length} deliveries; settled ${report.recovery_ms.kill_to_settled} ms after the kill`);
  ok = processingOk && deliveryOk && explained && shareOk;
} catch (error) {
  report.error = String(error?.stack ?? error);
  console.error(error);
} finally {
  if (REPORT) writeFileSync(REPORT, JSON.stringify(report, null, 2));
  await nginx?.stop();
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(children.map((child) => (child.exitCode !== null || child.signalCode !== null ? undefined : new Promise((resolve) => child.once('exit', resolve)))));
  await db.end().catch(() => undefined);
  await admin(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`).catch((error) => console.error(`could not drop ${DATABASE}: ${error}`));
  await sinks?.close();
  rmSync(work_dir, { recursive: true, force: true });
}
process.exit(ok ? 0 : 1);
