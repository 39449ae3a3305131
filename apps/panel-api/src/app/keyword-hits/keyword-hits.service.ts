import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { Readable } from 'node:stream';
import { Brackets, DataSource, EntityManager, In, QueryFailedError, Repository, SelectQueryBuilder, WhereExpressionBuilder } from 'typeorm';
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

/**
 * A text search (`q`) counts exactly up to this many matches; above it the API says "at least
 * SEARCH_TOTAL_CAP" (the web app shows "1,000+"). Lower than TOTAL_CAP because every counted match
 * is a row read and checked with LIKE (10,001 of them cost ~35 ms of CPU on SQLite at 1,000,000
 * hits), where a count without `q` only walks index entries.
 */
export const SEARCH_TOTAL_CAP = 1_000;

/** The trigram indexes (SQLite FTS5, PostgreSQL pg_trgm) need a query of at least this many characters. */
const TRIGRAM_MIN_CHARS = 3;
/** SQLite search: how many of the query's trigrams are looked up to find its two rarest, and how far each count goes. */
const PROBED_TRIGRAMS = 8;
const PROBE_LIMIT = 30_000;
/** SQLite search with an account, task or chat filter: its index is walked when it holds fewer than this many times the candidates (see ftsPlan). */
const FILTER_INDEX_FACTOR = 4;
/** A search matching more than SEARCH_TOTAL_CAP hits is common text: its page is looked for in this many newest hits of the filter first. */
const SEARCH_WINDOW = 5_000;
/**
 * A query of one or two characters has no trigram to look up: its total is counted over the newest
 * SHORT_QUERY_COUNT_WINDOW hits of the other filters only. When they hold more hits than that, the
 * total is a lower bound (`totalCapped`), like the 10,000 cap.
 */
const SHORT_QUERY_COUNT_WINDOW = 20_000;

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
  /** Exact when `totalCapped` is false; otherwise at least this many (TOTAL_CAP, or for `q` SEARCH_TOTAL_CAP). */
  total: number;
  totalCapped: boolean;
  nextCursor: string | null;
}

/** A group before its latest hit is read: key, count, and the latest hit's time (ms) and id. */
interface GroupRow {
  key: string;
  count: number;
  at: number;
  id: number;
}

/**
 * A group as the database hands it back, its latest hit as two columns (one account's counters), as
 * "time#id" text (SQLite) or as [epoch ms, id] (PostgreSQL).
 */
interface RawGroupRow {
  group_key: string;
  hit_count: number | string;
  latest_at?: string | Date;
  latest_id?: number | string;
  latest?: string;
  latest_pair?: Array<number | string>;
}

function toGroupRows(rows: RawGroupRow[]): GroupRow[] {
  return rows.map((row) => {
    const group = { key: String(row.group_key), count: Number(row.hit_count) };
    if (row.latest_pair) return { ...group, at: Math.round(Number(row.latest_pair[0])), id: Number(row.latest_pair[1]) };
    if (row.latest !== undefined) {
      const split = row.latest.lastIndexOf('#');
      return { ...group, at: Date.parse(isoOf(row.latest.slice(0, split))), id: Number(row.latest.slice(split + 1)) };
    }
    return { ...group, at: Date.parse(isoOf(row.latest_at ?? null)), id: Number(row.latest_id) };
  });
}

export interface GroupPage {
  groups: Array<{ key: string; count: number; latest: KeywordHit }>;
  /** How many groups there are (every page). */
  total: number;
  nextCursor: string | null;
}

/** SQLite: how a search asks the FTS5 index (see KeywordHitsService.ftsPlan). */
interface FtsPlan {
  match?: string;
  filterIndex: boolean;
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

/**
 * PostgreSQL: the part of q the trigram index is asked for. pg_trgm ANDs every trigram of the
 * pattern, and the trigrams of plain words ("key", "eyw", "wor" in `keyword7 `) sit in nearly every
 * hit: reading their posting lists cost ~160 ms at 1,000,000 hits. The four characters whose two
 * trigrams both hold a digit or a non-ASCII letter or digit (`rd7 `) narrow the hits as well for a
 * fraction of that. Any substring of q is a necessary condition, and the ILIKE per column decides,
 * so the choice changes the cost only, never the result. Without such a piece (plain words,
 * punctuation, which pg_trgm does not index) the whole q.
 */
export function postgresIndexedPart(q: string): string {
  const chars = [...q];
  const rare = (c: string) => /\d/.test(c) || (/[\p{L}\p{N}]/u.test(c) && !/[a-z]/i.test(c));
  const indexable = (c: string) => /[\p{L}\p{N}\s]/u.test(c);
  for (let at = 0; at + 4 <= chars.length; at++) {
    const piece = chars.slice(at, at + 4);
    if (piece.every(indexable) && piece.slice(0, 3).some(rare) && piece.slice(1, 4).some(rare)) return piece.join('');
  }
  return q;
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
   * already recorded: a replayed message then neither records nor pushes again. `fence` runs in the
   * insert's transaction and throws to refuse it (a listener checks its account lease there).
   */
  async record(input: NewKeywordHit, options: { fence?: (manager: EntityManager) => Promise<void> } = {}): Promise<KeywordHit | undefined> {
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
      if (!options.fence) return await this.hits.save(this.hits.create(row));
      const fence = options.fence;
      // Fenced (replicas on PostgreSQL): the check runs in the insert's transaction.
      return await this.dataSource.transaction(async (manager) => {
        await fence(manager);
        return manager.save(KeywordHit, manager.create(KeywordHit, row));
      });
    } catch (error) {
      if (isUniqueViolation(error)) return undefined;
      throw error;
    }
  }

