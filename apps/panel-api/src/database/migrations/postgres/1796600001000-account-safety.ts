import { MigrationInterface, QueryRunner } from 'typeorm';

/** Issue 35: the safety governor's pause and latest FloodWaits per account. */
export class AccountSafety1796600001000 implements MigrationInterface {
  name = 'AccountSafety1796600001000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "account_safety" (
        "account_name" varchar(64) PRIMARY KEY NOT NULL,
        "paused_at" bigint,
        "pause_reason" varchar(300),
        "flood_waits" text NOT NULL,
        "updated_at" bigint NOT NULL
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "account_safety"`);
  }
}
