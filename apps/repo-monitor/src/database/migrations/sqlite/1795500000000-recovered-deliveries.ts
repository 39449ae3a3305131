import { MigrationInterface, QueryRunner } from 'typeorm';

/** Webhook deliveries GitHub failed to bring here, and what the redelivery sweep did about each (one row per guid). */
export class RecoveredDeliveries1795500000000 implements MigrationInterface {
  name = 'RecoveredDeliveries1795500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "recovered_deliveries" (
        "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
        "guid" varchar(128) NOT NULL UNIQUE,
        "event" varchar(64) NOT NULL,
        "action" varchar(64) NULL,
        "github_delivery_id" varchar(32) NOT NULL,
        "first_attempt_at" datetime NOT NULL,
        "status" varchar(16) NOT NULL,
        "requests" integer NOT NULL DEFAULT 0,
        "last_requested_at" datetime NULL,
        "resolved_at" datetime NULL,
        "reason" varchar(200) NULL,
        "created_at" datetime NOT NULL DEFAULT (datetime('now')),
        "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
      )`);
    await queryRunner.query(`CREATE INDEX "IDX_recovered_deliveries_status" ON "recovered_deliveries" ("status", "first_attempt_at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "recovered_deliveries"');
  }
}
