import { MigrationInterface, QueryRunner } from 'typeorm';

/** Issue 35: the verdict of a run read from the bot's answer, and the answer that decided it. */
export class RunVerdicts1796600000000 implements MigrationInterface {
  name = 'RunVerdicts1796600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sign_logs" ADD COLUMN "verdict" varchar(16)`);
    await queryRunner.query(`ALTER TABLE "sign_logs" ADD COLUMN "verdict_text" varchar(500)`);
    await queryRunner.query(`CREATE INDEX "IDX_sign_logs_verdict_created" ON "sign_logs" ("verdict", "created_at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_sign_logs_verdict_created"`);
    await queryRunner.query(`ALTER TABLE "sign_logs" DROP COLUMN "verdict_text"`);
    await queryRunner.query(`ALTER TABLE "sign_logs" DROP COLUMN "verdict"`);
  }
}
