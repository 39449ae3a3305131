// Run through tools/bench/panel-keyword-hits.mjs (TypeScript via @swc-node/register).
//
// 1. Matching: messages per second through a compiled listen rule (Aho-Corasick) with 10, 100 and
//    1,000 keywords, against a naive loop over the keywords (lower-cased once) in the same run.
// 2. `--hits` (default 1,000,000) keyword hits written into the SQLite database of the built panel-api
//    (dist/apps/panel-api/main.js, started as its own process), then through its HTTP API: the list
//    with each filter, each grouping (median and p95 ms), and the CSV export of all hits (time, size,
//    and the service's peak RSS during the export: VmHWM reset right before it).
import { randomInt } from 'node:crypto';
import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import * as sqlite3 from 'sqlite3';
import type { Database } from 'sqlite3';
import { CompiledListenRule, MessageView } from '../../apps/panel-api/src/app/listeners/listen-rule';
import type { TelegramIncomingMessage } from '../../apps/panel-api/src/app/telegram/telegram-gateway';

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, value ?? 'true'];
  }),
);
const HITS = Number(args['hits'] ?? 1_000_000);
const MESSAGES = Number(args['messages'] ?? 20_000);
const RUNS = Number(args['runs'] ?? 20);
const ADMIN_PASSWORD = 'bench-admin-password';

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'to', 'vi', 'ze', 'po', 'qu', 'xi', 'da', 'fe', 'gu', 'hi', 'jo', 'be', 'cy', 'wa'];
function word(min = 2, max = 4): string {
  let out = '';
  const length = randomInt(min, max + 1);
  for (let i = 0; i < length; i++) out += SYLLABLES[randomInt(SYLLABLES.length)];
  return out;
}
function sentence(words: number): string {
  return Array.from({ length: words }, () => word()).join(' ');
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
function stats(samples: number[]): { median: number; p95: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: percentile(sorted, 50), p95: percentile(sorted, 95) };
}
const ms = (value: number): string => `${value.toFixed(1)} ms`;

// ----- 1. matching -----------------------------------------------------------------------------

function benchMatching(): void {
  console.log(`\n== Matching: ${MESSAGES.toLocaleString('en')} messages of ~30 words (≈ 5 % contain a keyword), contains mode, ignore_case`);
  console.log('keywords | Aho-Corasick msg/s | naive loop msg/s | ratio | hits (both)');
  for (const count of [10, 100, 1000]) {
    const keywords = new Set<string>();
    while (keywords.size < count) keywords.add(`${word(3, 5)}${randomInt(10)}`);
    const list = [...keywords];
    const messages: TelegramIncomingMessage[] = Array.from({ length: MESSAGES }, (_, i) => {
      const parts = [sentence(15)];
      if (randomInt(100) < 5) parts.push(list[randomInt(list.length)].toUpperCase());
      parts.push(sentence(15));
      return { id: i + 1, chatId: '-1001', out: false, date: 1_700_000_000, text: parts.join(' '), buttons: [], hasMedia: false, chatType: 'group', event: 'new' };
    });
    const rule = new CompiledListenRule({ accountName: 'bench', taskName: 'bench', ruleIndex: 0, chatId: '-1001', action: { action: 8, keywords: list } });
    const lowered = list.map((k) => k.toLowerCase());
    const naive = (text: string): string | undefined => {
      const lower = text.toLowerCase();
      for (let k = 0; k < lowered.length; k++) if (lower.includes(lowered[k])) return list[k];
      return undefined;
    };
    // Warm up both paths, then time them alternately (three rounds each, best round counts).
    let automatonHits = 0;
    let naiveHits = 0;
    const timeAutomaton = (): number => {
      const started = process.hrtime.bigint();
      let found = 0;
      for (const message of messages) if (rule.match(new MessageView(message), 'UTC')) found++;
      automatonHits = found;
      return Number(process.hrtime.bigint() - started) / 1e9;
    };
    const timeNaive = (): number => {
      const started = process.hrtime.bigint();
      let found = 0;
      for (const message of messages) if (naive(message.text)) found++;
      naiveHits = found;
      return Number(process.hrtime.bigint() - started) / 1e9;
    };
    timeAutomaton();
    timeNaive();
    let bestAutomaton = Infinity;
    let bestNaive = Infinity;
    for (let round = 0; round < 3; round++) {
      bestAutomaton = Math.min(bestAutomaton, timeAutomaton());
      bestNaive = Math.min(bestNaive, timeNaive());
    }
    if (automatonHits !== naiveHits) throw new Error(`matchers disagree: ${automatonHits} vs ${naiveHits}`);
    const automatonRate = MESSAGES / bestAutomaton;
    const naiveRate = MESSAGES / bestNaive;
    console.log(
      `${String(count).padStart(8)} | ${Math.round(automatonRate).toLocaleString('en').padStart(18)} | ${Math.round(naiveRate).toLocaleString('en').padStart(16)} | ${(automatonRate / naiveRate).toFixed(2).padStart(5)}x | ${automatonHits}`,
    );
  }
}

