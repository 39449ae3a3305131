import { MigrationInterface, QueryRunner } from 'typeorm';

/** AI pull-request reviews (one per repository, PR and head SHA) and produced digests. */
export class AiReviewsAndDigests1795315961488 implements MigrationInterface {
  name = 'AiReviewsAndDigests1795315961488';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "ai_pr_reviews" (
        "id" SERIAL PRIMARY KEY,
        "repository_full_name" varchar(255) NOT NULL,
        "pr_number" integer NOT NULL,
        "head_sha" varchar(64) NOT NULL,
        "title" varchar(1024) NOT NULL,
        "html_url" varchar(512) NOT NULL,
        "installation_id" bigint NULL,
        "status" varchar(16) NOT NULL,
        "summary" text NULL,
        "score" integer NULL,
        "merge_risk" varchar(16) NULL,
        "security_risks" text NOT NULL DEFAULT '[]',
        "breaking_risks" text NOT NULL DEFAULT '[]',
        "suggestions" text NOT NULL DEFAULT '[]',
        "missing_tests" text NOT NULL DEFAULT '[]',
        "diff_truncated" boolean NOT NULL DEFAULT false,
        "diff_chars" integer NOT NULL DEFAULT 0,
        "model" varchar(200) NULL,
        "error_code" varchar(64) NULL,
        "error_message" varchar(500) NULL,
        "alerted" boolean NOT NULL DEFAULT false,
        "comment_id" bigint NULL,
        "created_at" TIMESTAMP NOT NULL DEFAULT (now() at time zone 'utc'),
        "updated_at" TIMESTAMP NOT NULL DEFAULT (now() at time zone 'utc'),
        "completed_at" TIMESTAMP NULL,
        CONSTRAINT "UQ_ai_pr_reviews_head" UNIQUE ("repository_full_name", "pr_number", "head_sha")
      )`);
    await queryRunner.query(`CREATE INDEX "IDX_ai_pr_reviews_created" ON "ai_pr_reviews" ("created_at")`);
    await queryRunner.query(`
      CREATE TABLE "ai_digests" (
        "id" SERIAL PRIMARY KEY,
        "period" varchar(16) NOT NULL,
        "period_key" varchar(64) NOT NULL UNIQUE,
        "period_start" TIMESTAMP NOT NULL,
        "period_end" TIMESTAMP NOT NULL,
        "source" varchar(16) NOT NULL,
        "fallback_reason" varchar(64) NULL,
        "title" varchar(255) NOT NULL,
        "body" text NOT NULL,
        "event_id" integer NULL,
        "created_at" TIMESTAMP NOT NULL DEFAULT (now() at time zone 'utc')
      )`);
    await queryRunner.query(`CREATE INDEX "IDX_ai_digests_period_created" ON "ai_digests" ("period", "created_at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "ai_digests"');
    await queryRunner.query('DROP TABLE "ai_pr_reviews"');
  }
}
