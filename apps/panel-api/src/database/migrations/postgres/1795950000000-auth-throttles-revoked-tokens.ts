import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 29: guesses at an admin account counted in the database (so every replica slows the same
 * guessing), and access tokens revoked by logging out. Times are milliseconds since the epoch.
 */
export class AuthThrottlesRevokedTokens1795950000000 implements MigrationInterface {
  name = 'AuthThrottlesRevokedTokens1795950000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "auth_throttles" (
        "key" varchar(96) PRIMARY KEY NOT NULL,
        "failures" integer NOT NULL,
        "last_failure_at" bigint NOT NULL
      )`);
    await queryRunner.query(`
      CREATE TABLE "revoked_tokens" (
        "jti" varchar(64) PRIMARY KEY NOT NULL,
        "expires_at" bigint NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX "IDX_revoked_tokens_expires_at" ON "revoked_tokens" ("expires_at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "revoked_tokens"`);
    await queryRunner.query(`DROP TABLE "auth_throttles"`);
  }
}