  /**
   * Stores how the hit's push went. `fence` runs in the same transaction first (replicas: the
   * account's lease check), so a replica that lost the account stores nothing.
   */
  async setPushOutcome(id: number, status: HitPushStatus, error?: string, options: { fence?: (manager: EntityManager) => Promise<void> } = {}): Promise<void> {
    const change = { pushStatus: status, pushError: cut(error ?? null, LIMITS.error) };
    if (!options.fence) {
      await this.hits.update({ id }, change);
      return;
    }
    const fence = options.fence;
    await this.hits.manager.transaction(async (manager) => {
      await fence(manager);
      await manager.update(KeywordHit, { id }, change);
    });
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
   * One page of the groups by task, account or chat: count and latest hit of each, the group with
   * the latest hit first (by that hit's (hit_at, id), so `cursor` is the last group's latest hit),
   * and how many groups there are. Without a filter, or filtered by account alone, counts and latest
   * hits come from the counter tables (`keyword_hit_groups`, and on PostgreSQL `keyword_hit_groups_all`
   * over all accounts; kept by triggers in the transaction of every insert and delete); any other
   * filter aggregates the matching hits. Either way no hit is read but the page's.
   */
  async groups(groupBy: HitGroupKey, filter: KeywordHitFilter, limit: number, cursor?: HitCursor): Promise<GroupPage> {
    const onlyAccount = Object.entries(filter).every(([name, value]) => value === undefined || name === 'account');
    const rows = onlyAccount ? await this.countedGroups(groupBy, filter.account) : await this.aggregatedGroups(groupBy, filter);
    rows.sort((a, b) => b.at - a.at || b.id - a.id);
    const after = cursor ? rows.filter((row) => row.at < cursor.hitAt.getTime() || (row.at === cursor.hitAt.getTime() && row.id < cursor.id)) : rows;
    const page = after.slice(0, limit);
    const hits = new Map((await this.byIds(page.map((row) => row.id))).map((hit) => [hit.id, hit]));
    const groups = page.flatMap((row) => {
      const latest = hits.get(row.id);
      return latest ? [{ key: row.key, count: row.count, latest }] : [];
    });
    const last = page[page.length - 1];
    return { groups, total: rows.length, nextCursor: after.length > limit && last ? encodeCursor({ hitAt: new Date(last.at), id: last.id }) : null };
  }

  /**
   * Groups from the counters: per account, or over all accounts (PostgreSQL: one row per key; SQLite:
   * summed over the accounts with the latest of their latest hits).
   */
  private async countedGroups(groupBy: HitGroupKey, account: string | undefined): Promise<GroupRow[]> {
    const postgres = this.isPostgres;
    let sql: string;
    if (account !== undefined) {
      sql = `SELECT "group_key", "hit_count", "latest_at", "latest_id" FROM "keyword_hit_groups"
        WHERE "group_by" = ${postgres ? '$1' : '?'} AND "account_name" = ${postgres ? '$2' : '?'} AND "hit_count" > 0`;
    } else if (postgres) {
      // One counter row per key over all accounts: task and chat in keyword_hit_groups_all, and by
      // account the per-account rows are already one per key. Read by primary key, no aggregate.
      const table = groupBy === 'account' ? 'keyword_hit_groups' : 'keyword_hit_groups_all';
      sql = `SELECT "group_key", "hit_count", "latest_at", "latest_id" FROM "${table}" WHERE "group_by" = $1 AND "hit_count" > 0`;
    } else {
      // SQLite: from the covering (group_by, group_key, hit_count, latest_at, latest_id) index in key
      // order, no sort; the latest of a key's accounts is the greatest "time#id" (times have one
      // width, ids are padded), 14 against 115 ms of CPU for the window form with 40,000 rows.
      sql = `SELECT "group_key", SUM("hit_count") AS "hit_count", MAX("latest_at" || '#' || printf('%015d', "latest_id")) AS "latest"
        FROM "keyword_hit_groups" WHERE "group_by" = ? AND "hit_count" > 0 GROUP BY "group_key"`;
    }
    return toGroupRows((await this.dataSource.query(sql, account !== undefined ? [groupBy, account] : [groupBy])) as RawGroupRow[]);
  }

  /**
   * Groups of the hits matching the filter: count and latest hit per group in one aggregate (SQLite:
   * the greatest "time#id", times having one width and ids padded; PostgreSQL: the greatest
   * [epoch ms, id]), so the page needs no seek per group.
   */
  private async aggregatedGroups(groupBy: HitGroupKey, filter: KeywordHitFilter): Promise<GroupRow[]> {
    const column = GROUP_COLUMNS[groupBy];
    const query = this.applyFilter(this.hits.createQueryBuilder('h'), filter).select(`"${column}"`, 'group_key').addSelect('COUNT(*)', 'hit_count');
    if (this.isPostgres) query.addSelect('MAX(ARRAY[EXTRACT(EPOCH FROM "hit_at") * 1000, "id"])', 'latest_pair');
    else query.addSelect(`MAX("hit_at" || '#' || printf('%015d', "id"))`, 'latest');
    return toGroupRows(await query.groupBy(`"${column}"`).getRawMany<RawGroupRow>());
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

  private applyFilter(query: SelectQueryBuilder<KeywordHit>, filter: KeywordHitFilter, fts?: FtsPlan): SelectQueryBuilder<KeywordHit> {
    query.where('1 = 1');
    this.applyConditions(query, filter, fts);
    return query;
  }

  /** Column names are written bare (no alias) so the same conditions serve SELECT and DELETE. */
  private applyConditions(query: WhereExpressionBuilder, filter: KeywordHitFilter, fts?: FtsPlan): void {
    // SQLite with the FTS5 index: the unary `+` keeps the planner on the index's rowids unless the
    // plan says the filter's own index is the shorter walk (see ftsPlan). Offered the account's index,
    // the planner walks that account's hits (half a million for account0) testing each id against
    // the FTS list: 145 against 45 ms of CPU for a Chinese phrase in account0, at 1,000,000 hits.
    const plain = !this.isPostgres && filter.q !== undefined && [...filter.q].length >= TRIGRAM_MIN_CHARS && !fts?.filterIndex ? '+' : '';
    if (filter.account !== undefined) query.andWhere(`${plain}"account_name" = :account`, { account: filter.account });
    if (filter.task !== undefined) query.andWhere(`${plain}"task_name" = :task`, { task: filter.task });
    if (filter.chat !== undefined) query.andWhere(`${plain}"chat_id" = :chat`, { chat: filter.chat });
    if (filter.since !== undefined) query.andWhere(`${plain}"hit_at" >= :since`, { since: filter.since });
    if (filter.until !== undefined) query.andWhere(`${plain}"hit_at" < :until`, { until: filter.until });
    // The FTS5 hits are narrowed to the account by seeks in its (account_name, rowid) index before
    // any row is read: a phrase held by 20,000 hits of other accounts, searched in account0, read
    // 20,000 rows for nothing (50 ms of CPU); the seeks cost 15 ms.
    const account = fts !== undefined && !fts.filterIndex ? filter.account : undefined;
    if (filter.q !== undefined) this.applySearch(query, filter.q, fts?.match, account, fts?.filterIndex ?? false);
  }

  /**
   * `q`: a case-insensitive substring of the message, matched keyword, sender name or username, or
   * chat title. With three characters or more the database's trigram index narrows the hits first:
   * PostgreSQL `pg_trgm` over the five columns joined; SQLite FTS5 `trigram`, asked for `ftsMatch`
   * (the query's rarest trigrams, see ftsPlan) or else the whole phrase, plus the hits recorded
   * since the indexer's last batch (`id` above `indexed_through`). With `account` (SQLite), the
   * indexed hits are kept to that account's through `IDX_keyword_hits_account_id` (named, so the
   * planner cannot walk the account's half a million entries instead). With `walkFilter` the
   * filter's own index is the walk (see ftsPlan): the test of the mark is then written `+"id"`,
   * which no index serves, so the planner cannot turn the OR into two index lookups, one of them
   * reading every FTS5 hit's row by id (45 against 14 ms of CPU for `keyword49 ` in account1, 26,000
   * hits, once the (account_name, rowid) index exists). The LIKE per column then decides, so the
   * result is exactly that of a plain scan whatever the index returns. Shorter queries scan.
   */
  private applySearch(query: WhereExpressionBuilder, q: string, ftsMatch?: string, account?: string, walkFilter = false): void {
    if ([...q].length >= TRIGRAM_MIN_CHARS) {
      if (this.isPostgres) {
        query.andWhere(`${POSTGRES_SEARCH_DOCUMENT} ILIKE :indexed ESCAPE '\\'`, { indexed: likePattern(postgresIndexedPart(q)) });
      } else {
        const indexed = `SELECT "rowid" FROM "keyword_hits_fts" WHERE "keyword_hits_fts" MATCH :ftsMatch`;
        const candidates =
          account === undefined
            ? indexed
            : `SELECT "id" FROM "keyword_hits" INDEXED BY "IDX_keyword_hits_account_id" WHERE "account_name" = :ftsAccount AND "id" IN (${indexed})`;
        query.andWhere(`("id" IN (${candidates}) OR ${walkFilter ? '+' : ''}"id" > (SELECT "indexed_through" FROM "keyword_hits_fts_state"))`, {
          ftsMatch: ftsMatch ?? `"${q.replace(/"/g, '""')}"`,
          ...(account === undefined ? {} : { ftsAccount: account }),
        });
      }
    }
    this.applyLike(query, q);
  }

  /** The exact test of `q`: LIKE (SQLite) or ILIKE (PostgreSQL) on each searched column. */
  private applyLike(query: WhereExpressionBuilder, q: string): void {
    const like = this.isPostgres ? 'ILIKE' : 'LIKE';
    query.andWhere(
      new Brackets((inner) => {
        for (const column of SEARCH_COLUMNS) inner.orWhere(`"${column}" ${like} :q ESCAPE '\\'`, { q: likePattern(q) });
      }),
    );
  }

  private get isPostgres(): boolean {
    return this.dataSource.options.type === 'postgres';
  }

  /**
   * SQLite: how a search asks FTS5 (undefined on PostgreSQL and for short q). `match` is an FTS5
   * query for the two rarest of q's trigrams ("d7 " AND "rd7"), or undefined when no trigram of q is
   * rarer than PROBE_LIMIT hits (then the whole phrase). A phrase of common trigrams ("key", "eyw",
   * ...) makes FTS5 walk doclists that hold nearly every hit; the rarest two bound the candidates to
   * the hits holding both, which the LIKE then checks. Each probe counts index entries only up to the
   * second-lowest count seen so far (at most PROBE_LIMIT). `filterIndex`: the account, task or chat
   * filter holds fewer than FILTER_INDEX_FACTOR times as many hits as the rarest trigram (from the
   * group counters), so walking its index and testing each id against the FTS list is cheaper than
   * reading every candidate row: 15 against 39 ms of CPU for `keyword49 ` in account1 (26,000 hits,
   * 20,000 candidates).
   */
  private async ftsPlan(filter: KeywordHitFilter & { q: string }): Promise<FtsPlan | undefined> {
    if (this.isPostgres || [...filter.q].length < TRIGRAM_MIN_CHARS) return undefined;
    const trigrams = trigramsOf(filter.q);
    let match: string | undefined = trigrams.join(' AND ');
    let candidates = PROBE_LIMIT;
    if (trigrams.length > 2) {
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
      match = rare.length > 0 ? rare.map(([trigram]) => trigram).join(' AND ') : undefined;
      candidates = counts[0][1];
    }
    const size = await this.filterSize(filter);
    return { match, filterIndex: size !== undefined && size < FILTER_INDEX_FACTOR * candidates };
  }

  /** SQLite: the fewest hits any of the account, task and chat filters holds, from the group counters; undefined without them. */
  private async filterSize(filter: KeywordHitFilter): Promise<number | undefined> {
    const asked = (['account', 'task', 'chat'] as const).filter((name) => filter[name] !== undefined);
    if (asked.length === 0) return undefined;
    const rows = (await this.dataSource.query(
      `SELECT "group_by", SUM("hit_count") AS "n" FROM "keyword_hit_groups" WHERE ${asked.map(() => '("group_by" = ? AND "group_key" = ?)').join(' OR ')} GROUP BY "group_by"`,
      asked.flatMap((name) => [name, filter[name]]),
    )) as Array<{ group_by: string; n: number }>;
    // A filter value without hits has no counter row: nothing to walk.
    return Math.min(...asked.map((name) => Number(rows.find((row) => row.group_by === name)?.n ?? 0)));
  }

  /**
   * A page of a text search. First up to SEARCH_TOTAL_CAP + 1 matching hits are found through the
   * trigram index (ids and times only). If that is all of them, the total is exact and the page is
   * cut from them. If there are more, the text is common: the page is looked for among the newest
   * SEARCH_WINDOW hits of the other filters (an index range read newest first, text checked per row,
   * stopping at the page's end), and only when fewer than a page match there is the index asked for
   * the page in order.
   */
  private async listSearch(filter: KeywordHitFilter & { q: string }, limit: number, position: { offset?: number; cursor?: HitCursor }): Promise<HitPage> {
    const offset = position.cursor ? 0 : (position.offset ?? 0);
    if ([...filter.q].length < TRIGRAM_MIN_CHARS) return this.listShortSearch(filter, limit, offset, position.cursor);
    const fts = await this.ftsPlan(filter);
    const found = await this.applyFilter(this.hits.createQueryBuilder('h'), filter, fts)
      .select('h.id', 'id')
      .addSelect('h.hitAt', 'hit_at')
      .limit(SEARCH_TOTAL_CAP + 1)
      .getRawMany<{ id: number | string; hit_at: string | Date }>();
    if (found.length <= SEARCH_TOTAL_CAP) {
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
      const query = this.applyFilter(this.hits.createQueryBuilder('h'), filter, fts);
      if (position.cursor) applyCursor(query, position.cursor);
      items = await query.orderBy('h.hitAt', 'DESC').addOrderBy('h.id', 'DESC').limit(limit + 1).offset(offset).getMany();
    }
    const more = items.length > limit;
    if (more) items.pop();
    return { items, total: SEARCH_TOTAL_CAP, totalCapped: true, nextCursor: more && items.length > 0 ? encodeCursor(items[items.length - 1]) : null };
  }

  /**
   * A search for one or two characters (no trigram index can serve it). The page is a newest-first
   * scan of the other filters' index with the LIKE per row, which stops at the page's end: quick for
   * common text, a longer scan for rare text. The total counts the matches among the newest
   * SHORT_QUERY_COUNT_WINDOW hits of the filters: exact when that is all of them, otherwise at least
   * that many (`totalCapped`), and never more than SEARCH_TOTAL_CAP.
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
      total: Math.min(matched, SEARCH_TOTAL_CAP),
      totalCapped: matched > SEARCH_TOTAL_CAP || scanned >= SHORT_QUERY_COUNT_WINDOW,
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

  /**
   * Ids of the first `need` hits matching q among the newest SEARCH_WINDOW hits of the other filters
   * (after `cursor`), newest first. The window's oldest time is read from the index alone (no row);
   * then the rows are read newest first and the scan stops at the `need`-th match, so common text
   * costs a few rows per match whatever the window.
   */
  private async searchWindow(filter: KeywordHitFilter & { q: string }, need: number, cursor?: HitCursor): Promise<number[]> {
    const others = { ...filter, q: undefined };
    const edge = this.applyFilter(this.hits.createQueryBuilder('h'), others).select('h.hitAt', 'hit_at');
    if (cursor) applyCursor(edge, cursor);
    const oldest = await edge.orderBy('h.hitAt', 'DESC').addOrderBy('h.id', 'DESC').offset(SEARCH_WINDOW - 1).limit(1).getRawOne<{ hit_at: string | Date }>();
    const query = this.applyFilter(this.hits.createQueryBuilder('h'), others).select('h.id', 'id');
    if (cursor) applyCursor(query, cursor);
    // Older than the window's edge is outside it; with fewer hits than the window there is no edge.
    // On SQLite the unary `+` leaves the order to the other filters' index (walked newest first until
    // the page is full) instead of reading every hit of all accounts in the window's time range.
    if (oldest) query.andWhere(`${this.isPostgres ? '' : '+'}"hit_at" >= :windowStart`, { windowStart: oldest.hit_at });
    this.applyLike(query, filter.q);
    const rows = await query.orderBy('h.hitAt', 'DESC').addOrderBy('h.id', 'DESC').limit(need).getRawMany<{ id: number | string }>();
    return rows.map((row) => Number(row.id));
  }

  /** The hits with these ids, in the order of `ids` (a hit deleted meanwhile is left out). */
  private async byIds(ids: number[]): Promise<KeywordHit[]> {
    if (ids.length === 0) return [];
    const byId = new Map((await this.hits.findBy({ id: In(ids) })).map((hit) => [hit.id, hit]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }
}
