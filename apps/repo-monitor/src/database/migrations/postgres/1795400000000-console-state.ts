import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the browser console reads: each channel's last test result (the onboarding checklist), the
 * admin's optional TOTP second factor (secret as an encrypted envelope), and indexes for the event
 * log's time range and the outbox's channel filter.
 */
export class ConsoleState1795400000000 implements MigrationInterface {
  name = 'ConsoleState1795400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "notification_channels" ADD COLUMN "last_test_at" TIMESTAMP NULL`);
    await queryRunner.query(`ALTER TABLE "notification_channels" ADD COLUMN "last_test_ok" boolean NULL`);
    await queryRunner.query(`ALTER TABLE "notification_channels" ADD COLUMN "last_test_error" varchar(500) NULL`);
    await queryRunner.query(`ALTER TABLE "admin_account" ADD COLUMN "totp_secret" text NULL`);
    await queryRunner.query(`ALTER TABLE "admin_account" ADD COLUMN "totp_enabled" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`CREATE INDEX "idx_events_occurred_at" ON "events" ("occurred_at")`);
    await queryRunner.query(`CREATE INDEX "idx_notification_outbox_channel" ON "notification_outbox" ("channel_id", "state")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "idx_notification_outbox_channel"`);
    await queryRunner.query(`DROP INDEX "idx_events_occurred_at"`);
    await queryRunner.query(`ALTER TABLE "admin_account" DROP COLUMN "totp_enabled"`);
    await queryRunner.query(`ALTER TABLE "admin_account" DROP COLUMN "totp_secret"`);
    await queryRunner.query(`ALTER TABLE "notification_channels" DROP COLUMN "last_test_error"`);
    await queryRunner.query(`ALTER TABLE "notification_channels" DROP COLUMN "last_test_ok"`);
    await queryRunner.query(`ALTER TABLE "notification_channels" DROP COLUMN "last_test_at"`);
  }
}
