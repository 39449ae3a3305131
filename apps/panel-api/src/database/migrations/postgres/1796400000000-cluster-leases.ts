import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 31 items 2 and 3: replicas on one PostgreSQL database. `replicas` lists the live instances
 * (heartbeat), `account_leases` gives each Telegram account one owner with a fencing epoch and an
 * expiry, `cluster_leader` names the one replica that runs the system jobs, and `job_claims` makes
 * each due scheduled run fire once. Times are epoch milliseconds (UTC) from the database's clock.
 * The tables exist on SQLite too (one schema for both drivers); a single SQLite instance never
 * reads them.
 */
export class ClusterLeases1796400000000 implements MigrationInterface {
  name = 'ClusterLeases1796400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "replicas" (
        "id" varchar(64) PRIMARY KEY NOT NULL,
        "address" varchar(255) NOT NULL,
        "version" varchar(64) NOT NULL,
        "started_at" bigint NOT NULL,
        "last_heartbeat_at" bigint NOT NULL
      )`);
    await queryRunner.query(`
      CREATE TABLE "account_leases" (
        "account" varchar(64) PRIMARY KEY NOT NULL,
        "owner" varchar(64),
        "epoch" bigint NOT NULL,
        "expires_at" bigint NOT NULL,
        "acquired_at" bigint NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX "IDX_account_leases_owner" ON "account_leases" ("owner")`);
    await queryRunner.query(`
      CREATE TABLE "cluster_leader" (
        "name" varchar(32) PRIMARY KEY NOT NULL,
        "owner" varchar(64),
        "epoch" bigint NOT NULL,
        "expires_at" bigint NOT NULL
      )`);
    await queryRunner.query(`
      CREATE TABLE "job_claims" (
        "job" varchar(255) NOT NULL,
        "due_at" bigint NOT NULL,
        "account" varchar(64),
        "replica_id" varchar(64) NOT NULL,
        "epoch" bigint NOT NULL,
        "state" varchar(16) NOT NULL,
        "run_id" varchar(64),
        "claimed_at" bigint NOT NULL,
        PRIMARY KEY ("job", "due_at")
      )`);
    await queryRunner.query(`CREATE INDEX "IDX_job_claims_state_replica" ON "job_claims" ("state", "replica_id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "job_claims"`);
    await queryRunner.query(`DROP TABLE "cluster_leader"`);
    await queryRunner.query(`DROP TABLE "account_leases"`);
    await queryRunner.query(`DROP TABLE "replicas"`);
  }
}
