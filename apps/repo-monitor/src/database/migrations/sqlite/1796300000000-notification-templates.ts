import { MigrationInterface, QueryRunner } from 'typeorm';

/** Message templates of channels and rules, one per owner and event kind, removed with their channel or rule. */
export class NotificationTemplates1796300000000 implements MigrationInterface {
  name = 'NotificationTemplates1796300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "notification_templates" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "owner" varchar(48) NOT NULL,
        "channel_id" varchar(36) NULL REFERENCES "notification_channels" ("id") ON DELETE CASCADE,
        "rule_id" varchar(36) NULL REFERENCES "notification_rules" ("id") ON DELETE CASCADE,
        "event_kind" varchar(100) NOT NULL,
        "body" text NOT NULL,
        "created_at" datetime NOT NULL,
        "updated_at" datetime NOT NULL,
        CONSTRAINT "CHK_notification_templates_owner" CHECK (("channel_id" IS NULL) <> ("rule_id" IS NULL))
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_notification_templates_owner_kind" ON "notification_templates" ("owner", "event_kind")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "notification_templates"');
  }
}
