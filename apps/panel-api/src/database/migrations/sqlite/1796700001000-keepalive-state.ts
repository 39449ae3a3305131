import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 31 item 1: the device keep-alive bookkeeping moves from `.signer/device_keepalive.json` into
 * the database (imported once at the first start), so the replica that owns an account finds when it
 * was last woken, whatever data directory it has. `keepalive_runs` keeps the last run of each replica.
 */
export class KeepaliveState1796700001000 implements MigrationInterface {
  name = 'KeepaliveState1796700001000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "keepalive_accounts" (
        "account" varchar(64) PRIMARY KEY NOT NULL,
        "last_keepalive_at" varchar(40),
        "last_attempt_at" varchar(40) NOT NULL,
        "last_code" varchar(64),
        "last_message" text NOT NULL
      )`);
    await queryRunner.query(`
      CREATE TABLE "keepalive_runs" (
        "replica_id" varchar(64) PRIMARY KEY NOT NULL,
        "run" text NOT NULL,
        "finished_at" varchar(40) NOT NULL
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "keepalive_runs"`);
    await queryRunner.query(`DROP TABLE "keepalive_accounts"`);
  }
}
