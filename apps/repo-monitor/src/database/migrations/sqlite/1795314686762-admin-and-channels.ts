import { MigrationInterface, QueryRunner } from 'typeorm';

export class AdminAndChannels1795314686762 implements MigrationInterface {
  name = 'AdminAndChannels1795314686762';

  async up(queryRunner: QueryRunner): Promise<void> {
    // id is pinned to 1: the table can never hold a second admin.
    await queryRunner.query(`
      CREATE TABLE "admin_account" (
        "id" integer PRIMARY KEY NOT NULL CHECK ("id" = 1),
        "username" varchar(64) NOT NULL,
        "password_hash" varchar(255) NOT NULL,
        "created_at" datetime NOT NULL,
        "updated_at" datetime NOT NULL
      )`);
    await queryRunner.query(`
      CREATE TABLE "admin_sessions" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "token_hash" varchar(64) NOT NULL UNIQUE,
        "csrf_hash" varchar(64) NOT NULL,
        "created_at" datetime NOT NULL,
        "expires_at" datetime NOT NULL,
        "last_seen_at" datetime NOT NULL,
        "client_ip" varchar(64),
        "user_agent" varchar(255)
      )`);
    await queryRunner.query(`CREATE INDEX "idx_admin_sessions_expires_at" ON "admin_sessions" ("expires_at")`);
    await queryRunner.query(`
      CREATE TABLE "audit_log" (
        "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
        "created_at" datetime NOT NULL,
        "actor" varchar(64) NOT NULL,
        "action" varchar(64) NOT NULL,
        "target" varchar(255),
        "details" text,
        "client_ip" varchar(64)
      )`);
    await queryRunner.query(`CREATE INDEX "idx_audit_log_created_at" ON "audit_log" ("created_at")`);
    await queryRunner.query(`
      CREATE TABLE "notification_channels" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "kind" varchar(16) NOT NULL CHECK ("kind" IN ('telegram', 'http_webhook')),
        "name" varchar(100) NOT NULL UNIQUE,
        "enabled" boolean NOT NULL DEFAULT (1),
        "config" text NOT NULL,
        "secret" text,
        "allow_private" boolean NOT NULL DEFAULT (0),
        "event_kinds" text NOT NULL DEFAULT ('[]'),
        "created_at" datetime NOT NULL,
        "updated_at" datetime NOT NULL
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "notification_channels"`);
    await queryRunner.query(`DROP TABLE "audit_log"`);
    await queryRunner.query(`DROP TABLE "admin_sessions"`);
    await queryRunner.query(`DROP TABLE "admin_account"`);
  }
}
