import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { Readable } from 'node:stream';
import { Brackets, DataSource, In, QueryFailedError, Repository, SelectQueryBuilder, WhereExpressionBuilder } from 'typeorm';
import { POSTGRES_SEARCH_DOCUMENT } from '../../database/migrations/postgres/1795400000000-keyword-hits-search';
import { csvRecord, UTF8_BOM } from './csv';
import { HitGroupKey, KeywordHitDto } from './dto/keyword-hits.dto';
import { HitPushStatus, KeywordHit } from './entities/keyword-hit.entity';

export interface KeywordHitFilter {
  account?: string;
  task?: string;
  chat?: string;
  since?: Date;
  until?: Date;
  q?: string;
}

/** Where a page ends: the last hit's (hit_at, id); the next page starts after it. */
export interface HitCursor {
  hitAt: Date;
  id: number;
}

/** Totals are exact up to this many hits; above it the API says "at least TOTAL_CAP" (the web app shows "10,000+"). */
export const TOTAL_CAP = 10_000;

/** The trigram indexes (SQLite FTS5, PostgreSQL pg_trgm) need a query of at least this many characters. */
const TRIGRAM_MIN_CHARS = 3;
/** SQLite search: how many of the query's trigrams are looked up to find its two rarest, and how far each count goes. */
const PROBED_TRIGRAMS = 8;
const PROBE_LIMIT = 30_000;
/** A search matching more than TOTAL_CAP hits is common text: its page is looked for in this many newest hits of the filter first. */
const SEARCH_WINDOW = 5_000;
/**
 * A query of one or two characters has no trigram to look up: its total is counted over the newest
 * SHORT_QUERY_COUNT_WINDOW hits of the other filters only. When they hold more hits than that, the
 * total is a lower bound (`totalCapped`), like the 10,000 cap.
 */
const SHORT_QUERY_COUNT_WINDOW = 50_000;

export function encodeCursor(hit: Pick<KeywordHit, 'hitAt' | 'id'>): string {
  return Buffer.from(`${hit.hitAt.getTime()}.${hit.id}`, 'utf8').toString('base64url');
}

/** Undefined when the text is not a cursor this service wrote. */
export function decodeCursor(text: string): HitCursor | undefined {
  const match = /^(-?\d{1,15})\.(\d{1,15})$/.exec(Buffer.from(text, 'base64url').toString('utf8'));
  if (!match) return undefined;
  const hitAt = new Date(Number(match[1]));
  const id = Number(match[2]);
  if (Number.isNaN(hitAt.getTime()) || !Number.isSafeInteger(id)) return undefined;
  return { hitAt, id };
}

export interface HitPage {
  items: KeywordHit[];
  /** Exact when `totalCapped` is false; otherwise at least this many (TOTAL_CAP). */
  total: number;
  totalCapped: boolean;
  nextCursor: string | null;
}

export type NewKeywordHit = Omit<KeywordHit, 'id' | 'pushStatus' | 'pushError' | 'createdAt'>;

const GROUP_COLUMNS: Record<HitGroupKey, string> = { task: 'task_name', account: 'account_name', chat: 'chat_id' };
const SEARCH_COLUMNS = ['message_text', 'matched_keyword', 'sender_name', 'sender_username', 'chat_title'];
const EXPORT_BATCH = 200;
const CHUNK_CHARS = 16_384;
const LIMITS = { text: 4096, title: 255, keyword: 1024, error: 1024, name: 255, url: 255 };

export const CSV_COLUMNS = [
  'id',
  'hit_at',
  'account_name',
  'task_name',
  'chat_id',
  'chat_title',
  'message_thread_id',
  'sender_id',
  'sender_name',
  'sender_username',
  'message_id',
  'matched_keyword',
  'text',
  'url',
  'push_channel',
  'push_status',
  'push_error',
] as const;

type RawHit = Record<string, string | number | Date | null>;

const SOURCE_COLUMN: Partial<Record<(typeof CSV_COLUMNS)[number], string>> = { text: 'message_text', url: 'message_url' };

function cut(text: string | null | undefined, max: number): string | null {
  if (text === null || text === undefined) return null;
  return text.length > max ? text.slice(0, max) : text;
}

