import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 31: sign and listen tasks move from `.signer/tasks/*.json` into the database, so every
 * replica on one PostgreSQL database serves the same tasks (the files are imported once at start).
 * `store_revisions` counts the writes per collection (see StoreRevision).
 */
export class SignTasks1796200000000 implements MigrationInterface {
  name = 'SignTasks1796200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "store_revisions" (
        "scope" varchar(64) PRIMARY KEY NOT NULL,
        "revision" bigint NOT NULL
      )`);
    await queryRunner.query(`INSERT INTO "store_revisions" ("scope", "revision") VALUES ('sign_tasks', 0)`);
    await queryRunner.query(`
      CREATE TABLE "sign_tasks" (
        "name" varchar(128) PRIMARY KEY NOT NULL,
        "document" text NOT NULL,
        "revision" bigint NOT NULL,
        "updated_at" bigint NOT NULL
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "sign_tasks"`);
    await queryRunner.query(`DROP TABLE "store_revisions"`);
  }
}
