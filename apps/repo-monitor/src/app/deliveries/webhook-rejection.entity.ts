import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Why POST /webhooks/github turned a request away. */
export const REJECTION_REASONS = [
  'no_secret',
  'bad_signature',
  'too_many_bad_signatures',
  'too_large',
  'missing_headers',
  'malformed_headers',
  'malformed_body',
  'unsupported_content_type',
  'unavailable',
  'other',
] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

/**
 * A request to the webhook route that was refused, kept so a person wiring up a GitHub App can see
 * why. Never its body: the headers that identify it, its size and the reason. Bounded in number
 * (WebhookRejectionRepository prunes) and in the rate they are written (WebhookRejectionRecorder).
 */
@Entity('webhook_rejections')
export class WebhookRejectionEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'received_at', type: Date }) receivedAt!: Date;
  @Column({ type: 'varchar', length: 32 }) reason!: RejectionReason;
  @Column({ name: 'http_status', type: 'integer' }) httpStatus!: number;
  @Column({ type: 'varchar', length: 200, nullable: true }) detail!: string | null;
  @Column({ name: 'delivery_id', type: 'varchar', length: 128, nullable: true }) deliveryId!: string | null;
  @Column({ type: 'varchar', length: 64, nullable: true }) event!: string | null;
  @Column({ name: 'remote_address', type: 'varchar', length: 64, nullable: true }) remoteAddress!: string | null;
  @Column({ name: 'user_agent', type: 'varchar', length: 100, nullable: true }) userAgent!: string | null;
  @Column({ name: 'body_bytes', type: 'integer', nullable: true }) bodyBytes!: number | null;
}