/** A LIKE/ILIKE pattern for "contains q", with \\, % and _ escaped. */
function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** SQLite hands back `YYYY-MM-DD HH:MM:SS.SSS` (UTC); PostgreSQL a Date. */
function isoOf(value: string | number | Date | null): string {
  if (value instanceof Date) return value.toISOString();
  if (value === null) return '';
  const text = String(value);
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text.replace(' ', 'T')}Z`).toISOString();
}

/** SQLite SQLITE_CONSTRAINT(_UNIQUE) or PostgreSQL 23505. */
function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const driverError = error.driverError as { code?: string; message?: string } | undefined;
  return driverError?.code === '23505' || (driverError?.code === 'SQLITE_CONSTRAINT' && /UNIQUE/i.test(driverError.message ?? ''));
}

/** Keeps the hits after `cursor` in the newest-first order (hit_at, id). */
function applyCursor(query: WhereExpressionBuilder, cursor: HitCursor): void {
  query.andWhere(new Brackets((inner) => {
    inner.where('"hit_at" < :cursorAt', { cursorAt: cursor.hitAt }).orWhere(new Brackets((tie) => {
      tie.where('"hit_at" = :cursorAt').andWhere('"id" < :cursorId', { cursorId: cursor.id });
    }));
  }));
}

/** Newest first: later hit_at, then higher id. */
function newestFirst(a: { at: number; id: number }, b: { at: number; id: number }): number {
  return b.at - a.at || b.id - a.id;
}

/** The distinct trigrams of q as FTS5 strings ("abc", quotes doubled), case folded as the trigram tokenizer folds ASCII. */
export function trigramsOf(q: string): string[] {
  const chars = [...q.toLowerCase()];
  const seen = new Set<string>();
  for (let at = 0; at + TRIGRAM_MIN_CHARS <= chars.length; at++) seen.add(chars.slice(at, at + TRIGRAM_MIN_CHARS).join(''));
  return [...seen].map((trigram) => `"${trigram.replace(/"/g, '""')}"`);
}

export function hitToDto(hit: KeywordHit): KeywordHitDto {
  return {
    id: hit.id,
    account_name: hit.accountName,
    task_name: hit.taskName,
    chat_id: hit.chatId,
    chat_title: hit.chatTitle,
    message_thread_id: hit.messageThreadId,
    sender_id: hit.senderId,
    sender_name: hit.senderName,
    sender_username: hit.senderUsername,
    message_id: hit.messageId,
    text: hit.messageText,
    matched_keyword: hit.matchedKeyword,
    url: hit.messageUrl,
    hit_at: hit.hitAt.toISOString(),
    push_channel: hit.pushChannel,
    push_status: hit.pushStatus,
    push_error: hit.pushError,
    created_at: hit.createdAt.toISOString(),
  };
}

