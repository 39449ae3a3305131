import { MigrationInterface, QueryRunner } from 'typeorm';

/** Channel kinds discord, slack, teams, ntfy, bark, gotify and email. */
export class MoreChannelKinds1796200000001 implements MigrationInterface {
  name = 'MoreChannelKinds1796200000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "notification_channels" DROP CONSTRAINT IF EXISTS "notification_channels_kind_check"');
    await queryRunner.query(`ALTER TABLE "notification_channels" ADD CONSTRAINT "notification_channels_kind_check" CHECK ("kind" IN ('telegram', 'http_webhook', 'discord', 'slack', 'teams', 'ntfy', 'bark', 'gotify', 'email'))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "notification_channels" WHERE "kind" NOT IN ('telegram', 'http_webhook')`);
    await queryRunner.query('ALTER TABLE "notification_channels" DROP CONSTRAINT IF EXISTS "notification_channels_kind_check"');
    await queryRunner.query(`ALTER TABLE "notification_channels" ADD CONSTRAINT "notification_channels_kind_check" CHECK ("kind" IN ('telegram', 'http_webhook'))`);
  }
}
