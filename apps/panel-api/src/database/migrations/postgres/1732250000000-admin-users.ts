import { MigrationInterface, QueryRunner } from 'typeorm';

export class AdminUsers1732250000000 implements MigrationInterface {
  name = 'AdminUsers1732250000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "admin_users" (
        "id" SERIAL PRIMARY KEY,
        "username" varchar(64) NOT NULL,
        "password_hash" varchar(255) NOT NULL,
        "totp_secret" varchar(64),
        "totp_enabled" boolean NOT NULL DEFAULT false,
        "token_version" integer NOT NULL DEFAULT 0,
        "created_at" TIMESTAMP NOT NULL DEFAULT (now() at time zone 'utc'),
        "updated_at" TIMESTAMP NOT NULL DEFAULT (now() at time zone 'utc'),
        CONSTRAINT "UQ_admin_users_username" UNIQUE ("username")
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "admin_users"`);
  }
}
