import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 30 item 4: a text search within one large account. The index holds (account_name, rowid),
 * so each hit the FTS5 index returns is checked against the account with one seek in a narrow index
 * instead of reading its row: a Chinese phrase held by 20,000 hits of other accounts, searched in an
 * account of 500,000, costs 20,000 seeks (about 15 ms of CPU) instead of 20,000 rows (about 50 ms).
 * `IDX_keyword_hits_account` (account_name, hit_at) cannot serve it: the hit's time is in its row.
 */
export class KeywordHitsAccountId1795930000000 implements MigrationInterface {
  name = 'KeywordHitsAccountId1795930000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "IDX_keyword_hits_account_id" ON "keyword_hits" ("account_name")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_keyword_hits_account_id"`);
  }
}
