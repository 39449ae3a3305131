import { MigrationInterface, QueryRunner } from 'typeorm';

const GROUP_SOURCES: Array<[string, string]> = [
  ['task', 'task_name'],
  ['chat', 'chat_id'],
  ['account', 'account_name'],
];

/** The rows of a transition table (`rows`) as (group_by, account_name, group_key, hit_at, id), once per group kind. */
function changedRows(rows: string): string {
  return GROUP_SOURCES.map(
    ([groupBy, column]) => `SELECT '${groupBy}'::varchar AS group_by, "account_name", "${column}"::varchar AS group_key, "hit_at", "id" FROM ${rows}`,
  ).join(' UNION ALL ');
}

/** The latest hit of each counter row matching `where` (per group_by), read again from the (x, hit_at, id) index. */
export function recomputeLatest(where: (column: string) => string): string {
  return GROUP_SOURCES.map(
    ([groupBy, column]) => `UPDATE "keyword_hit_groups" AS g SET ("latest_at", "latest_id") = (
        SELECT h."hit_at", h."id" FROM "keyword_hits" h WHERE h."${column}" = g."group_key" AND h."account_name" = g."account_name"
        ORDER BY h."hit_at" DESC, h."id" DESC LIMIT 1)
      WHERE g."group_by" = '${groupBy}' AND ${where(column)};`,
  ).join('\n');
}

const later = `(g."latest_id" IS NULL OR (EXCLUDED."latest_at", EXCLUDED."latest_id") > (g."latest_at", g."latest_id"))`;

/**
 * Counts +1 per group for the inserted row (NEW), which becomes the group's latest hit when later.
 * A row trigger: a listener inserts one hit per statement, and three upserts with cached plans cost
 * less than a statement trigger's transition table and aggregate (the bench's insert ratio on
 * PostgreSQL went from 0.54 to 1.19 with this form, load 19-20).
 */
export const ADD_INSERTED = GROUP_SOURCES.map(
  ([groupBy, column]) => `INSERT INTO "keyword_hit_groups" AS g ("group_by", "account_name", "group_key", "hit_count", "latest_at", "latest_id")
      VALUES ('${groupBy}', NEW."account_name", NEW."${column}", 1, NEW."hit_at", NEW."id")
      ON CONFLICT ("group_by", "account_name", "group_key") DO UPDATE SET "hit_count" = g."hit_count" + 1,
        "latest_at" = CASE WHEN ${later} THEN EXCLUDED."latest_at" ELSE g."latest_at" END,
        "latest_id" = CASE WHEN ${later} THEN EXCLUDED."latest_id" ELSE g."latest_id" END;`,
).join('\n');

/** Counts -n per group for the deleted rows (rows at 0 go), then the groups whose latest hit went read theirs again. */
export const REMOVE_DELETED = `WITH changed AS (
        SELECT group_by, "account_name", group_key, COUNT(*) AS n FROM (${changedRows('old_rows')}) AS rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ), updated AS (
        UPDATE "keyword_hit_groups" AS g SET "hit_count" = g."hit_count" - changed.n FROM changed
        WHERE g."group_by" = changed.group_by AND g."account_name" = changed."account_name" AND g."group_key" = changed.group_key
        RETURNING g."group_by", g."account_name", g."group_key", g."hit_count"
      )
      DELETE FROM "keyword_hit_groups" AS g USING updated
      WHERE g."group_by" = updated."group_by" AND g."account_name" = updated."account_name" AND g."group_key" = updated."group_key" AND updated."hit_count" <= 0;
      ${recomputeLatest(() => `g."latest_id" IN (SELECT "id" FROM old_rows)`)}`;

/** A hit moved to another task, chat, account or time (OLD to NEW): -1 and +1 on the counters, then both groups' latest read again. */
export const MOVE_ROW = `${GROUP_SOURCES.map(
          ([groupBy, column]) => `
        UPDATE "keyword_hit_groups" SET "hit_count" = "hit_count" - 1 WHERE "group_by" = '${groupBy}' AND "account_name" = OLD."account_name" AND "group_key" = OLD."${column}";
        DELETE FROM "keyword_hit_groups" WHERE "group_by" = '${groupBy}' AND "account_name" = OLD."account_name" AND "group_key" = OLD."${column}" AND "hit_count" <= 0;
        INSERT INTO "keyword_hit_groups" ("group_by", "account_name", "group_key", "hit_count", "latest_at", "latest_id") VALUES ('${groupBy}', NEW."account_name", NEW."${column}", 1, NEW."hit_at", NEW."id")
          ON CONFLICT ("group_by", "account_name", "group_key") DO UPDATE SET "hit_count" = "keyword_hit_groups"."hit_count" + 1;`,
        ).join('')}
        ${recomputeLatest((column) => `((g."account_name" = OLD."account_name" AND g."group_key" = OLD."${column}") OR (g."account_name" = NEW."account_name" AND g."group_key" = NEW."${column}"))`)}`;