// ----- 2. one million hits ---------------------------------------------------------------------

// PANEL_MAIN=<path to a built main.js> runs the queries against another build (e.g. main's, for "before").
const MAIN = process.env['PANEL_MAIN'] ?? join(__dirname, '../../dist/apps/panel-api/main.js');
const PG_URL = process.env['BENCH_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
type Driver = 'sqlite' | 'postgres';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function memoryOf(pid: number): { rss: number; peak: number } {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

async function startService(dataDir: string, databaseUrl?: string): Promise<{ url: string; server: ChildProcess }> {
  const port = await freePort();
  const server = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      APP_DATA_DIR: dataDir,
      ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      APP_UPDATE_CHECK: '0',
      // PostgreSQL needs the key that seals sessions (any fixed key serves a bench).
      ...(databaseUrl ? { APP_DATABASE_URL: databaseUrl, APP_ENCRYPTION_KEY: '6b'.repeat(32), APP_JWT_SECRET: 'panel-keyword-hits-bench-jwt-secret-0123456789' } : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`panel-api exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return { url, server };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('panel-api did not become ready within 120 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The seeding connection: the same statements on SQLite (sqlite3, WAL) and PostgreSQL (pg). */
interface SeedConnection {
  query(sql: string, params?: unknown[]): Promise<Array<Record<string, unknown>>>;
  placeholder(index: number): string;
  close(): Promise<void>;
}

async function openSqlite(path: string): Promise<SeedConnection> {
  const db = await new Promise<Database>((resolve, reject) => {
    const opened = new sqlite3.Database(path, (error: Error | null) => (error ? reject(error) : resolve(opened)));
  });
  const connection: SeedConnection = {
    query: (sql, params = []) =>
      new Promise((resolve, reject) => db.all(sql, params, (error: Error | null, rows: Array<Record<string, unknown>>) => (error ? reject(error) : resolve(rows)))),
    placeholder: () => '?',
    close: () => new Promise<void>((resolve) => db.close(() => resolve())),
  };
  await connection.query('PRAGMA busy_timeout = 10000');
  return connection;
}

async function openPostgres(url: string): Promise<SeedConnection> {
  const { Client } = require('pg') as typeof import('pg');
  const client = new Client({ connectionString: url });
  await client.connect();
  return {
    query: async (sql, params = []) => (await client.query(sql, params)).rows as Array<Record<string, unknown>>,
    placeholder: (index) => `$${index}`,
    close: () => client.end(),
  };
}

const ACCOUNTS = Array.from({ length: 20 }, (_, i) => `account${i}`);
const TASKS = Array.from({ length: 200 }, (_, i) => `task-${i}`);
const CHATS = Array.from({ length: 2000 }, (_, i) => String(-1001000000000 - i));
/** One message in ten carries one of these (Chinese search). */
const CHINESE = ['比特币空投', '今天签到成功', '领取红包奖励', '新币上线公告', '限时抢购活动'];
const START = Date.UTC(2025, 0, 1);
const SPAN = 90 * 86_400_000;
const COLUMNS = [
  'account_name',
  'task_name',
  'chat_id',
  'chat_title',
  'sender_id',
  'sender_name',
  'sender_username',
  'message_id',
  'rule_index',
  'message_text',
  'matched_keyword',
  'message_url',
  'hit_at',
  'push_channel',
  'push_status',
  'created_at',
];

/** Hit n of the data set: account0 holds half of all hits (an account with many hundreds of thousands). */
function hitValues(n: number, total: number, driver: Driver): unknown[] {
  const chatIndex = randomInt(CHATS.length);
  const date = new Date(START + Math.floor((n / total) * SPAN));
  const at = driver === 'sqlite' ? date.toISOString().replace('T', ' ').replace('Z', '') : date;
  const chinese = n % 10 === 3 ? ` ${CHINESE[Math.floor(n / 10) % CHINESE.length]}` : '';
  return [
    n % 2 === 0 ? ACCOUNTS[0] : ACCOUNTS[1 + (n % 19)],
    TASKS[randomInt(TASKS.length)],
    CHATS[chatIndex],
    `Chat ${chatIndex}`,
    String(100000 + randomInt(50000)),
    `${word()} ${word()}`,
    word(),
    n + 1,
    0,
    `${sentence(8)} keyword${n % 50}${chinese} ${sentence(6)}`,
    `keyword${n % 50}`,
    `https://t.me/c/${chatIndex}/${n + 1}`,
    at,
    'telegram',
    'sent',
    at,
  ];
}

function insertSql(connection: SeedConnection, rows: number, table = 'keyword_hits'): string {
  const tuples: string[] = [];
  let index = 0;
  for (let r = 0; r < rows; r++) tuples.push(`(${COLUMNS.map(() => connection.placeholder(++index)).join(',')})`);
  return `INSERT INTO "${table}" (${COLUMNS.map((c) => `"${c}"`).join(',')}) VALUES ${tuples.join(',')}`;
}

/** The table recording a hit wrote to before issue 23: the same rows and columns, the (x, hit_at) indexes, no search index, no counters. */
const BEFORE_TABLE = 'bench_hits_before';

async function createBeforeTable(connection: SeedConnection, driver: Driver): Promise<number> {
  const started = Date.now();
  await connection.query(`DROP TABLE IF EXISTS "${BEFORE_TABLE}"`);
  if (driver === 'sqlite') {
    const [{ sql }] = await connection.query(`SELECT "sql" FROM "sqlite_master" WHERE "type" = 'table' AND "name" = 'keyword_hits'`);
    await connection.query(String(sql).replace(/^CREATE TABLE "keyword_hits"/, `CREATE TABLE "${BEFORE_TABLE}"`));
  } else {
    await connection.query(`CREATE TABLE "${BEFORE_TABLE}" (LIKE "keyword_hits" INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
    await connection.query(`ALTER TABLE "${BEFORE_TABLE}" ADD PRIMARY KEY ("id")`);
  }
  await connection.query(`INSERT INTO "${BEFORE_TABLE}" SELECT * FROM "keyword_hits"`);
  await connection.query(`CREATE UNIQUE INDEX "${BEFORE_TABLE}_message" ON "${BEFORE_TABLE}" ("account_name", "task_name", "chat_id", "message_id", "rule_index")`);
  await connection.query(`CREATE INDEX "${BEFORE_TABLE}_hit_at" ON "${BEFORE_TABLE}" ("hit_at")`);
  for (const column of ['account_name', 'task_name', 'chat_id']) {
    await connection.query(`CREATE INDEX "${BEFORE_TABLE}_${column}" ON "${BEFORE_TABLE}" ("${column}", "hit_at")`);
  }
  await connection.query(driver === 'postgres' ? `VACUUM ANALYZE "${BEFORE_TABLE}"` : 'ANALYZE');
  return (Date.now() - started) / 1000;
}

/** SQLite: waits until the service's indexer has put every hit into the FTS5 index; seconds waited (0 on PostgreSQL). */
async function waitForTextIndex(connection: SeedConnection, driver: Driver): Promise<number> {
  if (driver !== 'sqlite') return 0;
  const [state] = await connection.query(`SELECT "name" FROM "sqlite_master" WHERE "name" = 'keyword_hits_fts_state'`);
  if (!state) return 0;
  const started = Date.now();
  for (;;) {
    const [row] = await connection.query(`SELECT (SELECT MAX("id") FROM "keyword_hits") - "indexed_through" AS "behind" FROM "keyword_hits_fts_state"`);
    if (Number(row['behind'] ?? 0) <= 0) return (Date.now() - started) / 1000;
    if (Date.now() - started > 1_800_000) throw new Error('the text index did not catch up within 30 minutes');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Writes the hits with a separate connection into the schema the service migrated (its triggers, if any, run). */
async function seed(connection: SeedConnection, driver: Driver): Promise<void> {
  const batch = driver === 'postgres' ? 2000 : 1000;
  const started = Date.now();
  for (let offset = 0; offset < HITS; offset += batch * 25) {
    await connection.query('BEGIN');
    for (let chunk = offset; chunk < Math.min(HITS, offset + batch * 25); chunk += batch) {
      const rows = Math.min(batch, HITS - chunk);
      const values: unknown[] = [];
      for (let r = 0; r < rows; r++) values.push(...hitValues(chunk + r, HITS, driver));
      await connection.query(insertSql(connection, rows), values);
    }
    await connection.query('COMMIT');
    process.stdout.write(`\r  inserted ${Math.min(HITS, offset + batch * 25).toLocaleString('en')} hits`);
  }
  await connection.query(driver === 'postgres' ? 'VACUUM ANALYZE' : 'ANALYZE');
  console.log(`\r  inserted ${HITS.toLocaleString('en')} hits in ${((Date.now() - started) / 1000).toFixed(1)} s (into the migrated schema, every index and trigger in place)`);
}

/** Hits recorded one per transaction, as a listener records them before the push: inserts per second. */
async function insertRate(connection: SeedConnection, driver: Driver, count: number, table: string, first: number): Promise<number> {
  const sql = insertSql(connection, 1, table);
  const started = process.hrtime.bigint();
  for (let i = 0; i < count; i++) {
    await connection.query('BEGIN');
    await connection.query(sql, hitValues(first + i, HITS, driver));
    await connection.query('COMMIT');
  }
  return count / (Number(process.hrtime.bigint() - started) / 1e9);
}

/**
 * Inserts/s into the pre-issue-23 table and into keyword_hits as it is now, in `rounds` alternating
 * rounds of `count / rounds` hits each (which table goes first alternates too), so both see the same
 * machine load. The ratio that counts is the median of the rounds' after/before ratios: one round
 * stalled by another process's fsync moves it far less than it moves the totals.
 */
async function compareInsertRates(connection: SeedConnection, driver: Driver, count: number, rounds: number): Promise<{ before: number; after: number; ratios: number[] }> {
  let beforeSeconds = 0;
  let afterSeconds = 0;
  const per = Math.ceil(count / rounds);
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const first = HITS + round * per;
    let before = 0;
    let after = 0;
    if (round % 2 === 0) {
      before = await insertRate(connection, driver, per, BEFORE_TABLE, first);
      after = await insertRate(connection, driver, per, 'keyword_hits', first);
    } else {
      after = await insertRate(connection, driver, per, 'keyword_hits', first);
      before = await insertRate(connection, driver, per, BEFORE_TABLE, first);
    }
    beforeSeconds += per / before;
    afterSeconds += per / after;
    ratios.push(after / before);
  }
  return { before: (per * rounds) / beforeSeconds, after: (per * rounds) / afterSeconds, ratios };
}

/** CPU seconds used so far by a process (user + system), from /proc; 0 when it is gone. */
function cpuSecondsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
    // After "pid (comm) ": state is field 0, utime field 11, stime field 12 (clock ticks, 100 per second).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** The one-, five- and fifteen-minute load averages, as `uptime` prints them. */
function loadAverage(): string {
  return loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');
}

async function timeRequest(url: string, token: string): Promise<{ ms: number; body: unknown }> {
  const started = process.hrtime.bigint();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const body = (await response.json()) as unknown;
  if (response.status !== 200) throw new Error(`${url}: HTTP ${response.status} ${JSON.stringify(body)}`);
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, body };
}

/** What a plain scan (LIKE over the five columns, no index) counts for `q`: the reference for search results. */
async function scanCount(connection: SeedConnection, driver: Driver, q: string): Promise<number> {
  const like = driver === 'postgres' ? 'ILIKE' : 'LIKE';
  const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const columns = ['message_text', 'matched_keyword', 'sender_name', 'sender_username', 'chat_title'];
  const where = columns.map((c) => `"${c}" ${like} ${connection.placeholder(1)} ESCAPE '\\'`).join(' OR ');
  const [row] = await connection.query(`SELECT COUNT(*) AS n FROM "keyword_hits" WHERE ${where}`, driver === 'postgres' ? [pattern] : columns.map(() => pattern));
  return Number(row['n']);
}

async function benchHits(driver: Driver): Promise<number> {
  if (!existsSync(MAIN)) throw new Error('build first: npx nx build panel-api');
  console.log(`\n== ${HITS.toLocaleString('en')} keyword hits on ${driver === 'sqlite' ? 'SQLite' : 'PostgreSQL'} (20 accounts, account0 with half of them, 200 tasks, 2,000 chats, 90 days), ${MAIN}`);
  const reuse = args['data'];
  const work = reuse ? join(reuse, '..') : mkdtempSync(join(process.env['BENCH_DIR'] ?? tmpdir(), 'panel-keyword-hits-bench-'));
  const dataDir = reuse ?? join(work, 'data');
  // --pg-database=NAME keeps the PostgreSQL data set (seeded on the first run, reused after), like --data for SQLite.
  const keptDatabase = args['pg-database'];
  const databaseName = keptDatabase ?? `panel_hits_bench_${process.pid}`;
  let databaseUrl: string | undefined;
  let admin: SeedConnection | undefined;
  let seeded = !!reuse;
  if (driver === 'postgres') {
    admin = await openPostgres(PG_URL);
    const [existing] = await admin.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [databaseName]);
    if (existing && keptDatabase) seeded = true;
    else await admin.query(`CREATE DATABASE "${databaseName}"`);
    const url = new URL(PG_URL);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
  }
  let server: ChildProcess | undefined;
  let connection: SeedConnection | undefined;
  let exitCode = 0;
  try {
    const started = await startService(dataDir, databaseUrl);
    server = started.server;
    const url = started.url;
    connection = driver === 'postgres' ? await openPostgres(databaseUrl as string) : await openSqlite(join(dataDir, 'db.sqlite'));
    if (!seeded) await seed(connection, driver);
    const caughtUp = await waitForTextIndex(connection, driver);
    if (driver === 'sqlite') console.log(`  text index (FTS5, fed by the service in batches) caught up ${caughtUp.toFixed(1)} s after the seeding`);
    if (args['skip-inserts'] !== 'true') {
      const copied = await createBeforeTable(connection, driver);
      console.log(`  copied the hits into "${BEFORE_TABLE}" (the table before issue 23: (x, hit_at) indexes, no search index, no counters) in ${copied.toFixed(1)} s`);
      const inserts = Number(args['inserts'] ?? 4000);
      const rounds = Number(args['insert-rounds'] ?? 10);
      const rates = await compareInsertRates(connection, driver, inserts, rounds);
      const ratio = stats(rates.ratios).median;
      console.log(
        `  recording a hit (one INSERT per transaction, separate connection, ${inserts.toLocaleString('en')} into each table in ${rounds} alternating rounds, load ${loadAverage()}): ` +
          `before ${Math.round(rates.before).toLocaleString('en')} inserts/s, after ${Math.round(rates.after).toLocaleString('en')} inserts/s; ` +
          `after/before per round ${rates.ratios.map((value) => value.toFixed(2)).join(' ')}, median ${ratio.toFixed(2)} (target >= 0.50)`,
      );
      if (ratio < 0.5) exitCode = Math.max(exitCode, 5);
      await connection.query(`DROP TABLE "${BEFORE_TABLE}"`);
      const indexed = await waitForTextIndex(connection, driver);
      if (driver === 'sqlite') console.log(`  text index caught up with those hits ${indexed.toFixed(1)} s after the last insert`);
    }
    const account = ACCOUNTS[0];
    const task = TASKS[42];
    const chat = CHATS[7];
    const login = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }) });
    const token = ((await login.json()) as { access_token: string }).access_token;

    // A cursor deep in account0's hits (page 100), when the build pages by cursor.
    let deepCursor: string | undefined;
    {
      let cursor: string | undefined;
      for (let page = 0; page < 99; page++) {
        const { body } = await timeRequest(`${url}/api/keyword-hits?limit=50&account=${account}${cursor ? `&cursor=${cursor}` : ''}`, token);
        cursor = (body as { next_cursor?: string | null }).next_cursor ?? undefined;
        if (!cursor) break;
      }
      deepCursor = cursor;
    }

    const queries: Array<[string, string]> = [
      ['newest 50 (no filter)', ''],
      ['account (500,000 hits)', `account=${account}`],
      ['other account (26,000)', `account=${ACCOUNTS[3]}`],
      ['task', `task=${task}`],
      ['chat', `chat=${encodeURIComponent(chat)}`],
      ['since/until (one day)', 'since=2025-02-01T00:00:00Z&until=2025-02-02T00:00:00Z'],
      ['since/until (30 days)', 'since=2025-01-15T00:00:00Z&until=2025-02-15T00:00:00Z'],
      ['account + task + since', `account=${account}&task=${task}&since=2025-02-01T00:00:00Z`],
      ['account + one day', `account=${account}&since=2025-02-01T00:00:00Z&until=2025-02-02T00:00:00Z`],
      ['q (text search)', 'q=keyword7%20'],
      ['q rare word', `q=${encodeURIComponent('keyword49 ')}&account=${ACCOUNTS[1]}`],
      ['q Chinese (5 chars)', `q=${encodeURIComponent('比特币空投')}`],
      ['q Chinese + account', `q=${encodeURIComponent('领取红包')}&account=${account}`],
      ['q + task', `q=${encodeURIComponent('keyword7 ')}&task=${task}`],
      ['q Chinese (2 chars)', `q=${encodeURIComponent('红包')}`],
      ['page 100 (offset 4,950)', 'offset=4950'],
      ...(deepCursor ? ([['account page 100 (cursor)', `account=${account}&cursor=${deepCursor}`]] as Array<[string, string]>) : []),
    ];
    // CPU the service spends per request (the node process, and on PostgreSQL the backends serving it):
    // unlike wall time, hardly moved by other processes on the machine.
    const serverPid = server.pid as number;
    const cpuByPid = async (): Promise<Map<number, number>> => {
      const pids = [serverPid];
      if (admin) for (const row of await admin.query(`SELECT "pid" FROM pg_stat_activity WHERE "datname" = $1`, [databaseName])) pids.push(Number(row['pid']));
      return new Map(pids.map((pid) => [pid, cpuSecondsOf(pid)]));
    };
    const cpuSince = async (start: Map<number, number>): Promise<number> => {
      let seconds = 0;
      for (const [pid, now] of await cpuByPid()) seconds += now - (start.get(pid) ?? 0);
      return seconds;
    };
    /** Runs `path` `runs` times: wall median / p95, server CPU ms per request, and the last body. */
    const measure = async (path: string, runs: number): Promise<{ median: number; p95: number; cpu: number; body: unknown }> => {
      const samples: number[] = [];
      let body: unknown;
      const start = await cpuByPid();
      for (let attempt = 0; attempt < runs; attempt++) {
        const answer = await timeRequest(`${url}${path}`, token);
        samples.push(answer.ms);
        body = answer.body;
      }
      const cpu = ((await cpuSince(start)) * 1000) / runs;
      const { median, p95 } = stats(samples);
      if (p95 >= 100) exitCode = Math.max(exitCode, 3);
      return { median, p95, cpu, body };
    };
    const row = (label: string, figures: { median: number; p95: number; cpu: number }, note: string) =>
      `  ${label.padEnd(30)} ${ms(figures.median).padStart(10)} / ${ms(figures.p95).padStart(10)}   cpu ${ms(figures.cpu).padStart(9)}   (${note})`;

    console.log(`\nGET /api/keyword-hits (limit 50, with total), ${RUNS} runs each: median / p95 wall, server CPU per request; load ${loadAverage()}`);
    const searchTotals: Array<[string, number, boolean]> = [];
    for (const [label, query] of queries) {
      const figures = await measure(`/api/keyword-hits?limit=50${query ? `&${query}` : ''}`, RUNS);
      const { total, total_capped: capped = false } = figures.body as { total: number; total_capped?: boolean };
      if (query.startsWith('q=') && !query.includes('&')) searchTotals.push([decodeURIComponent(query.slice(2)), total, capped]);
      console.log(row(label, figures, `${total.toLocaleString('en')}${capped ? '+' : ''} matching`));
    }
    const groupRuns = Math.max(5, Math.floor(RUNS / 2));
    console.log(`\nGET /api/keyword-hits/groups (default page), ${groupRuns} runs each: median / p95 wall, server CPU per request; load ${loadAverage()}`);
    const groupForms: Array<[string, string]> = [
      ['task', 'group_by=task'],
      ['account', 'group_by=account'],
      ['chat', 'group_by=chat'],
      ['task + account', `group_by=task&account=${account}`],
      ['chat + account', `group_by=chat&account=${account}`],
      ['chat + task (aggregated)', `group_by=chat&task=${task}`],
      ['task + one day (aggregated)', 'group_by=task&since=2025-02-01T00:00:00Z&until=2025-02-02T00:00:00Z'],
      ['chat, 1,000 a page', 'group_by=chat&limit=1000'],
    ];
    {
      // Page 2 of the chats, when the build pages groups.
      const { body } = await timeRequest(`${url}/api/keyword-hits/groups?group_by=chat`, token);
      const next = (body as { next_cursor?: string | null }).next_cursor;
      if (next) groupForms.push(['chat page 2 (cursor)', `group_by=chat&cursor=${next}`]);
    }
    for (const [label, query] of groupForms) {
      const figures = await measure(`/api/keyword-hits/groups?${query}`, groupRuns);
      const { groups, total } = figures.body as { groups: unknown[]; total?: number };
      console.log(row(label, figures, `${groups.length.toLocaleString('en')}${total === undefined ? '' : ` of ${total.toLocaleString('en')}`} groups`));
    }

    console.log('\nSearch against a plain scan (COUNT with LIKE over the five columns, no index):');
    for (const [q, total, capped] of searchTotals) {
      const scanned = await scanCount(connection, driver, q);
      // Capped: `total` is a lower bound (the cap, or for a 1-2 character q the matches among the newest hits counted).
      const agrees = capped ? scanned >= total : scanned === total;
      if (!agrees) exitCode = Math.max(exitCode, 4);
      console.log(`  q=${JSON.stringify(q)}: API ${total.toLocaleString('en')}${capped ? '+' : ''}, scan ${scanned.toLocaleString('en')}: ${agrees ? 'agree' : 'DISAGREE'}`);
    }

    if (args['skip-export'] !== 'true') {
      const pid = server.pid as number;
      const idle = memoryOf(pid).rss;
      let hwmReset = true;
      try {
        writeFileSync(`/proc/${pid}/clear_refs`, '5');
      } catch {
        hwmReset = false;
      }
      let sampledPeak = 0;
      const sampler = setInterval(() => {
        sampledPeak = Math.max(sampledPeak, memoryOf(pid).rss);
      }, 50);
      const exportStarted = process.hrtime.bigint();
      const response = await fetch(`${url}/api/keyword-hits/export`, { headers: { authorization: `Bearer ${token}` } });
      let bytes = 0;
      let lines = 0;
      const reader = response.body?.getReader();
      for (;;) {
        const chunk = await reader?.read();
        if (!chunk || chunk.done) break;
        bytes += chunk.value.byteLength;
        for (let i = 0; i < chunk.value.length; i++) if (chunk.value[i] === 10) lines++;
      }
      const seconds = Number(process.hrtime.bigint() - exportStarted) / 1e9;
      clearInterval(sampler);
      const peak = hwmReset ? memoryOf(pid).peak : sampledPeak;
      const mb = (value: number) => `${(value / 1024 / 1024).toFixed(0)} MB`;
      console.log(`\nGET /api/keyword-hits/export (all hits)`);
      console.log(`  ${lines.toLocaleString('en')} lines, ${mb(bytes)} in ${seconds.toFixed(1)} s (${Math.round(lines / seconds).toLocaleString('en')} rows/s)`);
      console.log(
        `  service peak RSS during the export: ${mb(peak)} (${hwmReset ? 'VmHWM reset before the export' : 'sampled every 50 ms'}; sampled peak ${mb(sampledPeak)}); idle before: ${mb(idle)}; target < 200 MB: ${peak < 200 * 1024 * 1024 ? 'met' : 'MISSED'}`,
      );
      if (peak >= 200 * 1024 * 1024) exitCode = Math.max(exitCode, 2);
    }
  } finally {
    await connection?.close();
    server?.kill('SIGTERM');
    if (server && server.exitCode === null) await new Promise((resolve) => server?.once('exit', resolve));
    if (admin) {
      if (!keptDatabase) await admin.query(`DROP DATABASE IF EXISTS "${databaseName}"`);
      await admin.close();
    }
    if (args['keep'] !== 'true' && !reuse) rmSync(work, { recursive: true, force: true });
  }
  return exitCode;
}

async function main(): Promise<void> {
  if (args['skip-matching'] !== 'true') benchMatching();
  let code = 0;
  if (args['skip-hits'] !== 'true') {
    for (const driver of (args['db'] ?? 'sqlite,postgres').split(',') as Driver[]) code = Math.max(code, await benchHits(driver));
  }
  process.exit(code);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
