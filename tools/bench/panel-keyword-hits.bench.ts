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
import { tmpdir } from 'node:os';
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

const MAIN = join(__dirname, '../../dist/apps/panel-api/main.js');

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

async function startService(dataDir: string): Promise<{ url: string; server: ChildProcess }> {
  const port = await freePort();
  const server = spawn(process.execPath, [MAIN], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), APP_DATA_DIR: dataDir, ADMIN_PASSWORD, LOG_LEVEL: 'warn', APP_UPDATE_CHECK: '0' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`panel-api exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return { url, server };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('panel-api did not become ready within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function run(db: Database, sql: string, params: unknown[] = []): Promise<void> {
  return new Promise((resolve, reject) => db.run(sql, params, (error: Error | null) => (error ? reject(error) : resolve())));
}

/** Writes the hits with a separate SQLite connection (WAL) into the schema the service migrated. */
async function seed(path: string): Promise<{ account: string; task: string; chat: string }> {
  const accounts = Array.from({ length: 20 }, (_, i) => `account${i}`);
  const tasks = Array.from({ length: 200 }, (_, i) => `task-${i}`);
  const chats = Array.from({ length: 2000 }, (_, i) => String(-1001000000000 - i));
  const start = Date.UTC(2025, 0, 1);
  const span = 90 * 86_400_000;
  const columns = [
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
  const batch = 1000;
  const started = Date.now();
  const db = await new Promise<Database>((resolve, reject) => {
    const opened = new sqlite3.Database(path, (error: Error | null) => (error ? reject(error) : resolve(opened)));
  });
  try {
    await run(db, 'PRAGMA busy_timeout = 10000');
    for (let offset = 0; offset < HITS; offset += batch * 50) {
      await run(db, 'BEGIN');
      for (let chunk = offset; chunk < Math.min(HITS, offset + batch * 50); chunk += batch) {
        const rows = Math.min(batch, HITS - chunk);
        const values: unknown[] = [];
        const tuples: string[] = [];
        for (let r = 0; r < rows; r++) {
          const n = chunk + r;
          const chatIndex = randomInt(chats.length);
          const at = new Date(start + Math.floor((n / HITS) * span)).toISOString().replace('T', ' ').replace('Z', '');
          values.push(
            accounts[n % accounts.length],
            tasks[randomInt(tasks.length)],
            chats[chatIndex],
            `Chat ${chatIndex}`,
            String(100000 + randomInt(50000)),
            `${word()} ${word()}`,
            word(),
            n + 1,
            0,
            `${sentence(8)} keyword${n % 50} ${sentence(6)}`,
            `keyword${n % 50}`,
            `https://t.me/c/${chatIndex}/${n + 1}`,
            at,
            'telegram',
            'sent',
            at,
          );
          tuples.push(`(${columns.map(() => '?').join(',')})`);
        }
        await run(db, `INSERT INTO "keyword_hits" (${columns.map((c) => `"${c}"`).join(',')}) VALUES ${tuples.join(',')}`, values);
      }
      await run(db, 'COMMIT');
      process.stdout.write(`\r  inserted ${Math.min(HITS, offset + batch * 50).toLocaleString('en')} hits`);
    }
    await run(db, 'ANALYZE');
  } finally {
    await new Promise<void>((resolve) => db.close(() => resolve()));
  }
  console.log(`\r  inserted ${HITS.toLocaleString('en')} hits in ${((Date.now() - started) / 1000).toFixed(1)} s (into the migrated schema, every index in place)`);
  return { account: accounts[3], task: tasks[42], chat: chats[7] };
}

async function timeRequest(url: string, token: string): Promise<{ ms: number; body: unknown }> {
  const started = process.hrtime.bigint();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const body = (await response.json()) as unknown;
  if (response.status !== 200) throw new Error(`${url}: HTTP ${response.status} ${JSON.stringify(body)}`);
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, body };
}

