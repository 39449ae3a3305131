import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** `skipped`: the listen rule's cooldown, probability or max_daily, or the account's safety budget, let the hit go unanswered. */
export type HitPushStatus = 'pending' | 'sent' | 'failed' | 'skipped';

/**
 * One keyword hit of a listen task. Written before any push is tried, so a failed push never loses
 * it; the push outcome is filled in afterwards. (account, task, chat, message, rule) is unique: a
 * message delivered twice (a reconnect) records one hit per rule and pushes once.
 */
@Entity('keyword_hits')
@Index('UQ_keyword_hits_message', ['accountName', 'taskName', 'chatId', 'messageId', 'ruleIndex'], { unique: true })
@Index('IDX_keyword_hits_hit_at', ['hitAt'])
@Index('IDX_keyword_hits_account', ['accountName', 'hitAt'])
@Index('IDX_keyword_hits_task', ['taskName', 'hitAt'])
@Index('IDX_keyword_hits_chat', ['chatId', 'hitAt'])
export class KeywordHit {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'account_name', type: 'varchar', length: 64 })
  accountName!: string;

  @Column({ name: 'task_name', type: 'varchar', length: 128 })
  taskName!: string;

  @Column({ name: 'chat_id', type: 'varchar', length: 64 })
  chatId!: string;

  @Column({ name: 'chat_title', type: 'varchar', length: 255, nullable: true })
  chatTitle!: string | null;

  @Column({ name: 'message_thread_id', type: 'integer', nullable: true })
  messageThreadId!: number | null;

  @Column({ name: 'sender_id', type: 'varchar', length: 64, nullable: true })
  senderId!: string | null;

  @Column({ name: 'sender_name', type: 'varchar', length: 255, nullable: true })
  senderName!: string | null;

  @Column({ name: 'sender_username', type: 'varchar', length: 64, nullable: true })
  senderUsername!: string | null;

  @Column({ name: 'message_id', type: 'integer' })
  messageId!: number;

  /** Position of the matching keyword rule (action 8) within its task, counted over all its chats. */
  @Column({ name: 'rule_index', type: 'integer' })
  ruleIndex!: number;

  @Column({ name: 'message_text', type: 'text' })
  messageText!: string;

  @Column({ name: 'matched_keyword', type: 'varchar', length: 1024 })
  matchedKeyword!: string;

  @Column({ name: 'message_url', type: 'varchar', length: 255, nullable: true })
  messageUrl!: string | null;

  /** When the message was sent (UTC). */
  @Column({ name: 'hit_at', type: Date })
  hitAt!: Date;

  @Column({ name: 'push_channel', type: 'varchar', length: 32 })
  pushChannel!: string;

  @Column({ name: 'push_status', type: 'varchar', length: 16 })
  pushStatus!: HitPushStatus;

  @Column({ name: 'push_error', type: 'varchar', length: 1024, nullable: true })
  pushError!: string | null;

  @Column({ name: 'created_at', type: Date })
  createdAt!: Date;
}
