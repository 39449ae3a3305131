import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export const DIGEST_PERIODS = ['daily', 'weekly', 'monthly'] as const;
export type DigestPeriod = (typeof DIGEST_PERIODS)[number];
/** `ai`: written by the model; `template`: the built-in text (AI off, timed out or failed). */
export type DigestSource = 'ai' | 'template';

/** A digest that was produced and handed to the outbox; `period_key` makes a scheduled one happen once. */
@Entity('ai_digests')
export class DigestEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 16 }) period!: DigestPeriod;
  @Column({ name: 'period_key', type: 'varchar', length: 64, unique: true }) periodKey!: string;
  @Column({ name: 'period_start', type: Date }) periodStart!: Date;
  @Column({ name: 'period_end', type: Date }) periodEnd!: Date;
  @Column({ type: 'varchar', length: 16 }) source!: DigestSource;
  @Column({ name: 'fallback_reason', type: 'varchar', length: 64, nullable: true }) fallbackReason!: string | null;
  @Column({ type: 'varchar', length: 255 }) title!: string;
  @Column({ type: 'text' }) body!: string;
  @Column({ name: 'event_id', type: 'integer', nullable: true }) eventId!: number | null;
  @Column({ name: 'created_at', type: Date }) createdAt!: Date;
}