async function benchHits(): Promise<number> {
  if (!existsSync(MAIN)) throw new Error('build first: npx nx build panel-api');
  console.log(`\n== ${HITS.toLocaleString('en')} keyword hits on SQLite (20 accounts, 200 tasks, 2,000 chats, 90 days), built service (dist)`);
  // --data=<dir> reuses the data directory a run with --keep left (its hits are not written again).
  const reuse = args['data'];
  const work = reuse ? join(reuse, '..') : mkdtempSync(join(process.env['BENCH_DIR'] ?? tmpdir(), 'panel-keyword-hits-bench-'));
  const dataDir = reuse ?? join(work, 'data');
  let server: ChildProcess | undefined;
  let exitCode = 0;
  try {
    const started = await startService(dataDir);
    server = started.server;
    const url = started.url;
    const { account, task, chat } = reuse ? { account: 'account3', task: 'task-42', chat: String(-1001000000000 - 7) } : await seed(join(dataDir, 'db.sqlite'));
    const login = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }) });
    const token = ((await login.json()) as { access_token: string }).access_token;

    const queries: Array<[string, string]> = [
      ['newest 50 (no filter)', ''],
      ['account', `account=${account}`],
      ['task', `task=${task}`],
      ['chat', `chat=${encodeURIComponent(chat)}`],
      ['since/until (one day)', 'since=2025-02-01T00:00:00Z&until=2025-02-02T00:00:00Z'],
      ['account + task + since', `account=${account}&task=${task}&since=2025-02-01T00:00:00Z`],
      ['q (text search)', 'q=keyword7%20'],
      ['page 100 (offset 4,950)', 'offset=4950'],
    ];
    console.log(`\nGET /api/keyword-hits (limit 50, with total), ${RUNS} runs each: median / p95`);
    for (const [label, query] of queries) {
      const samples: number[] = [];
      let total = 0;
      for (let attempt = 0; attempt < RUNS; attempt++) {
        const { ms: took, body } = await timeRequest(`${url}/api/keyword-hits?limit=50${query ? `&${query}` : ''}`, token);
        samples.push(took);
        total = (body as { total: number }).total;
      }
      const { median, p95 } = stats(samples);
      console.log(`  ${label.padEnd(26)} ${ms(median).padStart(10)} / ${ms(p95).padStart(10)}   (${total.toLocaleString('en')} matching)`);
    }
    const groupRuns = Math.max(5, Math.floor(RUNS / 2));
    console.log(`\nGET /api/keyword-hits/groups, ${groupRuns} runs each: median / p95`);
    for (const groupBy of ['task', 'account', 'chat']) {
      const samples: number[] = [];
      let groups = 0;
      for (let attempt = 0; attempt < groupRuns; attempt++) {
        const { ms: took, body } = await timeRequest(`${url}/api/keyword-hits/groups?group_by=${groupBy}`, token);
        samples.push(took);
        groups = (body as { groups: unknown[] }).groups.length;
      }
      const { median, p95 } = stats(samples);
      console.log(`  group_by=${groupBy.padEnd(8)} ${ms(median).padStart(10)} / ${ms(p95).padStart(10)}   (${groups.toLocaleString('en')} groups)`);
    }

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
    console.log(`\nGET /api/keyword-hits/export (all ${HITS.toLocaleString('en')} hits)`);
    console.log(`  ${lines.toLocaleString('en')} lines, ${mb(bytes)} in ${seconds.toFixed(1)} s (${Math.round(HITS / seconds).toLocaleString('en')} rows/s)`);
    console.log(
      `  service peak RSS during the export: ${mb(peak)} (${hwmReset ? 'VmHWM reset before the export' : 'sampled every 50 ms'}; sampled peak ${mb(sampledPeak)}); idle before: ${mb(idle)}; target < 200 MB: ${peak < 200 * 1024 * 1024 ? 'met' : 'MISSED'}`,
    );
    if (peak >= 200 * 1024 * 1024) exitCode = 2;
  } finally {
    server?.kill('SIGTERM');
    if (server && server.exitCode === null) await new Promise((resolve) => server?.once('exit', resolve));
    if (args['keep'] !== 'true' && !reuse) rmSync(work, { recursive: true, force: true });
  }
  return exitCode;
}

async function main(): Promise<void> {
  if (args['skip-matching'] !== 'true') benchMatching();
  const code = args['skip-hits'] === 'true' ? 0 : await benchHits();
  process.exit(code);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