/** The keyword hits table: recording (before any push), the push outcome, queries, export and delete. */
@Injectable()
export class KeywordHitsService {
  constructor(
    @InjectRepository(KeywordHit) private readonly hits: Repository<KeywordHit>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /**
   * Stores a hit with push status `pending`. Undefined when this (account, task, chat, message) is
   * already recorded: a replayed message then neither records nor pushes again.
   */
  async record(input: NewKeywordHit): Promise<KeywordHit | undefined> {
    const row: Omit<KeywordHit, 'id'> = {
      ...input,
      chatTitle: cut(input.chatTitle, LIMITS.title),
      senderName: cut(input.senderName, LIMITS.name),
      senderUsername: cut(input.senderUsername, 64),
      messageText: cut(input.messageText, LIMITS.text) ?? '',
      matchedKeyword: cut(input.matchedKeyword, LIMITS.keyword) ?? '',
      messageUrl: cut(input.messageUrl, LIMITS.url),
      pushStatus: 'pending',
      pushError: null,
      createdAt: new Date(),
    };
    try {
      return await this.hits.save(this.hits.create(row));
    } catch (error) {
      if (isUniqueViolation(error)) return undefined;
      throw error;
    }
  }

  async setPushOutcome(id: number, status: HitPushStatus, error?: string): Promise<void> {
    await this.hits.update({ id }, { pushStatus: status, pushError: cut(error ?? null, LIMITS.error) });
  }

  async get(id: number): Promise<KeywordHit | null> {
    return this.hits.findOneBy({ id });
  }

  /**
   * One page, newest first by (hit_at, id): after `cursor` (keyset: an index range, as cheap on
   * page 1,000 as on page 1) or at `offset` (kept for older clients). The total is exact up to
   * TOTAL_CAP; counting stops there, so a filter matching half a million hits costs no more than
   * one matching ten thousand.
   */
  async list(filter: KeywordHitFilter, limit: number, position: { offset?: number; cursor?: HitCursor }): Promise<HitPage> {
    if (filter.q !== undefined) return this.listSearch(filter as KeywordHitFilter & { q: string }, limit, position);
    const query = this.applyFilter(this.hits.createQueryBuilder('h'), filter);
    const counted = this.applyFilter(this.hits.createQueryBuilder('h'), filter).select('1').limit(TOTAL_CAP + 1);
    const [countSql, countParameters] = counted.getQueryAndParameters();
    const [{ n }] = (await this.dataSource.query(`SELECT COUNT(*) AS "n" FROM (${countSql}) AS "capped"`, countParameters)) as Array<{ n: number | string }>;
    const matching = Number(n);
    if (position.cursor) applyCursor(query, position.cursor);
    const items = await query
      .orderBy('h.hitAt', 'DESC')
      .addOrderBy('h.id', 'DESC')
      .limit(limit + 1)
      .offset(position.cursor ? 0 : (position.offset ?? 0))
      .getMany();
    const more = items.length > limit;
    if (more) items.pop();
    return {
      items,
      total: Math.min(matching, TOTAL_CAP),
      totalCapped: matching > TOTAL_CAP,
      nextCursor: more && items.length > 0 ? encodeCursor(items[items.length - 1]) : null,
    };
  }

  /**
   * Count and latest hit per task, account or chat, the group with the latest hit first. Without a
   * filter, or filtered by account alone, the counts come from `keyword_hit_groups` (kept by
   * triggers in the transaction of every insert and delete) and each group's latest hit from the
   * (x, hit_at, id) index; any other filter aggregates the matching hits.
   */
  async groups(groupBy: HitGroupKey, filter: KeywordHitFilter): Promise<Array<{ key: string; count: number; latest: KeywordHit }>> {
    const column = GROUP_COLUMNS[groupBy];
    const onlyAccount = Object.entries(filter).every(([name, value]) => value === undefined || name === 'account');
    let rows: Array<{ group_key: string; hit_count: number | string; latest_id: number | string | null }>;
    if (onlyAccount) {
      const postgres = this.dataSource.options.type === 'postgres';
      // Placeholders are numbered (PostgreSQL) or positional (SQLite): bind in the order of the text.
      const values: unknown[] = [];
      const bind = (value: unknown): string => {
        values.push(value);
        return postgres ? `$${values.length}` : '?';
      };
      // On SQLite the unary `+` keeps the planner on the group's (x, hit_at) index: with the account's
      // index instead it walks that account's hits (half a million) for every group.
      const latest = `(SELECT "l"."id" FROM "keyword_hits" "l" WHERE "l"."${column}" = "c"."group_key"${
        filter.account !== undefined && groupBy !== 'account' ? ` AND ${postgres ? '' : '+'}"l"."account_name" = ${bind(filter.account)}` : ''
      } ORDER BY "l"."hit_at" DESC, "l"."id" DESC LIMIT 1)`;
      const counts = `SELECT "g"."group_key", SUM("g"."hit_count") AS "hit_count" FROM "keyword_hit_groups" "g" WHERE "g"."group_by" = ${bind(groupBy)}${
        filter.account !== undefined ? ` AND "g"."account_name" = ${bind(filter.account)}` : ''
      } GROUP BY "g"."group_key"`;
      rows = await this.dataSource.query(`SELECT "c"."group_key", "c"."hit_count", ${latest} AS "latest_id" FROM (${counts}) "c" WHERE "c"."hit_count" > 0`, values);
    } else {
      const aggregated = await this.applyFilter(this.hits.createQueryBuilder('h'), filter)
        .select(`"${column}"`, 'group_key')
        .addSelect('COUNT(*)', 'hit_count')
        .addSelect('MAX("hit_at")', 'latest_at')
        .groupBy(`"${column}"`)
        .getRawMany<{ group_key: string; hit_count: number | string; latest_at: string | Date }>();
      rows = [];
      for (const group of aggregated) {
        const latest = await this.applyFilter(this.hits.createQueryBuilder('h'), filter)
          .andWhere(`"${column}" = :groupKey`, { groupKey: group.group_key })
          .select('h.id', 'id')
          .orderBy('h.hitAt', 'DESC')
          .addOrderBy('h.id', 'DESC')
          .limit(1)
          .getRawOne<{ id: number | string }>();
        rows.push({ group_key: group.group_key, hit_count: group.hit_count, latest_id: latest?.id ?? null });
      }
    }
    const latest = new Map<number, KeywordHit>();
    const ids = rows.flatMap((row) => (row.latest_id === null ? [] : [Number(row.latest_id)]));
    for (let at = 0; at < ids.length; at += 500) {
      for (const hit of await this.hits.findBy({ id: In(ids.slice(at, at + 500)) })) latest.set(hit.id, hit);
    }
    return rows
      .flatMap((row) => {
        const hit = row.latest_id === null ? undefined : latest.get(Number(row.latest_id));
        return hit ? [{ key: String(row.group_key), count: Number(row.hit_count), latest: hit }] : [];
      })
      .sort((a, b) => b.latest.hitAt.getTime() - a.latest.hitAt.getTime() || b.latest.id - a.latest.id);
  }

  /**
   * The CSV export as a stream: a byte-order mark, a header, then one record per hit read in
   * batches by id, so memory stays flat whatever the number of hits.
   */
  exportCsv(filter: KeywordHitFilter): Readable {
    const select = CSV_COLUMNS.map((name) => `"${SOURCE_COLUMN[name] ?? name}" AS "${name}"`);
    // The statement is built once; each batch only moves the id cursor (a bound parameter: a string,
    // because the SQLite driver inlines numbers into the SQL text).
    const SENTINEL = '\u0000after-id';
    const [sql, parameters] = this.applyFilter(this.hits.createQueryBuilder('h'), filter)
      .select(select)
      .andWhere('"id" > :afterId', { afterId: SENTINEL })
      .orderBy('"id"', 'ASC')
      .limit(EXPORT_BATCH)
      .getQueryAndParameters();
    const cursorAt = parameters.indexOf(SENTINEL);
    if (cursorAt < 0) throw new Error('the export cursor parameter is missing from the statement');
    const fetchBatch = this.batchReader(sql);
    const batches = async function* (): AsyncGenerator<string> {
      yield UTF8_BOM + csvRecord(CSV_COLUMNS);
      let afterId = 0;
      for (;;) {
        const batchParameters = [...parameters];
        batchParameters[cursorAt] = String(afterId);
        const { pieces, rows, lastId } = await fetchBatch(batchParameters);
        for (const piece of pieces) yield piece;
        if (rows < EXPORT_BATCH) return;
        afterId = lastId;
      }
    };
    return Readable.from(batches(), { objectMode: false });
  }

  /** Reads one export batch and turns it into CSV pieces of at most ~16 K characters. */
  private batchReader(sql: string): (parameters: unknown[]) => Promise<{ pieces: string[]; rows: number; lastId: number }> {
    const format = (row: RawHit): string =>
      csvRecord(CSV_COLUMNS.map((name) => (name === 'hit_at' ? isoOf(row[name]) : (row[name] as string | number | null))));
    return async (parameters) => {
      const result = (await this.dataSource.query(sql, parameters)) as RawHit[];
      const pieces: string[] = [];
      let piece = '';
      for (const row of result) {
        piece += format(row);
        if (piece.length >= CHUNK_CHARS) {
          pieces.push(piece);
          piece = '';
        }
      }
      if (piece) pieces.push(piece);
      return { pieces, rows: result.length, lastId: result.length ? Number(result[result.length - 1]['id']) : 0 };
    };
  }

  /** Deletes the hits matching the filter (all of them without one) and answers how many. */
  async delete(filter: KeywordHitFilter): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const count = await this.applyFilter(manager.getRepository(KeywordHit).createQueryBuilder('h'), filter).getCount();
      if (count === 0) return 0;
      const query = manager.createQueryBuilder().delete().from(KeywordHit);
      this.applyConditions(query, filter);
      await query.execute();
      return count;
    });
  }

  private applyFilter(query: SelectQueryBuilder<KeywordHit>, filter: KeywordHitFilter, ftsMatch?: string): SelectQueryBuilder<KeywordHit> {
    query.where('1 = 1');
    this.applyConditions(query, filter, ftsMatch);
    return query;
  }

  /** Column names are written bare (no alias) so the same conditions serve SELECT and DELETE. */
  private applyConditions(query: WhereExpressionBuilder, filter: KeywordHitFilter, ftsMatch?: string): void {
    if (filter.account !== undefined) query.andWhere('"account_name" = :account', { account: filter.account });
    if (filter.task !== undefined) query.andWhere('"task_name" = :task', { task: filter.task });
    if (filter.chat !== undefined) query.andWhere('"chat_id" = :chat', { chat: filter.chat });
    if (filter.since !== undefined) query.andWhere('"hit_at" >= :since', { since: filter.since });
    if (filter.until !== undefined) query.andWhere('"hit_at" < :until', { until: filter.until });
    if (filter.q !== undefined) this.applySearch(query, filter.q, ftsMatch);
  }

  /**
   * `q`: a case-insensitive substring of the message, matched keyword, sender name or username, or
   * chat title. With three characters or more the database's trigram index narrows the hits first:
   * PostgreSQL `pg_trgm` over the five columns joined; SQLite FTS5 `trigram`, asked for `ftsMatch`
   * (the query's rarest trigrams, see rareTrigrams) or else the whole phrase, plus the hits recorded
   * since the indexer's last batch (`id` above `indexed_through`). The LIKE per column then decides,
   * so the result is exactly that of a plain scan whatever the index returns. Shorter queries scan.
   */
  private applySearch(query: WhereExpressionBuilder, q: string, ftsMatch?: string): void {
    const postgres = this.isPostgres;
    const like = postgres ? 'ILIKE' : 'LIKE';
    const pattern = likePattern(q);
    if ([...q].length >= TRIGRAM_MIN_CHARS) {
      if (postgres) {
        query.andWhere(`${POSTGRES_SEARCH_DOCUMENT} ILIKE :q ESCAPE '\\'`, { q: pattern });
      } else {
        query.andWhere(
          `("id" IN (SELECT "rowid" FROM "keyword_hits_fts" WHERE "keyword_hits_fts" MATCH :ftsMatch) OR "id" > (SELECT "indexed_through" FROM "keyword_hits_fts_state"))`,
          { ftsMatch: ftsMatch ?? `"${q.replace(/"/g, '""')}"` },
        );
      }
    }
    query.andWhere(
      new Brackets((inner) => {
        for (const column of SEARCH_COLUMNS) inner.orWhere(`"${column}" ${like} :q ESCAPE '\\'`, { q: pattern });
      }),
    );
  }

  private get isPostgres(): boolean {
    return this.dataSource.options.type === 'postgres';
  }

  /**
   * SQLite: an FTS5 query for the two rarest of q's trigrams ("d7 " AND "rd7"), or undefined (short
   * q, PostgreSQL, or no trigram of q rarer than PROBE_LIMIT hits: then the whole phrase). A phrase
   * of common trigrams ("key", "eyw", ...) makes FTS5 walk doclists that hold nearly every hit; the
   * rarest two bound the candidates to the hits holding both, which the LIKE then checks. Each probe
   * counts index entries only up to the second-lowest count seen so far (at most PROBE_LIMIT).
   */
  private async rareTrigrams(q: string): Promise<string | undefined> {
    if (this.isPostgres || [...q].length < TRIGRAM_MIN_CHARS) return undefined;
    const trigrams = trigramsOf(q);
    if (trigrams.length <= 2) return trigrams.join(' AND ');
    const step = Math.max(1, trigrams.length / PROBED_TRIGRAMS);
    const probed = Array.from({ length: Math.min(PROBED_TRIGRAMS, trigrams.length) }, (_, at) => trigrams[Math.floor(at * step)]);
    const counts: Array<[string, number]> = [];
    let bound = PROBE_LIMIT;
    for (const trigram of probed) {
      const [{ n }] = (await this.dataSource.query(
        `SELECT COUNT(*) AS "n" FROM (SELECT "rowid" FROM "keyword_hits_fts" WHERE "keyword_hits_fts" MATCH ? LIMIT ${bound})`,
        [trigram],
      )) as Array<{ n: number }>;
      counts.push([trigram, Number(n)]);
      counts.sort((a, b) => a[1] - b[1]);
      if (counts.length >= 2) bound = Math.min(bound, counts[1][1] + 1);
    }
    const rare = counts.filter(([, count]) => count < PROBE_LIMIT).slice(0, 2);
    return rare.length > 0 ? rare.map(([trigram]) => trigram).join(' AND ') : undefined;
  }

  /**
   * A page of a text search. First up to TOTAL_CAP + 1 matching hits are found through the trigram
   * index (ids and times only). If that is all of them, the total is exact and the page is cut from
   * them. If there are more, the text is common: the page is looked for among the newest
   * SEARCH_WINDOW hits of the other filters (an index range, text checked per row), and only when
   * fewer than a page match there is the index asked for the page in order.
   */
  private async listSearch(filter: KeywordHitFilter & { q: string }, limit: number, position: { offset?: number; cursor?: HitCursor }): Promise<HitPage> {
    const offset = position.cursor ? 0 : (position.offset ?? 0);
    if ([...filter.q].length < TRIGRAM_MIN_CHARS) return this.listShortSearch(filter, limit, offset, position.cursor);
    const ftsMatch = await this.rareTrigrams(filter.q);
    const found = await this.applyFilter(this.hits.createQueryBuilder('h'), filter, ftsMatch)
      .select('h.id', 'id')
      .addSelect('h.hitAt', 'hit_at')
      .limit(TOTAL_CAP + 1)
      .getRawMany<{ id: number | string; hit_at: string | Date }>();
    if (found.length <= TOTAL_CAP) {
      let matches = found.map((row) => ({ id: Number(row.id), at: Date.parse(isoOf(row.hit_at)) })).sort(newestFirst);
      const cursor = position.cursor;
      if (cursor) {
        const at = cursor.hitAt.getTime();
        matches = matches.filter((match) => match.at < at || (match.at === at && match.id < cursor.id));
      }
      const page = matches.slice(offset, offset + limit + 1);
      const more = page.length > limit;
      if (more) page.pop();
      const items = await this.byIds(page.map((match) => match.id));
      return { items, total: found.length, totalCapped: false, nextCursor: more && items.length > 0 ? encodeCursor(items[items.length - 1]) : null };
    }

    const need = offset + limit + 1;
    const ids = await this.searchWindow(filter, need, position.cursor);
    let items: KeywordHit[];
    if (ids.length >= need) {
      items = await this.byIds(ids.slice(offset));
    } else {
      const query = this.applyFilter(this.hits.createQueryBuilder('h'), filter, ftsMatch);
      if (position.cursor) applyCursor(query, position.cursor);
      items = await query.orderBy('h.hitAt', 'DESC').addOrderBy('h.id', 'DESC').limit(limit + 1).offset(offset).getMany();
    }
    const more = items.length > limit;
    if (more) items.pop();
    return { items, total: TOTAL_CAP, totalCapped: true, nextCursor: more && items.length > 0 ? encodeCursor(items[items.length - 1]) : null };
  }

  /**
   * A search for one or two characters (no trigram index can serve it). The page is a newest-first
   * scan of the other filters' index with the LIKE per row, which stops at the page's end: quick for
   * common text, a longer scan for rare text. The total counts the matches among the newest
   * SHORT_QUERY_COUNT_WINDOW hits of the filters: exact when that is all of them, otherwise at least
   * that many (`totalCapped`), and never more than TOTAL_CAP.
   */
  private async listShortSearch(filter: KeywordHitFilter & { q: string }, limit: number, offset: number, cursor?: HitCursor): Promise<HitPage> {
    const window = this.applyFilter(this.hits.createQueryBuilder('h'), { ...filter, q: undefined }).select('h.id', 'id');
    for (const column of SEARCH_COLUMNS) window.addSelect(`"h"."${column}"`, column);
    const [windowSql, parameters] = window.orderBy('h.hitAt', 'DESC').addOrderBy('h.id', 'DESC').limit(SHORT_QUERY_COUNT_WINDOW).getQueryAndParameters();
    // The test stands before the window in the text: SQLite binds by position, PostgreSQL by number.
    const testValues: unknown[] = this.isPostgres ? [...parameters] : [];
    const test = this.likeTest(filter.q, testValues);
    const values = this.isPostgres ? testValues : [...testValues, ...parameters];
    const [counted] = (await this.dataSource.query(
      `SELECT COUNT(*) AS "scanned", SUM(CASE WHEN ${test} THEN 1 ELSE 0 END) AS "matched" FROM (${windowSql}) "w"`,
      values,
    )) as Array<{ scanned: number | string; matched: number | string | null }>;
    const scanned = Number(counted?.scanned ?? 0);
    const matched = Number(counted?.matched ?? 0);
    const query = this.applyFilter(this.hits.createQueryBuilder('h'), filter);
    if (cursor) applyCursor(query, cursor);
    const items = await query.orderBy('h.hitAt', 'DESC').addOrderBy('h.id', 'DESC').limit(limit + 1).offset(offset).getMany();
    const more = items.length > limit;
    if (more) items.pop();
    return {
      items,
      total: Math.min(matched, TOTAL_CAP),
      totalCapped: matched > TOTAL_CAP || scanned >= SHORT_QUERY_COUNT_WINDOW,
      nextCursor: more && items.length > 0 ? encodeCursor(items[items.length - 1]) : null,
    };
  }

  /** `"w"."column" LIKE pattern OR ...` over the searched columns of the window "w", its values appended to `values`. */
  private likeTest(q: string, values: unknown[]): string {
    const pattern = likePattern(q);
    const postgres = this.isPostgres;
    return `(${SEARCH_COLUMNS.map((column) => {
      values.push(pattern);
      return `"w"."${column}" ${postgres ? 'ILIKE' : 'LIKE'} ${postgres ? `$${values.length}` : '?'} ESCAPE '\\'`;
    }).join(' OR ')})`;
  }

  /** Ids of the first `need` hits matching q among the newest SEARCH_WINDOW hits of the other filters (after `cursor`), newest first. */
  private async searchWindow(filter: KeywordHitFilter & { q: string }, need: number, cursor?: HitCursor): Promise<number[]> {
    const window = this.applyFilter(this.hits.createQueryBuilder('h'), { ...filter, q: undefined }).select('h.id', 'id').addSelect('h.hitAt', 'hit_at');
    for (const column of SEARCH_COLUMNS) window.addSelect(`"h"."${column}"`, column);
    if (cursor) applyCursor(window, cursor);
    const [windowSql, parameters] = window.orderBy('h.hitAt', 'DESC').addOrderBy('h.id', 'DESC').limit(SEARCH_WINDOW).getQueryAndParameters();
    const values = [...parameters];
    const test = this.likeTest(filter.q, values);
    const rows = (await this.dataSource.query(
      `SELECT "w"."id" AS "id" FROM (${windowSql}) "w" WHERE ${test} ORDER BY "w"."hit_at" DESC, "w"."id" DESC LIMIT ${Number(need)}`,
      values,
    )) as Array<{ id: number | string }>;
    return rows.map((row) => Number(row.id));
  }

  /** The hits with these ids, in the order of `ids` (a hit deleted meanwhile is left out). */
  private async byIds(ids: number[]): Promise<KeywordHit[]> {
    if (ids.length === 0) return [];
    const byId = new Map((await this.hits.findBy({ id: In(ids) })).map((hit) => [hit.id, hit]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }
}
