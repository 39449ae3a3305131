import { join } from 'node:path';
import { requestJson, waitFor } from '@shared/testing';
import { DataSource } from 'typeorm';
import { KeywordHit } from '../src/app/keyword-hits/entities/keyword-hit.entity';
import { postgresMigrations } from '../src/database/migrations/postgres';
import { KeywordHitGroupsAll1795800000000 } from '../src/database/migrations/postgres/1795800000000-keyword-hit-groups-all';
import { KeywordHitsFtsIndexer } from '../src/app/keyword-hits/keyword-hits-fts-indexer';
import { KeywordHitsService } from '../src/app/keyword-hits/keyword-hits.service';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';

interface Hit {
  id: number;
  account_name: string;
  task_name: string;
  chat_id: string;
  hit_at: string;
}

interface Page {
  items: Hit[];
  total: number;
  total_capped: boolean;
  limit: number;
  offset: number;
  next_cursor: string | null;
}

interface Groups {
  groups: Array<{ key: string; count: number; latest_hit: Hit }>;
  total: number;
  limit: number;
  next_cursor: string | null;
}

/** The benchmark's kind of data, smaller: words, keywordN, Chinese phrases, mixed case, and characters LIKE treats specially. */
const WORDS = ['alpha', 'Bravo', 'charlie', 'DELTA', 'echo', 'foxtrot', 'golf', 'hotel', '50%', 'under_score', 'back\\slash', 'quote"d'];
const CHINESE = ['比特币空投', '今天签到成功', '领取红包奖励', '新币上线公告', '限时抢购活动'];
const ACCOUNTS = ['big', 'a1', 'a2', 'a3'];
const TASKS = ['t0', 't1', 't2', 't3', 't4', 't5'];
const CHATS = ['-1001', '-1002', '-1003', '-1004', '-1005', '-1006', '-1007'];
const HITS = 12_000;
const START = Date.UTC(2025, 0, 1);

/** A small deterministic generator, so a failure can be reproduced. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

function makeHits(count: number, firstMessageId: number, seed: number): Array<Omit<KeywordHit, 'id'>> {
  const random = generator(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  return Array.from({ length: count }, (_, i) => {
    const n = firstMessageId + i;
    const words = Array.from({ length: 6 }, () => pick(WORDS));
    if (n % 10 === 3) words.splice(2, 0, pick(CHINESE));
    // Every 97th hit shares its time with the one before: ties are broken by id.
    const at = new Date(START + (n % 97 === 0 ? n - 1 : n) * 60_000);
    return {
      accountName: n % 2 === 0 ? 'big' : pick(ACCOUNTS),
      taskName: pick(TASKS),
      chatId: pick(CHATS),
      chatTitle: n % 50 === 0 ? null : `Chat ${pick(['Deals', '交易群', 'News'])}`,
      messageThreadId: null,
      senderId: '42',
      senderName: n % 7 === 0 ? null : pick(['Ann Lee', '王小明', 'Bob']),
      senderUsername: n % 5 === 0 ? null : pick(['ann', 'wxm', 'bob_the']),
      messageId: n,
      ruleIndex: 0,
      messageText: `${words.join(' ')} keyword${n % 50}`,
      matchedKeyword: `keyword${n % 50}`,
      messageUrl: null,
      hitAt: at,
      pushChannel: 'telegram',
      pushStatus: 'sent',
      pushError: null,
      createdAt: at,
    };
  });
}

/** ASCII letters case-folded, as LIKE folds them. */
const fold = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** The five searched columns of each reference hit, folded once (the scan below runs over every hit for each of about a hundred queries). */
const foldedColumns = new WeakMap<Omit<KeywordHit, 'id'>, string[]>();

/** The plain scan every search must agree with: a substring of one of the five columns, ASCII letters case-folded (LIKE). */
function scanMatches(hit: Omit<KeywordHit, 'id'>, q: string): boolean {
  let columns = foldedColumns.get(hit);
  if (!columns) {
    columns = [hit.messageText, hit.matchedKeyword, hit.senderName, hit.senderUsername, hit.chatTitle].filter((value): value is string => value !== null).map(fold);
    foldedColumns.set(hit, columns);
  }
  const needle = fold(q);
  return columns.some((value) => value.includes(needle));
}

