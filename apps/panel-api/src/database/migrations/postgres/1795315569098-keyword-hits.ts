import { MigrationInterface, QueryRunner } from 'typeorm';

export class KeywordHits1795315569098 implements MigrationInterface {
  name = 'KeywordHits1795315569098';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "keyword_hits" (
        "id" SERIAL PRIMARY KEY,
        "account_name" varchar(64) NOT NULL,
        "task_name" varchar(128) NOT NULL,
        "chat_id" varchar(64) NOT NULL,
        "chat_title" varchar(255),
        "message_thread_id" integer,
        "sender_id" varchar(64),
        "sender_name" varchar(255),
        "sender_username" varchar(64),
        "message_id" integer NOT NULL,
        "rule_index" integer NOT NULL,
        "message_text" text NOT NULL,
        "matched_keyword" varchar(1024) NOT NULL,
        "message_url" varchar(255),
        "hit_at" TIMESTAMP NOT NULL,
        "push_channel" varchar(32) NOT NULL,
        "push_status" varchar(16) NOT NULL,
        "push_error" varchar(1024),
        "created_at" TIMESTAMP NOT NULL
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_keyword_hits_message" ON "keyword_hits" ("account_name", "task_name", "chat_id", "message_id", "rule_index")`);
    await queryRunner.query(`CREATE INDEX "IDX_keyword_hits_hit_at" ON "keyword_hits" ("hit_at")`);
    await queryRunner.query(`CREATE INDEX "IDX_keyword_hits_account" ON "keyword_hits" ("account_name", "hit_at")`);
    await queryRunner.query(`CREATE INDEX "IDX_keyword_hits_task" ON "keyword_hits" ("task_name", "hit_at")`);
    await queryRunner.query(`CREATE INDEX "IDX_keyword_hits_chat" ON "keyword_hits" ("chat_id", "hit_at")`);
    await queryRunner.query(`
      CREATE TABLE "listener_watermarks" (
        "account_name" varchar(64) NOT NULL,
        "chat_id" varchar(64) NOT NULL,
        "last_message_id" integer NOT NULL,
        "updated_at" TIMESTAMP NOT NULL,
        PRIMARY KEY ("account_name", "chat_id")
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "listener_watermarks"`);
    await queryRunner.query(`DROP TABLE "keyword_hits"`);
  }
}
