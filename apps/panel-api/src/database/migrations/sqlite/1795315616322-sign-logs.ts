import { MigrationInterface, QueryRunner } from 'typeorm';

export class SignLogs1795315616322 implements MigrationInterface {
  name = 'SignLogs1795315616322';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "sign_logs" (
        "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
        "run_id" varchar(36) NOT NULL,
        "task_name" varchar(64) NOT NULL,
        "account_name" varchar(64) NOT NULL,
        "success" boolean NOT NULL,
        "state" varchar(16) NOT NULL,
        "failure_category" varchar(32) NOT NULL,
        "message" text NOT NULL,
        "trigger" varchar(16) NOT NULL,
        "attempts" integer NOT NULL DEFAULT (0),
        "created_at" datetime NOT NULL DEFAULT (datetime('now'))
      )`);
    await queryRunner.query(`CREATE INDEX "IDX_sign_logs_task_created" ON "sign_logs" ("task_name", "created_at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_sign_logs_task_created"`);
    await queryRunner.query(`DROP TABLE "sign_logs"`);
  }
}
