import { MigrationInterface, QueryRunner } from 'typeorm';

/** Installations, repositories, inbound deliveries, normalised records, events, the notification outbox, starred trackers. */
export class RepositoryMonitoring1795314726017 implements MigrationInterface {
  name = 'RepositoryMonitoring1795314726017';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "github_installations" (
        "id" SERIAL PRIMARY KEY,
        "installation_id" bigint NOT NULL UNIQUE,
        "account_login" varchar(255) NOT NULL,
        "account_type" varchar(32) NOT NULL,
        "repository_selection" varchar(16) NOT NULL DEFAULT 'selected',
        "suspended" boolean NOT NULL DEFAULT false,
        "removed_at" TIMESTAMP NULL,
        "last_reconciled_at" TIMESTAMP NULL,
        "created_at" TIMESTAMP NOT NULL DEFAULT (now() at time zone 'utc'),
        "updated_at" TIMESTAMP NOT NULL DEFAULT (now() at time zone 'utc')
      )`);
    await queryRunner.query(`
      CREATE TABLE "repositories" (
        "id" SERIAL PRIMARY KEY,
        "github_id" bigint NULL UNIQUE,
        "full_name" varchar(255) NOT NULL UNIQUE,
        "html_url" varchar(512) NOT NULL,
        "private" boolean NOT NULL DEFAULT false,
        "source" varchar(16) NOT NULL,
        "installation_id" bigint NULL,
        "status" varchar(16) NOT NULL DEFAULT 'active',
        "notify_issues" boolean NOT NULL DEFAULT true,
        "notify_pull_requests" boolean NOT NULL DEFAULT true,
        "notify_workflow_runs" boolean NOT NULL DEFAULT true,
        "notify_security_alerts" boolean NOT NULL DEFAULT true,
        "notify_releases" boolean NOT NULL DEFAULT true,
        "notify_stars" boolean NOT NULL DEFAULT true,
        "baseline_imported_at" TIMESTAMP NULL,
        "created_at" TIMESTAMP NOT NULL DEFAULT (now() at time zone 'utc'),
        "updated_at" TIMESTAMP NOT NULL DEFAULT (now() at time zone 'utc')
      )`);
    await queryRunner.query(`
      CREATE INDEX "idx_repositories_installation" ON "repositories" ("installation_id")`);
    await queryRunner.query(`
      CREATE TABLE "webhook_deliveries" (
        "id" SERIAL PRIMARY KEY,
        "delivery_id" varchar(128) NOT NULL UNIQUE,
        "event" varchar(64) NOT NULL,
        "action" varchar(64) NULL,
        "installation_id" bigint NULL,
        "repository_full_name" varchar(255) NULL,
        "payload" text NOT NULL,
        "status" varchar(16) NOT NULL,
        "attempts" integer NOT NULL DEFAULT 0,
        "last_error" varchar(500) NULL,
        "received_at" TIMESTAMP NOT NULL,
        "processed_at" TIMESTAMP NULL
      )`);
    await queryRunner.query(`
      CREATE INDEX "idx_webhook_deliveries_status" ON "webhook_deliveries" ("status", "id")`);
    await queryRunner.query(`
      CREATE TABLE "work_items" (
        "id" SERIAL PRIMARY KEY,
        "repository_id" integer NOT NULL REFERENCES "repositories" ("id") ON DELETE CASCADE,
        "kind" varchar(16) NOT NULL,
        "number" integer NOT NULL,
        "title" varchar(1024) NOT NULL,
        "state" varchar(16) NOT NULL,
        "merged" boolean NOT NULL DEFAULT false,
        "draft" boolean NOT NULL DEFAULT false,
        "author" varchar(255) NULL,
        "html_url" varchar(512) NOT NULL,
        "github_updated_at" TIMESTAMP NULL,
        "created_at" TIMESTAMP NOT NULL DEFAULT (now() at time zone 'utc'),
        "updated_at" TIMESTAMP NOT NULL DEFAULT (now() at time zone 'utc'),
        CONSTRAINT "uq_work_items_repository_kind_number" UNIQUE ("repository_id", "kind", "number")
      )`);
    await queryRunner.query(`
      CREATE TABLE "workflow_runs" (
        "id" SERIAL PRIMARY KEY,
        "repository_id" integer NOT NULL REFERENCES "repositories" ("id") ON DELETE CASCADE,
        "run_id" bigint NOT NULL UNIQUE,
        "workflow_name" varchar(255) NOT NULL,
        "head_branch" varchar(255) NULL,
        "head_sha" varchar(64) NULL,
        "trigger_event" varchar(64) NULL,
        "status" varchar(32) NOT NULL,
        "conclusion" varchar(32) NULL,
        "run_attempt" integer NOT NULL DEFAULT 1,
        "html_url" varchar(512) NOT NULL,
        "created_at" TIMESTAMP NOT NULL DEFAULT (now() at time zone 'utc'),
        "updated_at" TIMESTAMP NOT NULL DEFAULT (now() at time zone 'utc')
      )`);
    await queryRunner.query(`
      CREATE INDEX "idx_workflow_runs_repository" ON "workflow_runs" ("repository_id", "workflow_name", "head_branch")`);
    await queryRunner.query(`
      CREATE TABLE "security_alerts" (
        "id" SERIAL PRIMARY KEY,
        "repository_id" integer NOT NULL REFERENCES "repositories" ("id") ON DELETE CASCADE,
        "kind" varchar(32) NOT NULL,
        "number" integer NOT NULL,
        "state" varchar(32) NOT NULL,
        "severity" varchar(32) NULL,
        "summary" varchar(1024) NOT NULL,
        "html_url" varchar(512) NOT NULL,
        "ignored" boolean NOT NULL DEFAULT false,
        "ignored_at" TIMESTAMP NULL,
        "created_at" TIMESTAMP NOT NULL DEFAULT (now() at time zone 'utc'),
        "updated_at" TIMESTAMP NOT NULL DEFAULT (now() at time zone 'utc'),
        CONSTRAINT "uq_security_alerts_repository_kind_number" UNIQUE ("repository_id", "kind", "number")
      )`);
    await queryRunner.query(`
      CREATE TABLE "events" (
        "id" SERIAL PRIMARY KEY,
        "repository_id" integer NULL REFERENCES "repositories" ("id") ON DELETE SET NULL,
        "delivery_id" varchar(128) NULL,
        "kind" varchar(64) NOT NULL,
        "category" varchar(16) NOT NULL,
        "title" varchar(1024) NOT NULL,
        "body_text" text NOT NULL,
        "html_url" varchar(512) NULL,
        "actor" varchar(255) NULL,
        "fingerprint" varchar(128) NOT NULL UNIQUE,
        "notified" boolean NOT NULL DEFAULT false,
        "occurred_at" TIMESTAMP NOT NULL,
        "created_at" TIMESTAMP NOT NULL DEFAULT (now() at time zone 'utc')
      )`);
    await queryRunner.query(`
      CREATE INDEX "idx_events_repository_created" ON "events" ("repository_id", "created_at")`);
    await queryRunner.query(`
      CREATE TABLE "notification_outbox" (
        "id" SERIAL PRIMARY KEY,
        "idempotency_key" varchar(255) NOT NULL UNIQUE,
        "event_id" integer NULL REFERENCES "events" ("id") ON DELETE SET NULL,
        "channel_id" varchar(64) NOT NULL,
        "channel_kind" varchar(16) NOT NULL,
        "group_key" varchar(512) NOT NULL,
        "role" varchar(16) NOT NULL DEFAULT 'single',
        "aggregated_into" integer NULL,
        "item_count" integer NOT NULL DEFAULT 1,
        "message" text NOT NULL,
        "state" varchar(16) NOT NULL,
        "attempts" integer NOT NULL DEFAULT 0,
        "next_attempt_at" TIMESTAMP NOT NULL,
        "lease_until" TIMESTAMP NULL,
        "last_error_code" varchar(64) NULL,
        "last_error" varchar(500) NULL,
        "sent_at" TIMESTAMP NULL,
        "created_at" TIMESTAMP NOT NULL,
        "updated_at" TIMESTAMP NOT NULL
      )`);
    await queryRunner.query(`
      CREATE INDEX "idx_notification_outbox_due" ON "notification_outbox" ("state", "next_attempt_at")`);
    await queryRunner.query(`
      CREATE INDEX "idx_notification_outbox_group" ON "notification_outbox" ("group_key", "created_at")`);
    await queryRunner.query(`
      CREATE TABLE "starred_release_trackers" (
        "id" SERIAL PRIMARY KEY,
        "username" varchar(64) NOT NULL,
        "kind" varchar(16) NOT NULL,
        "repository_full_name" varchar(255) NOT NULL,
        "etag" varchar(255) NULL,
        "last_release_id" bigint NULL,
        "last_release_tag" varchar(255) NULL,
        "last_checked_at" TIMESTAMP NULL,
        "created_at" TIMESTAMP NOT NULL DEFAULT (now() at time zone 'utc'),
        "updated_at" TIMESTAMP NOT NULL DEFAULT (now() at time zone 'utc'),
        CONSTRAINT "uq_starred_release_trackers" UNIQUE ("username", "kind", "repository_full_name")
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "starred_release_trackers"`);
    await queryRunner.query(`DROP TABLE "notification_outbox"`);
    await queryRunner.query(`DROP TABLE "events"`);
    await queryRunner.query(`DROP TABLE "security_alerts"`);
    await queryRunner.query(`DROP TABLE "workflow_runs"`);
    await queryRunner.query(`DROP TABLE "work_items"`);
    await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
    await queryRunner.query(`DROP TABLE "repositories"`);
    await queryRunner.query(`DROP TABLE "github_installations"`);
  }
}
