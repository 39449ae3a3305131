import { Logger } from '@nestjs/common';
import { MigrationInterface, QueryRunner } from 'typeorm';
import { ensureExtension } from './extension';

/**
 * The one text the trigram index covers: the five searched columns joined by a line feed. A search
 * matches this (index-assisted) and then each column on its own (the exact check), so a match
 * across two columns is never reported. Queries must repeat the expression exactly.
 */
export const POSTGRES_SEARCH_DOCUMENT =
  `(coalesce("message_text", '') || E'\\n' || coalesce("matched_keyword", '') || E'\\n' || coalesce("sender_name", '') || E'\\n' || ` +
  `coalesce("sender_username", '') || E'\\n' || coalesce("chat_title", ''))`;

const GROUP_SOURCES: Array<[string, string]> = [
  ['task', 'task_name'],
  ['chat', 'chat_id'],
  ['account', 'account_name'],
];

/** The counter changes of a set of rows (`rows`: a transition table), in key order so concurrent statements lock alike. */
function applyCounts(rows: string, sign: '+' | '-'): string {
  const select = GROUP_SOURCES.map(([groupBy, column]) => `SELECT '${groupBy}'::varchar AS group_by, "account_name", "${column}"::varchar AS group_key FROM ${rows}`).join(
    ' UNION ALL ',
  );
  if (sign === '+') {
    return `INSERT INTO "keyword_hit_groups" ("group_by", "account_name", "group_key", "hit_count")
      SELECT group_by, "account_name", group_key, COUNT(*) FROM (${select}) AS changed GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT ("group_by", "account_name", "group_key") DO UPDATE SET "hit_count" = "keyword_hit_groups"."hit_count" + EXCLUDED."hit_count";`;
  }
  return `WITH changed AS (
        SELECT group_by, "account_name", group_key, COUNT(*) AS n FROM (${select}) AS rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ), updated AS (
        UPDATE "keyword_hit_groups" AS g SET "hit_count" = g."hit_count" - changed.n FROM changed
        WHERE g."group_by" = changed.group_by AND g."account_name" = changed."account_name" AND g."group_key" = changed.group_key
        RETURNING g."group_by", g."account_name", g."group_key", g."hit_count"
      )
      DELETE FROM "keyword_hit_groups" AS g USING updated
      WHERE g."group_by" = updated."group_by" AND g."account_name" = updated."account_name" AND g."group_key" = updated."group_key" AND updated."hit_count" <= 0;`;
}

/**
 * Keyword hits at a million rows (issue 23): (x, hit_at, id) indexes for keyset paging, a pg_trgm
 * GIN index for substring search (any script, Chinese included), and hit counters per
 * (task | chat | account, account) kept by statement triggers in the same transaction as the
 * change, whoever makes it (the listeners, the delete route, retention, an import).
 *
 * pg_trgm ships with PostgreSQL (the contrib package; Debian and the official images have it) and
 * is a trusted extension: the owner of the database may create it without being a superuser. When
 * it is not installed on the server, or the user may not create it, the migration goes on without
 * the index and says so: search then scans (correct, slower). Creating the extension later and
 * running `CREATE INDEX` from docs/postgres.md adds it.
 */
export class KeywordHitsSearch1795400000000 implements MigrationInterface {
  name = 'KeywordHitsSearch1795400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_keyword_hits_hit_at"`);
    await queryRunner.query(`DROP INDEX "IDX_keyword_hits_account"`);
    await queryRunner.query(`DROP INDEX "IDX_keyword_hits_task"`);
    await queryRunner.query(`DROP INDEX "IDX_keyword_hits_chat"`);
    await queryRunner.query(`CREATE INDEX "IDX_keyword_hits_hit_at" ON "keyword_hits" ("hit_at", "id")`);
    await queryRunner.query(`CREATE INDEX "IDX_keyword_hits_account" ON "keyword_hits" ("account_name", "hit_at", "id")`);
    await queryRunner.query(`CREATE INDEX "IDX_keyword_hits_task" ON "keyword_hits" ("task_name", "hit_at", "id")`);
    await queryRunner.query(`CREATE INDEX "IDX_keyword_hits_chat" ON "keyword_hits" ("chat_id", "hit_at", "id")`);

