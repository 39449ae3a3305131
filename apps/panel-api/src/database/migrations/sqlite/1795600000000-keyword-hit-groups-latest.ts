import { MigrationInterface, QueryRunner } from 'typeorm';

const GROUP_SOURCES: Array<[string, string]> = [
  ['task', 'task_name'],
  ['chat', 'chat_id'],
  ['account', 'account_name'],
];
const columns = ['message_text', 'matched_keyword', 'sender_name', 'sender_username', 'chat_title'].map((c) => `"${c}"`).join(', ');
const valuesOf = (row: 'old') => ['message_text', 'matched_keyword', 'sender_name', 'sender_username', 'chat_title'].map((c) => `${row}."${c}"`).join(', ');
/** Removes the row from the FTS index, when the indexer has already added it (as in KeywordHitsFtsDeferred). */
const ftsDelete = `INSERT INTO "keyword_hits_fts" ("keyword_hits_fts", "rowid", ${columns}) SELECT 'delete', old."id", ${valuesOf('old')} WHERE old."id" <= (SELECT "indexed_through" FROM "keyword_hits_fts_state");`;

/** Is (at, id) of `row` later than the counter row's latest hit? */
const later = (at: string, id: string) => `("latest_id" IS NULL OR ${at} > "latest_at" OR (${at} = "latest_at" AND ${id} > "latest_id"))`;

/** Counter +1 for the hit in `row`, which becomes the group's latest hit when it is later than the one recorded. */
function addTo(row: 'new'): string {
  return GROUP_SOURCES.map(
    ([groupBy, column]) => `INSERT INTO "keyword_hit_groups" ("group_by", "account_name", "group_key", "hit_count", "latest_at", "latest_id")
      VALUES ('${groupBy}', ${row}."account_name", ${row}."${column}", 1, ${row}."hit_at", ${row}."id")
      ON CONFLICT ("group_by", "account_name", "group_key") DO UPDATE SET "hit_count" = "hit_count" + 1,
        "latest_at" = CASE WHEN ${later('excluded."latest_at"', 'excluded."latest_id"')} THEN excluded."latest_at" ELSE "latest_at" END,
        "latest_id" = CASE WHEN ${later('excluded."latest_at"', 'excluded."latest_id"')} THEN excluded."latest_id" ELSE "latest_id" END;`,
  ).join('\n');
}

/** Counter -1 for the hit in `row`; the row goes at 0. */
function removeFrom(row: 'old'): string {
  return GROUP_SOURCES.map(
    ([groupBy, column]) => `UPDATE "keyword_hit_groups" SET "hit_count" = "hit_count" - 1 WHERE "group_by" = '${groupBy}' AND "account_name" = ${row}."account_name" AND "group_key" = ${row}."${column}";
      DELETE FROM "keyword_hit_groups" WHERE "group_by" = '${groupBy}' AND "account_name" = ${row}."account_name" AND "group_key" = ${row}."${column}" AND "hit_count" <= 0;`,
  ).join('\n');
}

/**
 * The latest hit of each counter row matching `where` (per group_by), read again from the
 * (x, hit_at, id) index. The unary `+` keeps SQLite on the group column's index.
 */
function recomputeLatest(where: (groupBy: string, column: string) => string): string {
  return GROUP_SOURCES.map(
    ([groupBy, column]) => `UPDATE "keyword_hit_groups" SET ("latest_at", "latest_id") = (
        SELECT "h"."hit_at", "h"."id" FROM "keyword_hits" "h"
        WHERE "h"."${column}" = "keyword_hit_groups"."group_key" AND +"h"."account_name" = "keyword_hit_groups"."account_name"
        ORDER BY "h"."hit_at" DESC, "h"."id" DESC LIMIT 1)
      WHERE "group_by" = '${groupBy}' AND ${where(groupBy, column)};`,
  ).join('\n');
}

/**
 * Issue 23: each counter row of `keyword_hit_groups` also holds its group's latest hit (`latest_at`,
 * `latest_id`), kept by the same triggers in the same transaction as the hit: an insert makes the hit
 * the latest when it is later; a delete of the latest hit (one at a time, retention, the delete
 * route) reads the next one from the (x, hit_at, id) index; moving a hit to another task, chat,
 * account or time reads both groups' latest again. The groups route then sorts and pages the groups
 * without one index seek per group (2,000 chats) and reads only the page's hits.
 */