/**
 * Issue 23: each counter row of `keyword_hit_groups` also holds its group's latest hit (`latest_at`,
 * `latest_id`), kept by the same triggers in the same transaction as the hits: inserted hits become
 * the latest when later; when a statement deletes a group's latest hit (one hit, retention, the
 * delete route) the group's next one is read from the (x, hit_at, id) index; a hit moved to another
 * task, chat, account or time has both groups' latest read again. The groups route then sorts and
 * pages the groups without one index seek per group and reads only the page's hits.
 */
export class KeywordHitGroupsLatest1795600000000 implements MigrationInterface {
  name = 'KeywordHitGroupsLatest1795600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "keyword_hit_groups" ADD COLUMN "latest_at" TIMESTAMP, ADD COLUMN "latest_id" integer`);
    await queryRunner.query(`DO $$ BEGIN ${recomputeLatest(() => 'TRUE')} END $$`);
    await queryRunner.query(`CREATE OR REPLACE FUNCTION "keyword_hits_count_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        ${ADD_INSERTED}
        RETURN NULL;
      END $$`);
    await queryRunner.query(`DROP TRIGGER "keyword_hits_after_insert" ON "keyword_hits"`);
    await queryRunner.query(
      `CREATE TRIGGER "keyword_hits_after_insert" AFTER INSERT ON "keyword_hits" FOR EACH ROW EXECUTE FUNCTION "keyword_hits_count_inserted"()`,
    );
    await queryRunner.query(`CREATE OR REPLACE FUNCTION "keyword_hits_count_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        ${REMOVE_DELETED}
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE OR REPLACE FUNCTION "keyword_hits_count_moved"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        ${MOVE_ROW}
        RETURN NULL;
      END $$`);
    await queryRunner.query(`DROP TRIGGER "keyword_hits_after_update" ON "keyword_hits"`);
    await queryRunner.query(
      `CREATE TRIGGER "keyword_hits_after_update" AFTER UPDATE OF "account_name", "task_name", "chat_id", "hit_at" ON "keyword_hits" FOR EACH ROW
       WHEN (OLD."account_name" IS DISTINCT FROM NEW."account_name" OR OLD."task_name" IS DISTINCT FROM NEW."task_name" OR OLD."chat_id" IS DISTINCT FROM NEW."chat_id" OR OLD."hit_at" IS DISTINCT FROM NEW."hit_at")
       EXECUTE FUNCTION "keyword_hits_count_moved"()`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "keyword_hits_after_update" ON "keyword_hits"`);
    await queryRunner.query(
      `CREATE TRIGGER "keyword_hits_after_update" AFTER UPDATE OF "account_name", "task_name", "chat_id" ON "keyword_hits" FOR EACH ROW
       WHEN (OLD."account_name" IS DISTINCT FROM NEW."account_name" OR OLD."task_name" IS DISTINCT FROM NEW."task_name" OR OLD."chat_id" IS DISTINCT FROM NEW."chat_id")
       EXECUTE FUNCTION "keyword_hits_count_moved"()`,
    );
    await queryRunner.query(`DROP TRIGGER "keyword_hits_after_insert" ON "keyword_hits"`);
    await queryRunner.query(
      `CREATE TRIGGER "keyword_hits_after_insert" AFTER INSERT ON "keyword_hits" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "keyword_hits_count_inserted"()`,
    );
    // The functions keep working without the two columns once the statements that name them are gone.
    await queryRunner.query(`CREATE OR REPLACE FUNCTION "keyword_hits_count_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO "keyword_hit_groups" ("group_by", "account_name", "group_key", "hit_count")
          SELECT group_by, "account_name", group_key, COUNT(*) FROM (${changedRows('new_rows')}) AS changed GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
          ON CONFLICT ("group_by", "account_name", "group_key") DO UPDATE SET "hit_count" = "keyword_hit_groups"."hit_count" + EXCLUDED."hit_count";
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE OR REPLACE FUNCTION "keyword_hits_count_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        ${REMOVE_DELETED.slice(0, REMOVE_DELETED.indexOf('UPDATE "keyword_hit_groups" AS g SET ("latest_at"'))}
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE OR REPLACE FUNCTION "keyword_hits_count_moved"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        ${GROUP_SOURCES.map(
          ([groupBy, column]) => `
        UPDATE "keyword_hit_groups" SET "hit_count" = "hit_count" - 1 WHERE "group_by" = '${groupBy}' AND "account_name" = OLD."account_name" AND "group_key" = OLD."${column}";
        DELETE FROM "keyword_hit_groups" WHERE "group_by" = '${groupBy}' AND "account_name" = OLD."account_name" AND "group_key" = OLD."${column}" AND "hit_count" <= 0;
        INSERT INTO "keyword_hit_groups" ("group_by", "account_name", "group_key", "hit_count") VALUES ('${groupBy}', NEW."account_name", NEW."${column}", 1)
          ON CONFLICT ("group_by", "account_name", "group_key") DO UPDATE SET "hit_count" = "keyword_hit_groups"."hit_count" + 1;`,
        ).join('')}
        RETURN NULL;
      END $$`);
    await queryRunner.query(`ALTER TABLE "keyword_hit_groups" DROP COLUMN "latest_id", DROP COLUMN "latest_at"`);
  }
}
