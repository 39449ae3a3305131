import { MigrationInterface } from 'typeorm';

/**
 * Issue 23, PostgreSQL only: there the trigram index now also holds the account, task and chat (see
 * the PostgreSQL migration of the same name). SQLite picks per search between the FTS5 rowids and
 * the filter's own index (KeywordHitsService.ftsPlan), so nothing changes here; the migration exists
 * so both drivers list the same migrations in the same order.
 */
export class KeywordHitsSearchFiltered1795700000000 implements MigrationInterface {
  name = 'KeywordHitsSearchFiltered1795700000000';

  async up(): Promise<void> {
    // Nothing to change on SQLite.
  }

  async down(): Promise<void> {
    // Nothing to undo on SQLite.
  }
}
