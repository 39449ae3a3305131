import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Routing rules (ordered by position), the facts and routing decision recorded for each notifying
 * event (the "why did it go there" of the console), and the Telegram forum topic of an outbox entry.
 */
export class NotificationRules1796200000000 implements MigrationInterface {
  name = 'NotificationRules1796200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "notification_rules" (
        "id" varchar(36) PRIMARY KEY NOT NULL,
        "position" integer NOT NULL,
        "name" varchar(100) NOT NULL UNIQUE,
        "enabled" boolean NOT NULL DEFAULT (1),
        "match" text NOT NULL,
        "route" text NOT NULL,
        "stop" boolean NOT NULL DEFAULT (0),
        "created_at" datetime NOT NULL,
        "updated_at" datetime NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX "IDX_notification_rules_position" ON "notification_rules" ("position")`);
    await queryRunner.query(`
      CREATE TABLE "event_routing" (
        "event_id" integer PRIMARY KEY NOT NULL REFERENCES "events" ("id") ON DELETE CASCADE,
        "facts" text NOT NULL,
        "decision" text NOT NULL,
        "created_at" datetime NOT NULL
      )`);
    await queryRunner.query(`ALTER TABLE "notification_outbox" ADD COLUMN "message_thread_id" integer NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "notification_outbox" DROP COLUMN "message_thread_id"`);
    await queryRunner.query('DROP TABLE "event_routing"');
    await queryRunner.query('DROP TABLE "notification_rules"');
  }
}
