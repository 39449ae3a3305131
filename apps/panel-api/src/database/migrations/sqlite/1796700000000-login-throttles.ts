import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 31 item 4: failed logins per client address (and wrong credentials per admin account) counted
 * in the database, so failures spread over replicas on PostgreSQL block as on one instance. One row
 * per throttle (`scope`) and client: the failures within the window (a JSON list of epoch
 * milliseconds) and the end of the block. A single SQLite instance keeps them in memory and never
 * reads the table (one schema for both drivers).
 */
export class LoginThrottles1796700000000 implements MigrationInterface {
  name = 'LoginThrottles1796700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "login_throttles" (
        "scope" varchar(16) NOT NULL,
        "client" varchar(96) NOT NULL,
        "failures" text NOT NULL,
        "blocked_until" bigint NOT NULL,
        "updated_at" bigint NOT NULL,
        PRIMARY KEY ("scope", "client")
      )`);
    await queryRunner.query(`CREATE INDEX "IDX_login_throttles_updated_at" ON "login_throttles" ("updated_at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "login_throttles"`);
  }
}
