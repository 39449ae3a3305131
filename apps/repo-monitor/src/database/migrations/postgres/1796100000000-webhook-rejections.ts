import { MigrationInterface, QueryRunner } from 'typeorm';

/** Requests the webhook route refused (reason, identifying headers, size; never the body), for the Deliveries page. */
export class WebhookRejections1796100000000 implements MigrationInterface {
  name = 'WebhookRejections1796100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "webhook_rejections" (
        "id" SERIAL PRIMARY KEY,
        "received_at" TIMESTAMP NOT NULL,
        "reason" varchar(32) NOT NULL,
        "http_status" integer NOT NULL,
        "detail" varchar(200) NULL,
        "delivery_id" varchar(128) NULL,
        "event" varchar(64) NULL,
        "remote_address" varchar(64) NULL,
        "user_agent" varchar(100) NULL,
        "body_bytes" integer NULL
      )`);
    await queryRunner.query(`CREATE INDEX "IDX_webhook_rejections_reason" ON "webhook_rejections" ("reason", "id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "webhook_rejections"');
  }
}
