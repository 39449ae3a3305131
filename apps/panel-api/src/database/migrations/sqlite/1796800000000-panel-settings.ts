import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 31: the settings groups move from `.global_settings.json`, `.openai_config.json` and
 * `.telegram_api.json` into the database (secret fields sealed with APP_ENCRYPTION_KEY), so replicas
 * need no shared data directory; the files are imported once at start.
 */
export class PanelSettings1796800000000 implements MigrationInterface {
  name = 'PanelSettings1796800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`INSERT INTO "store_revisions" ("scope", "revision") VALUES ('settings', 0)`);
    await queryRunner.query(`
      CREATE TABLE "panel_settings" (
        "name" varchar(32) PRIMARY KEY NOT NULL,
        "document" text NOT NULL,
        "revision" bigint NOT NULL,
        "updated_at" bigint NOT NULL
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "panel_settings"`);
    await queryRunner.query(`DELETE FROM "store_revisions" WHERE "scope" = 'settings'`);
  }
}
