import { MigrationInterface, QueryRunner } from 'typeorm';

const TEXT_COLUMNS = ['message_text', 'matched_keyword', 'sender_name', 'sender_username', 'chat_title'];
const GROUP_SOURCES: Array<[string, string]> = [
  ['task', 'task_name'],
  ['chat', 'chat_id'],
  ['account', 'account_name'],
];

/** Statements of a trigger body that add (+1) or remove (-1) the hit in `row` (new/old) to the group counters. */
function countGroups(row: 'new' | 'old', delta: 1 | -1): string {
  return GROUP_SOURCES.map(([groupBy, column]) =>
    delta === 1
      ? `INSERT INTO "keyword_hit_groups" ("group_by", "account_name", "group_key", "hit_count") VALUES ('${groupBy}', ${row}."account_name", ${row}."${column}", 1)
           ON CONFLICT ("group_by", "account_name", "group_key") DO UPDATE SET "hit_count" = "hit_count" + 1;`
      : `UPDATE "keyword_hit_groups" SET "hit_count" = "hit_count" - 1 WHERE "group_by" = '${groupBy}' AND "account_name" = ${row}."account_name" AND "group_key" = ${row}."${column}";
         DELETE FROM "keyword_hit_groups" WHERE "group_by" = '${groupBy}' AND "account_name" = ${row}."account_name" AND "group_key" = ${row}."${column}" AND "hit_count" <= 0;`,
  ).join('\n');
}

const columns = TEXT_COLUMNS.map((c) => `"${c}"`).join(', ');
const valuesOf = (row: 'new' | 'old') => TEXT_COLUMNS.map((c) => `${row}."${c}"`).join(', ');
const INDEXED = (row: 'new' | 'old') => `${row}."id" <= (SELECT "indexed_through" FROM "keyword_hits_fts_state")`;
/** Removes the row from the FTS index, when the indexer has already added it. */
const ftsDelete = (row: 'old') =>
  `INSERT INTO "keyword_hits_fts" ("keyword_hits_fts", "rowid", ${columns}) SELECT 'delete', ${row}."id", ${valuesOf(row)} WHERE ${INDEXED(row)};`;
const ftsInsert = (row: 'new') => `INSERT INTO "keyword_hits_fts" ("rowid", ${columns}) SELECT ${row}."id", ${valuesOf(row)} WHERE ${INDEXED(row)};`;

/**
 * Issue 23: recording a hit no longer updates the FTS5 trigram index in its own transaction. FTS5
 * writes a new index segment per transaction and merges segments as they pile up: with one hit per
 * transaction (a listener records each hit before its push) that cost SQLite ten times the insert
 * rate. The index is now fed in batches by the service (`KeywordHitsFtsIndexer`, which moves the
 * mark; a trigger on the mark indexes the hits it passes, in that one statement): every hit up to
 * `keyword_hits_fts_state.indexed_through` is in the index, every hit above it is not yet, and a
 * search checks those few newest hits with a plain LIKE, so results stay exactly those of a scan.
 * Ids only grow (AUTOINCREMENT), so a hit above the mark is never one the index already holds.
 *
 * Deletes and text updates of an indexed hit still update the index in the same transaction (the
 * index must never hold a row that is gone); the counters stay as they were (same transaction).
 *
 * Also: groups over all accounts sum the counters per key (20 accounts x 2,000 chats = 40,000 rows);
 * the (group_by, group_key, hit_count) index hands them over in key order, so the sum needs no sort.
 */
