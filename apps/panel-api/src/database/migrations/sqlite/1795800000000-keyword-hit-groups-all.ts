import { MigrationInterface } from 'typeorm';

/**
 * Issue 23, PostgreSQL only: there the groups by task or chat over all accounts get one counter row
 * per key (see the PostgreSQL migration of the same name), because the per-account rows they summed
 * were read with a sequential scan of a table that large batches bloat. SQLite sums the per-account
 * rows from its covering index in key order (`IDX_keyword_hit_groups_key`) and its b-tree keeps no
 * dead row versions, so nothing changes here; the migration exists so both drivers list the same
 * migrations in the same order.
 */
export class KeywordHitGroupsAll1795800000000 implements MigrationInterface {
  name = 'KeywordHitGroupsAll1795800000000';

  async up(): Promise<void> {
    // Nothing to change on SQLite.
  }

  async down(): Promise<void> {
    // Nothing to undo on SQLite.
  }
}
