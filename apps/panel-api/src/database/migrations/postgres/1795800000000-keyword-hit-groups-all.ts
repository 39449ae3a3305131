import { MigrationInterface, QueryRunner } from 'typeorm';
import { ADD_INSERTED, MOVE_ROW, recomputeLatest as recomputeLatestPerAccount, REMOVE_DELETED } from './1795600000000-keyword-hit-groups-latest';

/** The group kinds counted per account, in the order the insert trigger locks their rows. */
const PER_ACCOUNT_SOURCES: Array<[string, string]> = [
  ['task', 'task_name'],
  ['chat', 'chat_id'],
  ['account', 'account_name'],
];
/** The group kinds counted over all accounts (by account, the per-account rows are already one per key). */
const ALL_SOURCES = PER_ACCOUNT_SOURCES.slice(0, 2);

/** A counter row's place in the lock order: its kind as the insert trigger takes them, then its key. */
const LOCK_RANK = `CASE g."group_by" ${PER_ACCOUNT_SOURCES.map(([groupBy], rank) => `WHEN '${groupBy}' THEN ${rank}`).join(' ')} END`;

/** The deleted hits (`old_rows`) as counter keys: (group_by, account_name, group_key) per account, (group_by, group_key) over all. */
function deletedKeys(sources: Array<[string, string]>, perAccount: boolean): string {
  return sources
    .map(([groupBy, column]) => `SELECT '${groupBy}'::varchar AS group_by, ${perAccount ? '"account_name", ' : ''}"${column}"::varchar AS group_key FROM old_rows`)
    .join(' UNION ALL ');
}

const later = `(g."latest_id" IS NULL OR (EXCLUDED."latest_at", EXCLUDED."latest_id") > (g."latest_at", g."latest_id"))`;

/** The latest hit of each all-accounts row matching `where` (per group_by), read from the (x, hit_at, id) index. */
function recomputeLatest(where: (column: string) => string): string {
  return ALL_SOURCES.map(
    ([groupBy, column]) => `UPDATE "keyword_hit_groups_all" AS g SET ("latest_at", "latest_id") = (
        SELECT h."hit_at", h."id" FROM "keyword_hits" h WHERE h."${column}" = g."group_key" ORDER BY h."hit_at" DESC, h."id" DESC LIMIT 1)
      WHERE g."group_by" = '${groupBy}' AND ${where(column)};`,
  ).join('\n');
}

/** +1 for the inserted row (NEW) in one statement (both kinds), which becomes the key's latest hit when later. */
const ADD_INSERTED_ALL = `INSERT INTO "keyword_hit_groups_all" AS g ("group_by", "group_key", "hit_count", "latest_at", "latest_id")
      VALUES ${ALL_SOURCES.map(([groupBy, column]) => `('${groupBy}', NEW."${column}", 1, NEW."hit_at", NEW."id")`).join(', ')}
      ON CONFLICT ("group_by", "group_key") DO UPDATE SET "hit_count" = g."hit_count" + 1,
        "latest_at" = CASE WHEN ${later} THEN EXCLUDED."latest_at" ELSE g."latest_at" END,
        "latest_id" = CASE WHEN ${later} THEN EXCLUDED."latest_id" ELSE g."latest_id" END;`;

/**
 * What a delete statement does to both counter tables. First it locks every counter row it will
 * change, in the order an inserted hit locks them (per account: task, chat, account; then over all
 * accounts: task, chat; each by key), so a delete waits for a concurrent insert or delete instead of
 * deadlocking with it: an all-accounts row is shared by every account's hits. Then -n per row, the
 * rows at 0 deleted in a statement of their own (an UPDATE and a DELETE of the same row in one
 * statement would see it from one snapshot, and a row changed meanwhile by another transaction
 * would be re-checked by one of them only), and the rows whose latest hit went read theirs again.
 */
const REMOVE_DELETED_BOTH = `PERFORM 1 FROM "keyword_hit_groups" AS g
        WHERE (g."group_by", g."account_name", g."group_key") IN (SELECT group_by, "account_name", group_key FROM (${deletedKeys(PER_ACCOUNT_SOURCES, true)}) AS keys)
        ORDER BY ${LOCK_RANK}, g."account_name", g."group_key" FOR UPDATE;
      PERFORM 1 FROM "keyword_hit_groups_all" AS g
        WHERE (g."group_by", g."group_key") IN (SELECT group_by, group_key FROM (${deletedKeys(ALL_SOURCES, false)}) AS keys)
        ORDER BY ${LOCK_RANK}, g."group_key" FOR UPDATE;
      WITH changed AS (
        SELECT group_by, "account_name", group_key, COUNT(*) AS n FROM (${deletedKeys(PER_ACCOUNT_SOURCES, true)}) AS keys GROUP BY 1, 2, 3
      )
      UPDATE "keyword_hit_groups" AS g SET "hit_count" = g."hit_count" - changed.n FROM changed
      WHERE g."group_by" = changed.group_by AND g."account_name" = changed."account_name" AND g."group_key" = changed.group_key;
      DELETE FROM "keyword_hit_groups" AS g
      WHERE g."hit_count" <= 0 AND (g."group_by", g."account_name", g."group_key") IN (SELECT group_by, "account_name", group_key FROM (${deletedKeys(PER_ACCOUNT_SOURCES, true)}) AS keys);
      ${recomputeLatestPerAccount(() => `g."latest_id" IN (SELECT "id" FROM old_rows)`)}
      WITH changed AS (
        SELECT group_by, group_key, COUNT(*) AS n FROM (${deletedKeys(ALL_SOURCES, false)}) AS keys GROUP BY 1, 2
      )
      UPDATE "keyword_hit_groups_all" AS g SET "hit_count" = g."hit_count" - changed.n FROM changed
      WHERE g."group_by" = changed.group_by AND g."group_key" = changed.group_key;
      DELETE FROM "keyword_hit_groups_all" AS g
      WHERE g."hit_count" <= 0 AND (g."group_by", g."group_key") IN (SELECT group_by, group_key FROM (${deletedKeys(ALL_SOURCES, false)}) AS keys);
      ${recomputeLatest(() => `g."latest_id" IN (SELECT "id" FROM old_rows)`)}`;

