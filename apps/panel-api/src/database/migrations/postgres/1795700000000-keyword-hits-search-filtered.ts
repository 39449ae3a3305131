import { Logger } from '@nestjs/common';
import { MigrationInterface, QueryRunner } from 'typeorm';
import { POSTGRES_SEARCH_DOCUMENT } from './1795400000000-keyword-hits-search';
import { ensureExtension } from './extension';

/** The search index's columns before the text: a search filtered by any of them is one index scan. */
const POSTGRES_SEARCH_FILTER_COLUMNS = ['account_name', 'task_name', 'chat_id'];

/**
 * Issue 23: the trigram index also holds the account, task and chat (`btree_gin`), so a search
 * filtered by them reads only the rows that match both. With the text alone, `keyword49 ` in
 * account1 read the 20,160 hits holding the text (19,000 heap blocks, 134-159 ms of CPU at 1,000,000
 * hits) to keep the 1,058 of account1: PostgreSQL would not AND the account's b-tree into the
 * bitmap. A GIN index serves any subset of its columns, so the index replaces the text-only one
 * (same name) and a search without a filter costs what it did; an insert adds three entries to the
 * hundreds of trigrams it already adds.
 *
 * btree_gin ships with PostgreSQL's contrib like pg_trgm and is trusted (the database owner may
 * create it). Without it, or without the text-only index (no pg_trgm), nothing changes: search stays
 * correct, and filtered searches of common text are slower (docs/postgres.md).
 */
export class KeywordHitsSearchFiltered1795700000000 implements MigrationInterface {
  name = 'KeywordHitsSearchFiltered1795700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if ((await this.searchIndexColumns(queryRunner)) !== 1) return;
    const state = await ensureExtension(queryRunner, 'btree_gin');
    if (state !== 'ready') {
      new Logger('Migrations').warn(
        `btree_gin ${state === 'missing' ? 'is not installed on this PostgreSQL server (the contrib package)' : 'is available but this database user may not create it'}: ` +
          'keyword-hit search filtered by account, task or chat reads every hit holding the text. See docs/postgres.md.',
      );
      return;
    }
    const columns = POSTGRES_SEARCH_FILTER_COLUMNS.map((column) => `"${column}"`).join(', ');
    await queryRunner.query(`CREATE INDEX "IDX_keyword_hits_search_filtered" ON "keyword_hits" USING gin (${columns}, ${POSTGRES_SEARCH_DOCUMENT} gin_trgm_ops)`);
    await queryRunner.query(`DROP INDEX "IDX_keyword_hits_search"`);
    await queryRunner.query(`ALTER INDEX "IDX_keyword_hits_search_filtered" RENAME TO "IDX_keyword_hits_search"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if ((await this.searchIndexColumns(queryRunner)) !== POSTGRES_SEARCH_FILTER_COLUMNS.length + 1) return;
    await queryRunner.query(`CREATE INDEX "IDX_keyword_hits_search_text" ON "keyword_hits" USING gin (${POSTGRES_SEARCH_DOCUMENT} gin_trgm_ops)`);
    await queryRunner.query(`DROP INDEX "IDX_keyword_hits_search"`);
    await queryRunner.query(`ALTER INDEX "IDX_keyword_hits_search_text" RENAME TO "IDX_keyword_hits_search"`);
  }

  /** How many columns the search index has; 0 when there is none (pg_trgm was missing). */
  private async searchIndexColumns(queryRunner: QueryRunner): Promise<number> {
    const [row] = (await queryRunner.query(
      `SELECT i.indnatts AS n FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
       WHERE c.relname = 'IDX_keyword_hits_search' AND c.relnamespace = current_schema()::regnamespace`,
    )) as Array<{ n: number }>;
    return row ? Number(row.n) : 0;
  }
}
