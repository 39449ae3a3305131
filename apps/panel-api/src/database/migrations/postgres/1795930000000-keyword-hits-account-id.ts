import { MigrationInterface } from 'typeorm';

/**
 * Issue 30 item 4, SQLite only: there a search within one account checks each FTS5 hit against the
 * account through a new (account_name, rowid) index (see the SQLite migration of the same name). On
 * PostgreSQL the account is already part of the trigram index (`IDX_keyword_hits_search`, migration
 * 1795700000000), so only hits holding both are read; the migration exists so both drivers list the
 * same migrations in the same order.
 */
export class KeywordHitsAccountId1795930000000 implements MigrationInterface {
  name = 'KeywordHitsAccountId1795930000000';

  async up(): Promise<void> {
    // Nothing to change on PostgreSQL.
  }

  async down(): Promise<void> {
    // Nothing to undo on PostgreSQL.
  }
}
