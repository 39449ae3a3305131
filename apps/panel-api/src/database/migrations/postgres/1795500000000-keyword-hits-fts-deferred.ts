import { MigrationInterface } from 'typeorm';

/**
 * Issue 23, SQLite only: there the FTS5 index is now fed in batches after the hits are recorded
 * (see the SQLite migration of the same name). PostgreSQL's pg_trgm index is part of the table and
 * is kept by the insert itself (GIN's pending list batches its work), so nothing changes here; the
 * migration exists so both drivers list the same migrations in the same order.
 */
export class KeywordHitsFtsDeferred1795500000000 implements MigrationInterface {
  name = 'KeywordHitsFtsDeferred1795500000000';

  async up(): Promise<void> {
    // Nothing to change on PostgreSQL.
  }

  async down(): Promise<void> {
    // Nothing to undo on PostgreSQL.
  }
}