export class KeywordHitGroupsLatest1795600000000 implements MigrationInterface {
  name = 'KeywordHitGroupsLatest1795600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "keyword_hit_groups" ADD COLUMN "latest_at" datetime`);
    await queryRunner.query(`ALTER TABLE "keyword_hit_groups" ADD COLUMN "latest_id" integer`);
    for (const statement of recomputeLatest(() => '1 = 1').split(';').filter((text) => text.trim())) await queryRunner.query(statement);
    // Groups over all accounts take each key's latest hit from this index alone (one entry per
    // account and key, in key order). hit_count already changed the entry on every insert, so
    // carrying the latest hit in it adds no index write.
    await queryRunner.query(`DROP INDEX "IDX_keyword_hit_groups_key"`);
    await queryRunner.query(`CREATE INDEX "IDX_keyword_hit_groups_key" ON "keyword_hit_groups" ("group_by", "group_key", "hit_count", "latest_at", "latest_id")`);
    await queryRunner.query(`DROP TRIGGER "keyword_hits_after_update_groups"`);
    await queryRunner.query(`DROP TRIGGER "keyword_hits_after_delete"`);
    await queryRunner.query(`DROP TRIGGER "keyword_hits_after_insert"`);
    await queryRunner.query(`CREATE TRIGGER "keyword_hits_after_insert" AFTER INSERT ON "keyword_hits" BEGIN
      ${addTo('new')}
    END`);
    await queryRunner.query(`CREATE TRIGGER "keyword_hits_after_delete" AFTER DELETE ON "keyword_hits" BEGIN
      ${ftsDelete}
      ${removeFrom('old')}
      ${recomputeLatest(() => `"latest_id" = old."id"`)}
    END`);
    await queryRunner.query(`CREATE TRIGGER "keyword_hits_after_update_groups" AFTER UPDATE OF "account_name", "task_name", "chat_id", "hit_at" ON "keyword_hits" BEGIN
      ${removeFrom('old')}
      ${addTo('new')}
      ${recomputeLatest(
        (_, column) =>
          `(("account_name" = old."account_name" AND "group_key" = old."${column}") OR ("account_name" = new."account_name" AND "group_key" = new."${column}"))`,
      )}
    END`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const count = (row: 'new' | 'old', delta: 1 | -1) =>
      delta === -1
        ? removeFrom(row as 'old')
        : GROUP_SOURCES.map(
            ([groupBy, column]) => `INSERT INTO "keyword_hit_groups" ("group_by", "account_name", "group_key", "hit_count") VALUES ('${groupBy}', ${row}."account_name", ${row}."${column}", 1)
           ON CONFLICT ("group_by", "account_name", "group_key") DO UPDATE SET "hit_count" = "hit_count" + 1;`,
          ).join('\n');
    await queryRunner.query(`DROP TRIGGER "keyword_hits_after_update_groups"`);
    await queryRunner.query(`DROP TRIGGER "keyword_hits_after_delete"`);
    await queryRunner.query(`DROP TRIGGER "keyword_hits_after_insert"`);
    await queryRunner.query(`CREATE TRIGGER "keyword_hits_after_insert" AFTER INSERT ON "keyword_hits" BEGIN
      ${count('new', 1)}
    END`);
    await queryRunner.query(`CREATE TRIGGER "keyword_hits_after_delete" AFTER DELETE ON "keyword_hits" BEGIN
      ${ftsDelete}
      ${count('old', -1)}
    END`);
    await queryRunner.query(`CREATE TRIGGER "keyword_hits_after_update_groups" AFTER UPDATE OF "account_name", "task_name", "chat_id" ON "keyword_hits" BEGIN
      ${count('old', -1)}
      ${count('new', 1)}
    END`);
    await queryRunner.query(`DROP INDEX "IDX_keyword_hit_groups_key"`);
    await queryRunner.query(`CREATE INDEX "IDX_keyword_hit_groups_key" ON "keyword_hit_groups" ("group_by", "group_key", "hit_count")`);
    await queryRunner.query(`ALTER TABLE "keyword_hit_groups" DROP COLUMN "latest_id"`);
    await queryRunner.query(`ALTER TABLE "keyword_hit_groups" DROP COLUMN "latest_at"`);
  }
}
