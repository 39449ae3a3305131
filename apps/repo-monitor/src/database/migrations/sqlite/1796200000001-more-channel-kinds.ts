import { MigrationInterface, QueryRunner } from 'typeorm';

const COLUMNS = '"id", "kind", "name", "enabled", "config", "secret", "allow_private", "event_kinds", "created_at", "updated_at", "last_test_at", "last_test_ok", "last_test_error"';

function table(name: string, kinds: string): string {
  return `
      CREATE TABLE "${name}" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "kind" varchar(16) NOT NULL CHECK ("kind" IN (${kinds})),
        "name" varchar(100) NOT NULL UNIQUE,
        "enabled" boolean NOT NULL DEFAULT (1),
        "config" text NOT NULL,
        "secret" text,
        "allow_private" boolean NOT NULL DEFAULT (0),
        "event_kinds" text NOT NULL DEFAULT ('[]'),
        "created_at" datetime NOT NULL,
        "updated_at" datetime NOT NULL,
        "last_test_at" datetime NULL,
        "last_test_ok" boolean NULL,
        "last_test_error" varchar(500) NULL
      )`;
}

/** Channel kinds discord, slack, teams, ntfy, bark, gotify and email (SQLite changes a CHECK by rebuilding the table). */
export class MoreChannelKinds1796200000001 implements MigrationInterface {
  name = 'MoreChannelKinds1796200000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await this.rebuild(queryRunner, "'telegram', 'http_webhook', 'discord', 'slack', 'teams', 'ntfy', 'bark', 'gotify', 'email'");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "notification_channels" WHERE "kind" NOT IN ('telegram', 'http_webhook')`);
    await this.rebuild(queryRunner, "'telegram', 'http_webhook'");
  }

  private async rebuild(queryRunner: QueryRunner, kinds: string): Promise<void> {
    await queryRunner.query(table('notification_channels_rebuilt', kinds));
    await queryRunner.query(`INSERT INTO "notification_channels_rebuilt" (${COLUMNS}) SELECT ${COLUMNS} FROM "notification_channels"`);
    await queryRunner.query('DROP TABLE "notification_channels"');
    await queryRunner.query('ALTER TABLE "notification_channels_rebuilt" RENAME TO "notification_channels"');
  }
}
