import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export const OUTBOX_STATES = ['pending', 'sending', 'sent', 'dead', 'suppressed'] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];
/** `single`: one event; `aggregate`: events merged within the window; `burst`: one summary of a burst. */
export type OutboxRole = 'single' | 'aggregate' | 'burst';

/** One notification to one channel, written in the same transaction as its event. */
@Entity('notification_outbox')
export class OutboxEntryEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'idempotency_key', type: 'varchar', length: 255, unique: true }) idempotencyKey!: string;
  @Column({ name: 'event_id', type: 'integer', nullable: true }) eventId!: number | null;
  @Column({ name: 'channel_id', type: 'varchar', length: 64 }) channelId!: string;
  @Column({ name: 'channel_kind', type: 'varchar', length: 16 }) channelKind!: string;
  @Column({ name: 'group_key', type: 'varchar', length: 512 }) groupKey!: string;
  @Column({ type: 'varchar', length: 16, default: 'single' }) role!: OutboxRole;
  @Column({ name: 'aggregated_into', type: 'integer', nullable: true }) aggregatedInto!: number | null;
  @Column({ name: 'item_count', type: 'integer', default: 1 }) itemCount!: number;
  @Column({ type: 'text' }) message!: string;
  /** Telegram forum topic the message goes to (a rule's or the channel's default); null: the chat itself. */
  @Column({ name: 'message_thread_id', type: 'integer', nullable: true }) messageThreadId!: number | null;
  @Column({ type: 'varchar', length: 16 }) state!: OutboxState;
  @Column({ type: 'integer', default: 0 }) attempts!: number;
  @Column({ name: 'next_attempt_at', type: Date }) nextAttemptAt!: Date;
  @Column({ name: 'lease_until', type: Date, nullable: true }) leaseUntil!: Date | null;
  @Column({ name: 'last_error_code', type: 'varchar', length: 64, nullable: true }) lastErrorCode!: string | null;
  @Column({ name: 'last_error', type: 'varchar', length: 500, nullable: true }) lastError!: string | null;
  @Column({ name: 'sent_at', type: Date, nullable: true }) sentAt!: Date | null;
  @Column({ name: 'created_at', type: Date }) createdAt!: Date;
  @Column({ name: 'updated_at', type: Date }) updatedAt!: Date;
}
