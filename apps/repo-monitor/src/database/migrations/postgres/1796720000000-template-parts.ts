import { MigrationInterface, QueryRunner } from 'typeorm';

/** Templates for a message's title too (push titles, email subjects): one template per owner, part and event kind. */
export class TemplateParts1796720000000 implements MigrationInterface {
  name = 'TemplateParts1796720000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "notification_templates" ADD COLUMN "part" varchar(8) NOT NULL DEFAULT 'message'`);
    await queryRunner.query('DROP INDEX "IDX_notification_templates_owner_kind"');
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_notification_templates_owner_part_kind" ON "notification_templates" ("owner", "part", "event_kind")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "notification_templates" WHERE "part" <> 'message'`);
    await queryRunner.query('DROP INDEX "IDX_notification_templates_owner_part_kind"');
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_notification_templates_owner_kind" ON "notification_templates" ("owner", "event_kind")`);
    await queryRunner.query('ALTER TABLE "notification_templates" DROP COLUMN "part"');
  }
}
