import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 31: accounts and their Telegram sessions move from `sessions/` into the database (the
 * session sealed with APP_ENCRYPTION_KEY), so every replica knows every account; the files are
 * imported once at start.
 */
export class Accounts1796200001000 implements MigrationInterface {
  name = 'Accounts1796200001000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`INSERT INTO "store_revisions" ("scope", "revision") VALUES ('accounts', 0)`);
    await queryRunner.query(`
      CREATE TABLE "accounts" (
        "name" varchar(64) PRIMARY KEY NOT NULL,
        "meta" text NOT NULL,
        "sealed_session" text,
        "revision" bigint NOT NULL,
        "updated_at" bigint NOT NULL
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "accounts"`);
    await queryRunner.query(`DELETE FROM "store_revisions" WHERE "scope" = 'accounts'`);
  }
}
