import { MigrationInterface, QueryRunner } from 'typeorm';

/** Issue 33: the last test of each notification channel, shown on its card in the settings. */
export class NotificationChannelTests1796100000000 implements MigrationInterface {
  name = 'NotificationChannelTests1796100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "notification_channel_tests" (
        "channel" varchar(32) PRIMARY KEY NOT NULL,
        "tested_at" bigint NOT NULL,
        "ok" boolean NOT NULL,
        "error_code" varchar(32),
        "status" integer,
        "detail" varchar(300)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "notification_channel_tests"`);
  }
}
