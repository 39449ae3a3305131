// Crash test: kill -9 repo-monitor while signed deliveries stream in, start it again on the same
// SQLite file, and check that every delivery answered 202 was processed exactly once and that each
// resulting notification reached the local Telegram Bot API and webhook receivers exactly once.
// Usage: npx nx build repo-monitor && node tools/bench/repo-monitor-crash.mjs [--deliveries 400]
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { ROOT, freePort, issuePayload, postDelivery, requireBuild, sign, startService, INBOUND_SECRET } from './repo-monitor-common.mjs';

const require = createRequire(join(ROOT, 'package.json'));
const sqlite3 = require('sqlite3');

const args = process.argv.slice(2);
const DELIVERIES = Number(args[args.indexOf('--deliveries') + 1] || 400);
const CONCURRENCY = 8;
const BOT_TOKEN = '123456:CRASH-test-token';
const TITLE = /Crash test issue (\d+)/;

/** A minimal Bot API (sendMessage) and webhook receiver that count what arrives. */
async function receivers() {
  const telegram = [];
  const webhooks = [];
  const port = await freePort();
  let messageId = 0;
  const server = http.createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (request.url === `/bot${BOT_TOKEN}/sendMessage`) {
        const body = JSON.parse(text);
        telegram.push(body.text);
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ ok: true, result: { message_id: ++messageId, date: Math.floor(Date.now() / 1000), chat: { id: Number(body.chat_id), type: 'private' }, text: body.text } }));
        return;
      }
      if (request.url === '/hook') {
        webhooks.push({ id: request.headers['webhook-id'], text });
        response.writeHead(200);
        response.end('ok');
        return;
      }
      response.writeHead(404);
      response.end();
    });
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}`, telegram, webhooks, close: () => new Promise((resolve) => server.close(resolve)) };
}

function numbersIn(texts) {
  return texts.map((text) => TITLE.exec(text)?.[1]).filter(Boolean).map(Number);
}

function query(file, sql) {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (error) => {
      if (error) return reject(error);
      db.all(sql, (failure, rows) => {
        db.close();
        if (failure) reject(failure);
        else resolve(rows);
      });
    });
  });
}

requireBuild();
const dir = mkdtempSync(join(tmpdir(), 'repo-monitor-crash-'));
const dbFile = join(dir, 'crash.db');
const sinks = await receivers();
const env = {
  MONITOR_DATABASE_DRIVER: 'sqlite',
  MONITOR_DATABASE_URL: `file:${dbFile}`,
  MONITOR_VCS_WEBHOOK_SECRET: INBOUND_SECRET,
  MONITOR_ENCRYPTION_KEY: 'b2'.repeat(32),
  MONITOR_BOT_TOKEN: BOT_TOKEN,
  MONITOR_BOT_CHAT_ID: '777',
  MONITOR_BOT_API_BASE_URL: sinks.url,
  MONITOR_HTTP_WEBHOOK_URL: `${sinks.url}/hook`,
  MONITOR_HTTP_WEBHOOK_SECRET: 'crash-test-outbound-secret-0123',
  MONITOR_HTTP_WEBHOOK_ALLOW_PRIVATE: 'true',
  MONITOR_AGGREGATION_WINDOW: '0s',
  MONITOR_AGGREGATION_BURST_THRESHOLD: '10000',
};

const accepted = new Set();
const duplicates = new Set();
const failed = new Set();
let service = await startService(env);
const killAfter = Math.floor(DELIVERIES * 0.4);
let sent = 0;
let killed = false;

async function stream(numbers, target) {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (;;) {
        const index = next++;
        if (index >= numbers.length) return;
        const number = numbers[index];
        const status = await postDelivery(target(), 'issues', issuePayload(number, `Crash test issue ${number}`), `crash-${number}`);
        sent++;
        if (status === 202) accepted.add(number);
        else failed.add(number);
        if (!killed && sent >= killAfter) {
          killed = true;
          service.child.kill('SIGKILL');
        }
      }
    }),
  );
}

console.log(`crash test: ${DELIVERIES} deliveries, concurrency ${CONCURRENCY}, kill -9 after ${killAfter}`);
const all = Array.from({ length: DELIVERIES }, (_, index) => index + 1);
let currentUrl = service.url;
await stream(all, () => currentUrl);
if (service.child.exitCode === null && service.child.signalCode === null) await new Promise((resolve) => service.child.once('exit', resolve));
const answeredBeforeCrash = accepted.size;
console.log(`before the crash: ${answeredBeforeCrash} answered 202, ${failed.size} got no answer (connection refused or reset)`);

service = await startService(env);
currentUrl = service.url;
// GitHub redelivers what got no answer; a delivery stored just before the kill answers `duplicate`.
const retry = [...failed];
failed.clear();
let next = 0;
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    for (;;) {
      const index = next++;
      if (index >= retry.length) return;
      const number = retry[index];
      const body = issuePayload(number, `Crash test issue ${number}`);
      const response = await fetch(`${service.url}/webhooks/github`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-github-event': 'issues', 'x-github-delivery': `crash-${number}`, 'x-hub-signature-256': sign(body) },
        body,
      });
      const answer = await response.json();
      if (response.status === 202 && answer.status === 'accepted') accepted.add(number);
      else if (response.status === 202 && answer.status === 'duplicate') {
        accepted.add(number);
        duplicates.add(number);
      } else failed.add(number);
    }
  }),
);

const expected = accepted.size;
const deadline = Date.now() + 120_000;
while (Date.now() < deadline) {
  if (new Set(numbersIn(sinks.telegram)).size >= expected && new Set(sinks.webhooks.map((hit) => hit.id)).size >= expected) break;
  await new Promise((resolve) => setTimeout(resolve, 250));
}
// Entries claimed (`sending`) when the process was killed are released when their 30 s lease runs
// out and sent again: wait for that so a send that did reach a receiver before the kill shows up twice.
const settleDeadline = Date.now() + 60_000;
while (Date.now() < settleDeadline) {
  const open = await query(dbFile, `SELECT COUNT(*) AS n FROM notification_outbox WHERE state IN ('sending', 'pending')`);
  if (open[0].n === 0) break;
  await new Promise((resolve) => setTimeout(resolve, 500));
}
await new Promise((resolve) => setTimeout(resolve, 1000));
await service.stop();

const deliveries = await query(dbFile, `SELECT status, COUNT(*) AS n FROM webhook_deliveries GROUP BY status`);
const events = await query(dbFile, `SELECT COUNT(*) AS n FROM events WHERE kind = 'issues.opened'`);
const outbox = await query(dbFile, `SELECT state, COUNT(*) AS n FROM notification_outbox GROUP BY state`);
const telegramNumbers = numbersIn(sinks.telegram);
const webhookIds = sinks.webhooks.map((hit) => hit.id);
const report = {
  deliveries_answered_202: expected,
  of_which_duplicate_after_restart: duplicates.size,
  never_answered: failed.size,
  webhook_deliveries_by_status: Object.fromEntries(deliveries.map((row) => [row.status, row.n])),
  issues_opened_events: events[0].n,
  outbox_by_state: Object.fromEntries(outbox.map((row) => [row.state, row.n])),
  telegram_messages: telegramNumbers.length,
  telegram_distinct: new Set(telegramNumbers).size,
  webhook_requests: webhookIds.length,
  webhook_distinct: new Set(webhookIds).size,
};
console.log(JSON.stringify(report, null, 2));
const processed = report.webhook_deliveries_by_status.processed ?? 0;
const ok =
  processed === expected &&
  report.issues_opened_events === expected &&
  report.telegram_messages === expected &&
  report.telegram_distinct === expected &&
  report.webhook_requests === expected &&
  report.webhook_distinct === expected;
console.log(ok ? 'exactly once: every 202 processed once, each notification sent once' : 'MISMATCH: see the counts above');
await sinks.close();
rmSync(dir, { recursive: true, force: true });
process.exit(ok ? 0 : 1);
