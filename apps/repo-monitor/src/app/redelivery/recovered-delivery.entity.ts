import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * `missing`: GitHub failed to deliver it and the inbox does not have it; `requested`: a redelivery
 * was asked for; `recovered`: the inbox has it now; `given_up`: outside GitHub's window or asked too often.
 */
export type RecoveredDeliveryStatus = 'missing' | 'requested' | 'recovered' | 'given_up';

/** One webhook delivery (by GitHub's guid, the X-GitHub-Delivery header) the redelivery sweep found failed. */
@Entity('recovered_deliveries')
export class RecoveredDeliveryEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 128, unique: true }) guid!: string;
  @Column({ type: 'varchar', length: 64 }) event!: string;
  @Column({ type: 'varchar', length: 64, nullable: true }) action!: string | null;
  /** GitHub's id of the latest attempt, the one a redelivery is asked for (text: it may outgrow 2^53). */
  @Column({ name: 'github_delivery_id', type: 'varchar', length: 32 }) githubDeliveryId!: string;
  @Column({ name: 'first_attempt_at', type: Date }) firstAttemptAt!: Date;
  @Column({ type: 'varchar', length: 16 }) status!: RecoveredDeliveryStatus;
  @Column({ type: 'integer', default: 0 }) requests!: number;
  @Column({ name: 'last_requested_at', type: Date, nullable: true }) lastRequestedAt!: Date | null;
  @Column({ name: 'resolved_at', type: Date, nullable: true }) resolvedAt!: Date | null;
  @Column({ type: 'varchar', length: 200, nullable: true }) reason!: string | null;
  @Column({ name: 'created_at', type: Date }) createdAt!: Date;
  @Column({ name: 'updated_at', type: Date }) updatedAt!: Date;
}