    if (await this.trigramAvailable(queryRunner)) {
      await queryRunner.query(`CREATE INDEX "IDX_keyword_hits_search" ON "keyword_hits" USING gin (${POSTGRES_SEARCH_DOCUMENT} gin_trgm_ops)`);
    }

    await queryRunner.query(`
      CREATE TABLE "keyword_hit_groups" (
        "group_by" varchar(16) NOT NULL,
        "account_name" varchar(64) NOT NULL,
        "group_key" varchar(128) NOT NULL,
        "hit_count" integer NOT NULL,
        PRIMARY KEY ("group_by", "account_name", "group_key")
      )`);
    await queryRunner.query(applyCounts('"keyword_hits"', '+'));
    await queryRunner.query(`CREATE FUNCTION "keyword_hits_count_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        ${applyCounts('new_rows', '+')}
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE FUNCTION "keyword_hits_count_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        ${applyCounts('old_rows', '-')}
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE FUNCTION "keyword_hits_count_moved"() RETURNS trigger LANGUAGE plpgsql AS $$
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
    await queryRunner.query(
      `CREATE TRIGGER "keyword_hits_after_insert" AFTER INSERT ON "keyword_hits" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "keyword_hits_count_inserted"()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "keyword_hits_after_delete" AFTER DELETE ON "keyword_hits" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "keyword_hits_count_deleted"()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "keyword_hits_after_update" AFTER UPDATE OF "account_name", "task_name", "chat_id" ON "keyword_hits" FOR EACH ROW
       WHEN (OLD."account_name" IS DISTINCT FROM NEW."account_name" OR OLD."task_name" IS DISTINCT FROM NEW."task_name" OR OLD."chat_id" IS DISTINCT FROM NEW."chat_id")
       EXECUTE FUNCTION "keyword_hits_count_moved"()`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "keyword_hits_after_update" ON "keyword_hits"`);
    await queryRunner.query(`DROP TRIGGER "keyword_hits_after_delete" ON "keyword_hits"`);
    await queryRunner.query(`DROP TRIGGER "keyword_hits_after_insert" ON "keyword_hits"`);
    await queryRunner.query(`DROP FUNCTION "keyword_hits_count_moved"()`);
    await queryRunner.query(`DROP FUNCTION "keyword_hits_count_deleted"()`);
    await queryRunner.query(`DROP FUNCTION "keyword_hits_count_inserted"()`);
    await queryRunner.query(`DROP TABLE "keyword_hit_groups"`);
    await queryRunner.query(`DROP INDEX IF EXISTS "IDX_keyword_hits_search"`);
    for (const [name, column] of [
      ['IDX_keyword_hits_hit_at', undefined],
      ['IDX_keyword_hits_account', 'account_name'],
      ['IDX_keyword_hits_task', 'task_name'],
      ['IDX_keyword_hits_chat', 'chat_id'],
    ] as const) {
      await queryRunner.query(`DROP INDEX "${name}"`);
      await queryRunner.query(`CREATE INDEX "${name}" ON "keyword_hits" (${column ? `"${column}", ` : ''}"hit_at")`);
    }
  }

  /** pg_trgm is there, or can be created here; false (with a warning) otherwise. */
  private async trigramAvailable(queryRunner: QueryRunner): Promise<boolean> {
    const state = await ensureExtension(queryRunner, 'pg_trgm');
    if (state === 'ready') return true;
    new Logger('Migrations').warn(
      state === 'forbidden'
        ? 'pg_trgm is available but this database user may not create it: keyword-hit search runs without its index (a scan). See docs/postgres.md.'
        : 'pg_trgm is not installed on this PostgreSQL server (the contrib package): keyword-hit search runs without its index (a scan). See docs/postgres.md.',
    );
    return false;
  }
}
