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

const ftsInsert = (row: 'new') => `INSERT INTO "keyword_hits_fts" ("rowid", ${TEXT_COLUMNS.map((c) => `"${c}"`).join(', ')}) VALUES (${row}."id", ${TEXT_COLUMNS.map((c) => `${row}."${c}"`).join(', ')});`;
const ftsDelete = (row: 'old') =>
  `INSERT INTO "keyword_hits_fts" ("keyword_hits_fts", "rowid", ${TEXT_COLUMNS.map((c) => `"${c}"`).join(', ')}) VALUES ('delete', ${row}."id", ${TEXT_COLUMNS.map((c) => `${row}."${c}"`).join(', ')});`;

/**
 * Keyword hits at a million rows (issue 23): an FTS5 trigram index over the five searched columns
 * (substring search in any script, Chinese included, for queries of three or more characters), and
 * hit counters per (task | chat | account, account) for the groups. Triggers keep both in step with
 * every insert, delete and update of the table, in the same transaction, whoever writes it (the
 * listeners, the delete route, retention, an import). The existing (x, hit_at) indexes already end
 * in the rowid, so they serve (x, hit_at, id) keyset paging as they are.
 */
export class KeywordHitsSearch1795400000000 implements MigrationInterface {
  name = 'KeywordHitsSearch1795400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE VIRTUAL TABLE "keyword_hits_fts" USING fts5(${TEXT_COLUMNS.map((c) => `"${c}"`).join(', ')}, content='keyword_hits', content_rowid='id', tokenize='trigram')`,
    );
    await queryRunner.query(`INSERT INTO "keyword_hits_fts" ("keyword_hits_fts") VALUES ('rebuild')`);
    await queryRunner.query(`
      CREATE TABLE "keyword_hit_groups" (
        "group_by" varchar(16) NOT NULL,
        "account_name" varchar(64) NOT NULL,
        "group_key" varchar(128) NOT NULL,
        "hit_count" integer NOT NULL,
        PRIMARY KEY ("group_by", "account_name", "group_key")
      )`);
    for (const [groupBy, column] of GROUP_SOURCES) {
      await queryRunner.query(
        `INSERT INTO "keyword_hit_groups" ("group_by", "account_name", "group_key", "hit_count")
         SELECT '${groupBy}', "account_name", "${column}", COUNT(*) FROM "keyword_hits" GROUP BY "account_name", "${column}"`,
      );
    }
    await queryRunner.query(`CREATE TRIGGER "keyword_hits_after_insert" AFTER INSERT ON "keyword_hits" BEGIN
      ${ftsInsert('new')}
      ${countGroups('new', 1)}
    END`);
    await queryRunner.query(`CREATE TRIGGER "keyword_hits_after_delete" AFTER DELETE ON "keyword_hits" BEGIN
      ${ftsDelete('old')}
      ${countGroups('old', -1)}
    END`);
    await queryRunner.query(`CREATE TRIGGER "keyword_hits_after_update" AFTER UPDATE OF ${[...TEXT_COLUMNS, 'account_name', 'task_name', 'chat_id']
      .map((c) => `"${c}"`)
      .join(', ')} ON "keyword_hits" BEGIN
      ${ftsDelete('old')}
      ${countGroups('old', -1)}
      ${ftsInsert('new')}
      ${countGroups('new', 1)}
    END`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "keyword_hits_after_update"`);
    await queryRunner.query(`DROP TRIGGER "keyword_hits_after_delete"`);
    await queryRunner.query(`DROP TRIGGER "keyword_hits_after_insert"`);
    await queryRunner.query(`DROP TABLE "keyword_hit_groups"`);
    await queryRunner.query(`DROP TABLE "keyword_hits_fts"`);
  }
}
