import { MigrationInterface, QueryRunner } from 'typeorm';

/** Issue 35: a rerun after the wait a bot named survives a restart, and "once a day" holds across restarts. */
export class PendingReruns1796710000000 implements MigrationInterface {
  name = 'PendingReruns1796710000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "pending_reruns" (
        "task_name" varchar(128) NOT NULL,
        "account_name" varchar(128) NOT NULL,
        "day" varchar(10) NOT NULL,
        "due_at" bigint,
        "run_id" varchar(64) NOT NULL,
        "created_at" bigint NOT NULL,
        PRIMARY KEY ("task_name", "account_name")
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "pending_reruns"`);
  }
}
