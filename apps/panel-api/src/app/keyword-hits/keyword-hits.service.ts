import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { Readable } from 'node:stream';
import { Brackets, DataSource, In, QueryFailedError, Repository, SelectQueryBuilder, WhereExpressionBuilder } from 'typeorm';
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

  async list(filter: KeywordHitFilter, limit: number, offset: number): Promise<{ items: KeywordHit[]; total: number }> {
    const query = this.applyFilter(this.hits.createQueryBuilder('h'), filter);
    const total = await query.clone().getCount();
    const items = await query.orderBy('h.id', 'DESC').limit(limit).offset(offset).getMany();
    return { items, total };
  }

  /** Count and latest hit per task, account or chat, the group with the latest hit first. */
  async groups(groupBy: HitGroupKey, filter: KeywordHitFilter): Promise<Array<{ key: string; count: number; latest: KeywordHit }>> {
    const column = GROUP_COLUMNS[groupBy];
    const rows = await this.applyFilter(this.hits.createQueryBuilder('h'), filter)
      .select(`"${column}"`, 'group_key')
      .addSelect('COUNT(*)', 'hit_count')
      .addSelect('MAX("id")', 'latest_id')
      .groupBy(`"${column}"`)
      .orderBy('latest_id', 'DESC')
      .getRawMany<{ group_key: string; hit_count: number | string; latest_id: number | string }>();
    const latest = new Map<number, KeywordHit>();
    const ids = rows.map((row) => Number(row.latest_id));
    for (let at = 0; at < ids.length; at += 500) {
      for (const hit of await this.hits.findBy({ id: In(ids.slice(at, at + 500)) })) latest.set(hit.id, hit);
    }
    return rows.flatMap((row) => {
      const hit = latest.get(Number(row.latest_id));
      return hit ? [{ key: String(row.group_key), count: Number(row.hit_count), latest: hit }] : [];
    });
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

  private applyFilter(query: SelectQueryBuilder<KeywordHit>, filter: KeywordHitFilter): SelectQueryBuilder<KeywordHit> {
    query.where('1 = 1');
    this.applyConditions(query, filter);
    return query;
  }

  /** Column names are written bare (no alias) so the same conditions serve SELECT and DELETE. */
  private applyConditions(query: WhereExpressionBuilder, filter: KeywordHitFilter): void {
    if (filter.account !== undefined) query.andWhere('"account_name" = :account', { account: filter.account });
    if (filter.task !== undefined) query.andWhere('"task_name" = :task', { task: filter.task });
    if (filter.chat !== undefined) query.andWhere('"chat_id" = :chat', { chat: filter.chat });
    if (filter.since !== undefined) query.andWhere('"hit_at" >= :since', { since: filter.since });
    if (filter.until !== undefined) query.andWhere('"hit_at" < :until', { until: filter.until });
    if (filter.q !== undefined) {
      const like = this.dataSource.options.type === 'postgres' ? 'ILIKE' : 'LIKE';
      const pattern = `%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query.andWhere(
        new Brackets((inner) => {
          for (const column of SEARCH_COLUMNS) inner.orWhere(`"${column}" ${like} :q ESCAPE '\\'`, { q: pattern });
        }),
      );
    }
  }
}
