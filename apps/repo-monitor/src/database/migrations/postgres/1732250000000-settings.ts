import { MigrationInterface, QueryRunner } from 'typeorm';

export class Settings1732250000000 implements MigrationInterface {
  name = 'Settings1732250000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "settings" (
        "key" varchar(128) PRIMARY KEY NOT NULL,
        "value" text NOT NULL,
        "updated_at" TIMESTAMP NOT NULL DEFAULT (now() at time zone 'utc')
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "settings"`);
  }
}
