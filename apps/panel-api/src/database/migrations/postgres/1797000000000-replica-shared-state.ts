import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 31: what was still kept per replica moves into the database. `shared_secrets`: secrets every
 * replica needs alike (the backup key, the generated first admin password), sealed with
 * APP_ENCRYPTION_KEY. `local_backups`: the archives kept in a replica's data directory, and which
 * replica holds each. `check_jobs`: the status-check jobs, answered by any replica.
 */
export class ReplicaSharedState1797000000000 implements MigrationInterface {
  name = 'ReplicaSharedState1797000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "shared_secrets" (
        "name" varchar(64) PRIMARY KEY NOT NULL,
        "sealed" text NOT NULL,
        "created_at" bigint NOT NULL
      )`);
    await queryRunner.query(`
      CREATE TABLE "local_backups" (
        "replica_id" varchar(128) NOT NULL,
        "name" varchar(128) NOT NULL,
        "size_bytes" bigint NOT NULL,
        "modified_at" bigint NOT NULL,
        PRIMARY KEY ("replica_id", "name")
      )`);
    await queryRunner.query(`
      CREATE TABLE "check_jobs" (
        "job_id" varchar(36) PRIMARY KEY NOT NULL,
        "replica_id" varchar(128),
        "status" varchar(16) NOT NULL,
        "cancel_requested" boolean NOT NULL DEFAULT false,
        "document" text NOT NULL,
        "created_at" bigint NOT NULL,
        "updated_at" bigint NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX "check_jobs_status" ON "check_jobs" ("status")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "check_jobs"`);
    await queryRunner.query(`DROP TABLE "local_backups"`);
    await queryRunner.query(`DROP TABLE "shared_secrets"`);
  }
}