export class KeywordHitsFtsDeferred1795500000000 implements MigrationInterface {
  name = 'KeywordHitsFtsDeferred1795500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "keyword_hits_fts_state" ("id" integer PRIMARY KEY CHECK ("id" = 1), "indexed_through" integer NOT NULL)`);
    // Until now the triggers indexed every hit: all of them are in the index already.
    await queryRunner.query(`INSERT INTO "keyword_hits_fts_state" ("id", "indexed_through") SELECT 1, COALESCE(MAX("id"), 0) FROM "keyword_hits"`);
    // Moving the mark indexes the hits it passes, in the same statement: one write, atomic, and
    // nothing another statement on the same connection does can fall between the two.
    await queryRunner.query(`CREATE TRIGGER "keyword_hits_fts_state_advance" AFTER UPDATE OF "indexed_through" ON "keyword_hits_fts_state"
      WHEN new."indexed_through" > old."indexed_through" BEGIN
      INSERT INTO "keyword_hits_fts" ("rowid", ${columns}) SELECT "id", ${columns} FROM "keyword_hits" WHERE "id" > old."indexed_through" AND "id" <= new."indexed_through" ORDER BY "id";
    END`);
    await queryRunner.query(`CREATE INDEX "IDX_keyword_hit_groups_key" ON "keyword_hit_groups" ("group_by", "group_key", "hit_count")`);
    await queryRunner.query(`DROP TRIGGER "keyword_hits_after_update"`);
    await queryRunner.query(`DROP TRIGGER "keyword_hits_after_delete"`);
    await queryRunner.query(`DROP TRIGGER "keyword_hits_after_insert"`);
    await queryRunner.query(`CREATE TRIGGER "keyword_hits_after_insert" AFTER INSERT ON "keyword_hits" BEGIN
      ${countGroups('new', 1)}
    END`);
    await queryRunner.query(`CREATE TRIGGER "keyword_hits_after_delete" AFTER DELETE ON "keyword_hits" BEGIN
      ${ftsDelete('old')}
      ${countGroups('old', -1)}
    END`);
    await queryRunner.query(`CREATE TRIGGER "keyword_hits_after_update_text" AFTER UPDATE OF ${columns} ON "keyword_hits" BEGIN
      ${ftsDelete('old')}
      ${ftsInsert('new')}
    END`);
    await queryRunner.query(`CREATE TRIGGER "keyword_hits_after_update_groups" AFTER UPDATE OF "account_name", "task_name", "chat_id" ON "keyword_hits" BEGIN
      ${countGroups('old', -1)}
      ${countGroups('new', 1)}
    END`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "keyword_hits_after_update_groups"`);
    await queryRunner.query(`DROP TRIGGER "keyword_hits_after_update_text"`);
    await queryRunner.query(`DROP TRIGGER "keyword_hits_after_delete"`);
    await queryRunner.query(`DROP TRIGGER "keyword_hits_after_insert"`);
    // Back to indexing in the writing transaction: index what the indexer had not reached yet.
    await queryRunner.query(
      `INSERT INTO "keyword_hits_fts" ("rowid", ${columns}) SELECT "id", ${columns} FROM "keyword_hits" WHERE "id" > (SELECT "indexed_through" FROM "keyword_hits_fts_state")`,
    );
    await queryRunner.query(`DROP INDEX "IDX_keyword_hit_groups_key"`);
    await queryRunner.query(`DROP TRIGGER "keyword_hits_fts_state_advance"`);
    await queryRunner.query(`DROP TABLE "keyword_hits_fts_state"`);
    const ftsInsertAll = (row: 'new') => `INSERT INTO "keyword_hits_fts" ("rowid", ${columns}) VALUES (${row}."id", ${valuesOf(row)});`;
    const ftsDeleteAll = (row: 'old') => `INSERT INTO "keyword_hits_fts" ("keyword_hits_fts", "rowid", ${columns}) VALUES ('delete', ${row}."id", ${valuesOf(row)});`;
    await queryRunner.query(`CREATE TRIGGER "keyword_hits_after_insert" AFTER INSERT ON "keyword_hits" BEGIN
      ${ftsInsertAll('new')}
      ${countGroups('new', 1)}
    END`);
    await queryRunner.query(`CREATE TRIGGER "keyword_hits_after_delete" AFTER DELETE ON "keyword_hits" BEGIN
      ${ftsDeleteAll('old')}
      ${countGroups('old', -1)}
    END`);
    await queryRunner.query(`CREATE TRIGGER "keyword_hits_after_update" AFTER UPDATE OF ${[...TEXT_COLUMNS, 'account_name', 'task_name', 'chat_id']
      .map((c) => `"${c}"`)
      .join(', ')} ON "keyword_hits" BEGIN
      ${ftsDeleteAll('old')}
      ${countGroups('old', -1)}
      ${ftsInsertAll('new')}
      ${countGroups('new', 1)}
    END`);
  }
}
