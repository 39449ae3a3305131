import { MigrationInterface, QueryRunner } from 'typeorm';

/** Issue 35: the safety governor's day budget and FloodWait hold-back survive a restart. */
export class SafetyDayBudget1796740000000 implements MigrationInterface {
  name = 'SafetyDayBudget1796740000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "account_safety" ADD COLUMN "day" varchar(10) NOT NULL DEFAULT ''`);
    await queryRunner.query(`ALTER TABLE "account_safety" ADD COLUMN "day_count" integer NOT NULL DEFAULT 0`);
    await queryRunner.query(`ALTER TABLE "account_safety" ADD COLUMN "flood_until" bigint NOT NULL DEFAULT 0`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "account_safety" DROP COLUMN "flood_until"`);
    await queryRunner.query(`ALTER TABLE "account_safety" DROP COLUMN "day_count"`);
    await queryRunner.query(`ALTER TABLE "account_safety" DROP COLUMN "day"`);
  }
}