/** A hit moved to another task, chat or time: -1 on the old key (gone at 0), +1 on the new, both keys' latest read again. */
const MOVE_ROW_ALL = `${ALL_SOURCES.map(
  ([groupBy, column]) => `
        UPDATE "keyword_hit_groups_all" SET "hit_count" = "hit_count" - 1 WHERE "group_by" = '${groupBy}' AND "group_key" = OLD."${column}";
        DELETE FROM "keyword_hit_groups_all" WHERE "group_by" = '${groupBy}' AND "group_key" = OLD."${column}" AND "hit_count" <= 0;
        INSERT INTO "keyword_hit_groups_all" AS g ("group_by", "group_key", "hit_count", "latest_at", "latest_id") VALUES ('${groupBy}', NEW."${column}", 1, NEW."hit_at", NEW."id")
          ON CONFLICT ("group_by", "group_key") DO UPDATE SET "hit_count" = g."hit_count" + 1;`,
).join('')}
        ${recomputeLatest((column) => `g."group_key" IN (OLD."${column}", NEW."${column}")`)}`;

/**
 * Issue 23, PostgreSQL: the groups by task or chat over all accounts read one counter row per key
 * (`keyword_hit_groups_all`: 2,000 rows for 2,000 chats) by its primary key instead of summing the
 * per-account rows (40,000 for 20 accounts) with a sequential scan. That scan read every page of
 * `keyword_hit_groups`, and a batch of a million hits in large transactions (the benchmark's seed,
 * an import) left it at 121 MB of mostly dead rows until `VACUUM FULL`: 106-126 ms p95 instead of
 * 57 ms. The new rows are kept by the same triggers, in the hit's transaction: one more statement
 * per inserted hit (both kinds in one upsert), one more per delete statement and per moved hit.
 *
 * SQLite keeps summing the per-account rows: its covering index in key order serves that sum
 * (46 ms p95 at 1,000,000 hits) and its b-tree does not keep dead row versions; the SQLite
 * migration of this name changes nothing.
 */
export class KeywordHitGroupsAll1795800000000 implements MigrationInterface {
  name = 'KeywordHitGroupsAll1795800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "keyword_hit_groups_all" (
        "group_by" varchar(16) NOT NULL,
        "group_key" varchar(128) NOT NULL,
        "hit_count" integer NOT NULL,
        "latest_at" TIMESTAMP,
        "latest_id" integer,
        PRIMARY KEY ("group_by", "group_key")
      )`);
    // Writers of keyword_hits wait until the new triggers are in place (SHARE ROW EXCLUSIVE blocks
    // writers, not readers), so no hit is counted twice or missed.
    await queryRunner.query(`LOCK TABLE "keyword_hits" IN SHARE ROW EXCLUSIVE MODE`);
    await queryRunner.query(`INSERT INTO "keyword_hit_groups_all" ("group_by", "group_key", "hit_count")
      SELECT "group_by", "group_key", SUM("hit_count") FROM "keyword_hit_groups"
      WHERE "group_by" IN (${ALL_SOURCES.map(([groupBy]) => `'${groupBy}'`).join(', ')}) AND "hit_count" > 0 GROUP BY 1, 2`);
    await queryRunner.query(`DO $$ BEGIN ${recomputeLatest(() => 'TRUE')} END $$`);
    await this.replaceFunctions(queryRunner, { inserted: `${ADD_INSERTED}\n${ADD_INSERTED_ALL}`, deleted: REMOVE_DELETED_BOTH, moved: `${MOVE_ROW}\n${MOVE_ROW_ALL}` });
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // No writer may run the new trigger bodies once the table they write is gone.
    await queryRunner.query(`LOCK TABLE "keyword_hits" IN SHARE ROW EXCLUSIVE MODE`);
    await this.replaceFunctions(queryRunner, { inserted: ADD_INSERTED, deleted: REMOVE_DELETED, moved: MOVE_ROW });
    await queryRunner.query(`DROP TABLE "keyword_hit_groups_all"`);
  }

  /** The three trigger functions with these bodies (the triggers themselves stay). */
  private async replaceFunctions(queryRunner: QueryRunner, bodies: { inserted: string; deleted: string; moved: string }): Promise<void> {
    for (const [name, body] of [
      ['keyword_hits_count_inserted', bodies.inserted],
      ['keyword_hits_count_deleted', bodies.deleted],
      ['keyword_hits_count_moved', bodies.moved],
    ]) {
      await queryRunner.query(`CREATE OR REPLACE FUNCTION "${name}"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        ${body}
        RETURN NULL;
      END $$`);
    }
  }
}
