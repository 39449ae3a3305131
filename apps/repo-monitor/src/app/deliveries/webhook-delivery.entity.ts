import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type DeliveryStatus = 'accepted' | 'processed' | 'failed' | 'duplicate';

/** One inbound GitHub delivery exactly as received (raw body), stored before it is answered. */
@Entity('webhook_deliveries')
export class WebhookDeliveryEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'delivery_id', type: 'varchar', length: 128, unique: true }) deliveryId!: string;
  @Column({ type: 'varchar', length: 64 }) event!: string;
  @Column({ type: 'varchar', length: 64, nullable: true }) action!: string | null;
  @Column({ name: 'installation_id', type: 'bigint', nullable: true }) installationId!: number | null;
  @Column({ name: 'repository_full_name', type: 'varchar', length: 255, nullable: true }) repositoryFullName!: string | null;
  @Column({ type: 'text' }) payload!: string;
  @Column({ type: 'varchar', length: 16 }) status!: DeliveryStatus;
  @Column({ type: 'integer', default: 0 }) attempts!: number;
  @Column({ name: 'last_error', type: 'varchar', length: 500, nullable: true }) lastError!: string | null;
  @Column({ name: 'received_at', type: Date }) receivedAt!: Date;
  @Column({ name: 'processed_at', type: Date, nullable: true }) processedAt!: Date | null;
}
