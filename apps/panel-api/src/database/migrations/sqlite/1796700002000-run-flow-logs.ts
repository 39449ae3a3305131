import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 31 item 1: a run's full flow log and start time are kept in its `sign_logs` row instead of
 * `.signer/history/<task>/<run_id>.json`, so any replica shows any run's log with an empty data
 * directory. Existing history files are imported into their rows once at the first start.
 */
export class RunFlowLogs1796700002000 implements MigrationInterface {
  name = 'RunFlowLogs1796700002000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sign_logs" ADD COLUMN "started_at" varchar(40)`);
    await queryRunner.query(`ALTER TABLE "sign_logs" ADD COLUMN "flow_log" text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sign_logs" DROP COLUMN "flow_log"`);
    await queryRunner.query(`ALTER TABLE "sign_logs" DROP COLUMN "started_at"`);
  }
}