describe('keyword hits at scale: trigram search, capped totals, keyset paging, group counters', () => {
  let panel: RunningPanel;
  let token: string;
  /** The reference copy of every hit in the table, by id. */
  const stored = new Map<number, Omit<KeywordHit, 'id'>>();
  const get = <T>(path: string) => requestJson<T>(panel.url, path, { token });

  async function insert(rows: Array<Omit<KeywordHit, 'id'>>): Promise<void> {
    const repository = panel.app.get(DataSource).getRepository(KeywordHit);
    for (let at = 0; at < rows.length; at += 500) {
      const chunk = rows.slice(at, at + 500);
      const result = await repository.insert(chunk);
      result.identifiers.forEach((identifier, index) => stored.set(Number(identifier['id']), chunk[index]));
    }
  }

  /** Every hit matching the filter, newest first (hit_at, then id), from the reference copy. */
  function expected(filter: { q?: string; account?: string; task?: string; since?: Date }): number[] {
    return [...stored.entries()]
      .filter(([, hit]) => filter.q === undefined || scanMatches(hit, filter.q))
      .filter(([, hit]) => filter.account === undefined || hit.accountName === filter.account)
      .filter(([, hit]) => filter.task === undefined || hit.taskName === filter.task)
      .filter(([, hit]) => filter.since === undefined || hit.hitAt.getTime() >= filter.since.getTime())
      .sort(([idA, a], [idB, b]) => b.hitAt.getTime() - a.hitAt.getTime() || idB - idA)
      .map(([id]) => id);
  }

  /** Follows next_cursor to the end; answers the ids in order and the first page's totals. */
  async function pageThrough(query: string, limit = 500): Promise<{ ids: number[]; total: number; capped: boolean }> {
    const ids: number[] = [];
    let cursor: string | null = null;
    let first: Page | undefined;
    for (let pages = 0; pages < 100; pages++) {
      const response: { status: number; body: Page } = await get<Page>(`/api/keyword-hits?limit=${limit}${query}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(response.status).toBe(200);
      first ??= response.body;
      ids.push(...response.body.items.map((hit) => hit.id));
      cursor = response.body.next_cursor;
      if (!cursor) break;
    }
    return { ids, total: first?.total ?? 0, capped: first?.total_capped ?? false };
  }

  beforeAll(async () => {
    panel = await startPanel();
    token = await loginAsAdmin(panel);
    await insert(makeHits(HITS, 1, 7));
    // Every search below runs with the text index caught up; one test searches a partly indexed table.
    await panel.app.get(KeywordHitsFtsIndexer).catchUp();
  }, 120_000);

  afterAll(async () => {
    await panel?.close();
  });

  it('refuses a cursor it did not write, and cursor together with offset', async () => {
    expect((await get('/api/keyword-hits?cursor=not-a-cursor')).status).toBe(400);
    const first = await get<Page>('/api/keyword-hits?limit=5');
    expect(first.body.next_cursor).toEqual(expect.any(String));
    expect((await get(`/api/keyword-hits?cursor=${first.body.next_cursor}&offset=5`)).status).toBe(400);
    expect((await get(`/api/keyword-hits?cursor=${'x'.repeat(65)}`)).status).toBe(400);
  });

  it('caps the total at 10,000 and says so; below the cap it is exact', async () => {
    const all = await get<Page>('/api/keyword-hits?limit=1');
    expect(all.body).toMatchObject({ total: 10_000, total_capped: true });
    const account = await get<Page>('/api/keyword-hits?limit=1&account=a1');
    expect(account.body).toMatchObject({ total: expected({ account: 'a1' }).length, total_capped: false });
  });

  it('pages by cursor through exactly the hits a plain scan finds, in order, for every query form', async () => {
    const since = new Date(START + 6_000 * 60_000);
    const forms: Array<{ label: string; query: string; filter: Parameters<typeof expected>[0] }> = [
      { label: 'no filter', query: '', filter: {} },
      { label: 'account with half the hits', query: '&account=big', filter: { account: 'big' } },
      { label: 'task', query: '&task=t3', filter: { task: 't3' } },
      { label: 'account + task + since', query: `&account=big&task=t1&since=${since.toISOString()}`, filter: { account: 'big', task: 't1', since } },
    ];
    const searches = ['keyword7 ', 'KEYWORD4', 'bravo del', '比特币空投', '红包奖', '红包', '交易', '王', 'e', '50%', 'under_', 'back\\sl', 'quote"d', 'no such text', 'wxm'];
    for (const q of searches) {
      forms.push({ label: `q=${q}`, query: `&q=${encodeURIComponent(q)}`, filter: { q } });
      forms.push({ label: `q=${q} + account`, query: `&q=${encodeURIComponent(q)}&account=a2`, filter: { q, account: 'a2' } });
    }
    // PostgreSQL serves these from one index holding the account, task and chat with the text.
    for (const q of ['keyword7 ', '红包奖']) {
      forms.push({ label: `q=${q} + big account`, query: `&q=${encodeURIComponent(q)}&account=big`, filter: { q, account: 'big' } });
      forms.push({ label: `q=${q} + task`, query: `&q=${encodeURIComponent(q)}&task=t2`, filter: { q, task: 't2' } });
      forms.push({ label: `q=${q} + account + task`, query: `&q=${encodeURIComponent(q)}&account=a2&task=t2`, filter: { q, account: 'a2', task: 't2' } });
    }
    forms.push({ label: 'q + since', query: `&q=${encodeURIComponent('今天签到')}&since=${since.toISOString()}`, filter: { q: '今天签到', since } });
    for (const form of forms) {
      const want = expected(form.filter);
      const got = await pageThrough(form.query);
      expect({ form: form.label, ids: got.ids }).toEqual({ form: form.label, ids: want });
      // Text searches count exactly up to 1,000 matches, everything else up to 10,000.
      const cap = form.filter.q === undefined ? 10_000 : 1_000;
      expect({ form: form.label, total: got.total, capped: got.capped }).toEqual({ form: form.label, total: Math.min(want.length, cap), capped: want.length > cap });
    }
  }, 120_000);

  it('keeps offset paging, and it agrees with the cursor order', async () => {
    const want = expected({ account: 'a3' });
    const page = await get<Page>('/api/keyword-hits?limit=20&offset=40&account=a3');
    expect(page.body.items.map((hit) => hit.id)).toEqual(want.slice(40, 60));
    expect(page.body.offset).toBe(40);
    // With text search: a rare text (exact total, page cut from the matches) and a common one
    // (more than 1,000 matches: the page comes from the newest hits, deep offsets from the index).
    for (const [q, offsets] of [
      ['比特币空投', [0, 40, 200]],
      ['quote"d', [0, 40, 3_000]],
      ['e', [0, 40, 9_000]],
      ['keyword', [0, 4_990, 11_500]],
    ] as const) {
      const matching = expected({ q });
      for (const offset of offsets) {
        const searched = await get<Page>(`/api/keyword-hits?limit=25&offset=${offset}&q=${encodeURIComponent(q)}`);
        expect({ q, offset, ids: searched.body.items.map((hit) => hit.id) }).toEqual({ q, offset, ids: matching.slice(offset, offset + 25) });
        expect(searched.body).toMatchObject({ total: Math.min(matching.length, 1_000), total_capped: matching.length > 1_000 });
      }
    }
  });

  it('keeps indexing while another connection writes hits (SQLite: a second writer on the file)', async () => {
    if (panel.app.get(DataSource).options.type !== 'sqlite') return;
    const sqlite3 = await import('sqlite3');
    const indexer = panel.app.get(KeywordHitsFtsIndexer);
    const other = await new Promise<import('sqlite3').Database>((resolve, reject) => {
      const db = new sqlite3.Database(join(panel.dataDir, 'db.sqlite'), (error) => (error ? reject(error) : resolve(db)));
    });
    const run = (sql: string, params: unknown[] = []) => new Promise<void>((resolve, reject) => other.run(sql, params, (error) => (error ? reject(error) : resolve())));
    try {
      await run('PRAGMA busy_timeout = 10000');
      const rows = makeHits(200, HITS + 5_000, 19);
      const columns = ['account_name', 'task_name', 'chat_id', 'chat_title', 'sender_id', 'sender_name', 'sender_username', 'message_id', 'rule_index', 'message_text', 'matched_keyword', 'hit_at', 'push_channel', 'push_status', 'created_at'];
      const sql = `INSERT INTO "keyword_hits" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
      const sqliteTime = (date: Date) => date.toISOString().replace('T', ' ').replace('Z', '');
      // One hit per transaction from the other connection, the service's indexer running meanwhile.
      const writes = (async () => {
        for (const hit of rows) {
          await run('BEGIN');
          await run(sql, [hit.accountName, hit.taskName, hit.chatId, hit.chatTitle, hit.senderId, hit.senderName, hit.senderUsername, hit.messageId, hit.ruleIndex, hit.messageText, hit.matchedKeyword, sqliteTime(hit.hitAt), hit.pushChannel, hit.pushStatus, sqliteTime(hit.createdAt)]);
          await run('COMMIT');
        }
      })();
      while (!(await Promise.race([writes.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 20))]))) await indexer.catchUp();
      const ids = await panel.app.get(DataSource).query(`SELECT "id" FROM "keyword_hits" WHERE "message_id" >= ? ORDER BY "id"`, [HITS + 5_000]);
      (ids as Array<{ id: number }>).forEach((row, index) => stored.set(Number(row.id), rows[index]));
      // The indexer finished every pass (none hung on the other writer) and catches up with the rest.
      await indexer.catchUp();
      expect(await indexer.pending()).toBe(0);
      for (const q of ['keyword7 ', '红包奖']) {
        expect({ q, ids: (await pageThrough(`&q=${encodeURIComponent(q)}`)).ids }).toEqual({ q, ids: expected({ q }) });
      }
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  }, 120_000);

  it('finds hits the text index has not reached yet, and after it has, the same', async () => {
    const indexer = panel.app.get(KeywordHitsFtsIndexer);
    const driver = panel.app.get(DataSource).options.type;
    indexer.pause();
    try {
      await insert(makeHits(400, HITS + 1_000, 17));
      if (driver === 'sqlite') expect(await indexer.pending()).toBe(400);
      for (const q of ['keyword7 ', '红包奖', 'quote"d', 'Bravo del']) {
        expect({ q, ids: (await pageThrough(`&q=${encodeURIComponent(q)}`)).ids }).toEqual({ q, ids: expected({ q }) });
      }
      // A hit deleted before it was indexed, and one deleted after: neither is found.
      const [notIndexed] = expected({ q: 'keyword7 ' });
      await requestJson(panel.url, `/api/keyword-hits?q=${encodeURIComponent('keyword7 ')}&since=${stored.get(notIndexed)?.hitAt.toISOString()}`, { method: 'DELETE', token });
      for (const id of expected({ q: 'keyword7 ', since: stored.get(notIndexed)?.hitAt })) stored.delete(id);
    } finally {
      indexer.resume();
    }
    await indexer.catchUp();
    expect(await indexer.pending()).toBe(0);
    const [indexed] = expected({ q: 'keyword7 ' });
    await requestJson(panel.url, `/api/keyword-hits?q=${encodeURIComponent('keyword7 ')}&since=${stored.get(indexed)?.hitAt.toISOString()}`, { method: 'DELETE', token });
    for (const id of expected({ q: 'keyword7 ', since: stored.get(indexed)?.hitAt })) stored.delete(id);
    for (const q of ['keyword7 ', '红包奖', 'quote"d', 'Bravo del', 'e']) {
      expect({ q, ids: (await pageThrough(`&q=${encodeURIComponent(q)}`)).ids }).toEqual({ q, ids: expected({ q }) });
    }
  }, 120_000);

  it('finds nothing for Chinese text within an account none of whose hits holds it, and exactly the matches within those that do', async () => {
    // An account with more hits than the phrase has candidates, and no Chinese text at all: every hit
    // holding the phrase belongs to another account (SQLite narrows the FTS5 hits by the account's
    // index before reading any row; a hit recorded after the indexer's last batch is found too).
    const indexer = panel.app.get(KeywordHitsFtsIndexer);
    const quiet = makeHits(2_000, HITS + 20_000, 29).map((hit) => ({
      ...hit,
      accountName: 'quiet',
      messageText: hit.messageText.split(' ').filter((word) => !CHINESE.includes(word)).join(' '),
    }));
    await insert(quiet);
    await indexer.catchUp();
    const searches = ['领取红包奖励', '领取红包', '红包奖', '今天签到成功'];
    for (const q of searches) expect({ q, quiet: expected({ q, account: 'quiet' }) }).toEqual({ q, quiet: [] });
    expect(expected({ q: '领取红包奖励', account: 'big' }).length).toBeGreaterThan(0);
    const check = async () => {
      for (const q of searches) {
        for (const account of ['quiet', 'big', 'a1']) {
          const want = expected({ q, account });
          const got = await pageThrough(`&q=${encodeURIComponent(q)}&account=${account}`, 100);
          expect({ q, account, ids: got.ids, total: got.total, capped: got.capped }).toEqual({ q, account, ids: want, total: Math.min(want.length, 1_000), capped: want.length > 1_000 });
        }
      }
    };
    await check();

    indexer.pause();
    try {
      // No pass in flight after this one: the hit below stays above the mark until resume().
      await indexer.catchUp();
      const [late] = makeHits(1, HITS + 25_000, 31).map((hit) => ({ ...hit, accountName: 'quiet', messageText: `${CHINESE[2]} quiet` }));
      await insert([late]);
      if (panel.app.get(DataSource).options.type === 'sqlite') expect(await indexer.pending()).toBe(1);
      expect(expected({ q: '领取红包奖励', account: 'quiet' })).toHaveLength(1);
      await check();
    } finally {
      indexer.resume();
    }
    await indexer.catchUp();
    await check();
  }, 120_000);

  /** Every group of a query, following next_cursor with `limit` groups a page; answers them with the first page's total. */
  async function groupPages(query: string, limit: number): Promise<{ groups: Groups['groups']; total: number }> {
    const groups: Groups['groups'] = [];
    let cursor: string | null = null;
    let total = -1;
    for (let pages = 0; pages < 100; pages++) {
      const response: { status: number; body: Groups } = await get<Groups>(`/api/keyword-hits/groups?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(response.status).toBe(200);
      expect(response.body.groups.length).toBeLessThanOrEqual(limit);
      if (total < 0) total = response.body.total;
      expect(response.body.total).toBe(total);
      groups.push(...response.body.groups);
      cursor = response.body.next_cursor;
      if (!cursor) break;
    }
    return { groups, total };
  }

  /** Group counts and latest hits from the API (whole, and paged by cursor) against the reference copy. */
  async function checkGroups(): Promise<void> {
    for (const [groupBy, field] of [
      ['task', 'taskName'],
      ['chat', 'chatId'],
      ['account', 'accountName'],
    ] as const) {
      for (const filter of ['', '&account=big', '&account=a2', '&task=t2', `&q=${encodeURIComponent('红包')}`]) {
        const params = new URLSearchParams(filter.slice(1));
        const ids = expected({ account: params.get('account') ?? undefined, task: params.get('task') ?? undefined, q: params.get('q') ?? undefined });
        const want = new Map<string, { count: number; latest: number }>();
        for (const id of ids) {
          const key = String((stored.get(id) as Omit<KeywordHit, 'id'>)[field]);
          const entry = want.get(key);
          // ids are newest first: the first seen is the latest.
          if (entry) entry.count += 1;
          else want.set(key, { count: 1, latest: id });
        }
        // Groups come with the latest hit first, which is the order of first appearance in `ids`.
        const wanted = [...want.entries()].map(([key, entry]) => [key, entry.count, entry.latest]);
        for (const limit of [1000, 2]) {
          const { groups, total } = await groupPages(`group_by=${groupBy}${filter}`, limit);
          const got = groups.map((group) => [group.key, group.count, group.latest_hit.id]);
          expect({ groupBy, filter, limit, got, total }).toEqual({ groupBy, filter, limit, got: wanted, total: wanted.length });
        }
      }
    }
  }

  it('groups from counters that stay right after deletes through the API, a retention-style delete, and an import-style insert', async () => {
    await checkGroups();

    const removed = await requestJson<{ deleted: number }>(panel.url, '/api/keyword-hits?account=a2&task=t1', { method: 'DELETE', token });
    expect(removed.body.deleted).toBe(expected({ account: 'a2', task: 't1' }).length);
    for (const id of expected({ account: 'a2', task: 't1' })) stored.delete(id);
    await checkGroups();

    // Retention deletes old hits with its own statement, not through the API.
    const cutoff = new Date(START + 2_000 * 60_000);
    await panel.app.get(DataSource).getRepository(KeywordHit).createQueryBuilder().delete().where('"hit_at" < :cutoff', { cutoff }).execute();
    for (const [id, hit] of [...stored.entries()]) if (hit.hitAt < cutoff) stored.delete(id);
    await checkGroups();

    // Deleting the newest hits takes away the latest hit of nearly every group: each group's next one takes its place.
    const newest = stored.get(expected({})[400]) as Omit<KeywordHit, 'id'>;
    const cut = await requestJson<{ deleted: number }>(panel.url, `/api/keyword-hits?since=${newest.hitAt.toISOString()}`, { method: 'DELETE', token });
    expect(cut.body.deleted).toBe(expected({ since: newest.hitAt }).length);
    for (const id of expected({ since: newest.hitAt })) stored.delete(id);
    await checkGroups();

    // An import writes many rows at once; a listener records one (and a replay records nothing).
    await insert(makeHits(300, HITS + 1, 11));
    const service = panel.app.get(KeywordHitsService);
    const one = makeHits(1, HITS + 400, 13)[0];
    const recorded = await service.record(one);
    expect(recorded).toBeDefined();
    stored.set((recorded as KeywordHit).id, { ...one, createdAt: (recorded as KeywordHit).createdAt });
    expect(await service.record(one)).toBeUndefined();
    await checkGroups();

    // A hit moved to another chat and time (an edit by hand, a repair): both groups' latest hits follow.
    const [movedId] = expected({ account: 'big' });
    const moved = stored.get(movedId) as Omit<KeywordHit, 'id'>;
    const movedTo = { chatId: moved.chatId === '-1001' ? '-1002' : '-1001', hitAt: new Date(START - 60_000) };
    await panel.app.get(DataSource).getRepository(KeywordHit).update({ id: movedId }, movedTo);
    stored.set(movedId, { ...moved, ...movedTo });
    await checkGroups();

    // PostgreSQL keeps all-accounts counter rows for task and chat (migration 1795800000000): undone,
    // the old triggers keep the per-account rows right without them; run again, the migration
    // fills them from the per-account rows and each key's latest hit.
    const dataSource = panel.app.get(DataSource);
    if (dataSource.options.type === 'postgres') {
      // Undone back to it, through any later migration (1795930000000 is a no-op on PostgreSQL).
      const later = postgresMigrations.slice(postgresMigrations.indexOf(KeywordHitGroupsAll1795800000000));
      for (let undone = 0; undone < later.length; undone++) await dataSource.undoLastMigration({ transaction: 'each' });
      expect(await dataSource.query(`SELECT to_regclass('keyword_hit_groups_all') AS "table"`)).toEqual([{ table: null }]);
      const gone = expected({ account: 'a1' }).slice(0, 5);
      await dataSource.getRepository(KeywordHit).delete(gone);
      for (const id of gone) stored.delete(id);
      expect(await dataSource.runMigrations({ transaction: 'each' })).toHaveLength(later.length);
      await checkGroups();

      // A delete that must wait for another account's insert in the same chat (not yet committed)
      // counts from what the insert left. The chat is new with one hit, so the delete would take its
      // all-accounts row to 0, and the insert's +1 must survive: 1, not 2 and not gone.
      const [first, second] = makeHits(2, HITS + 900, 17).map((hit) => ({ ...hit, chatId: '-1999' }));
      await insert([{ ...first, accountName: 'a2' }]);
      const firstId = [...stored.entries()].find(([, hit]) => hit.chatId === '-1999')?.[0] as number;
      const holding = dataSource.createQueryRunner();
      await holding.connect();
      await holding.startTransaction();
      const added = { ...second, accountName: 'a3' };
      const inserted = await holding.manager.getRepository(KeywordHit).insert(added);
      const deleting = dataSource.getRepository(KeywordHit).delete(firstId);
      // Known state: the delete waits for the insert's row lock.
      await waitFor(async () => Number(((await dataSource.query(`SELECT COUNT(*) AS "n" FROM pg_locks WHERE NOT "granted"`)) as Array<{ n: string }>)[0].n) > 0, 10_000);
      await holding.commitTransaction();
      await holding.release();
      expect((await deleting).affected).toBe(1);
      stored.delete(firstId);
      stored.set(Number(inserted.identifiers[0]['id']), added);
      await checkGroups();
      expect(await dataSource.query(`SELECT "hit_count" FROM "keyword_hit_groups_all" WHERE "group_by" = 'chat' AND "group_key" = '-1999'`)).toEqual([{ hit_count: 1 }]);
    }

    // The search index follows the deletes and inserts too.
    for (const q of ['keyword7 ', '新币上线', 'wxm']) {
      expect({ q, ids: (await pageThrough(`&q=${encodeURIComponent(q)}`)).ids }).toEqual({ q, ids: expected({ q }) });
    }
  }, 120_000);
});
