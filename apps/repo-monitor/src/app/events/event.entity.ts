import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { EventCategory } from '../common/event-category';

/** Something that happened on a repository, unique by its dedupe fingerprint. */
@Entity('events')
export class EventEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'repository_id', type: 'integer', nullable: true }) repositoryId!: number | null;
  @Column({ name: 'delivery_id', type: 'varchar', length: 128, nullable: true }) deliveryId!: string | null;
  @Column({ type: 'varchar', length: 64 }) kind!: string;
  @Column({ type: 'varchar', length: 16 }) category!: EventCategory;
  @Column({ type: 'varchar', length: 1024 }) title!: string;
  @Column({ name: 'body_text', type: 'text' }) bodyText!: string;
  @Column({ name: 'html_url', type: 'varchar', length: 512, nullable: true }) htmlUrl!: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) actor!: string | null;
  @Column({ type: 'varchar', length: 128, unique: true }) fingerprint!: string;
  @Column({ type: 'boolean', default: false }) notified!: boolean;
  @Column({ name: 'occurred_at', type: Date }) occurredAt!: Date;
  @Column({ name: 'created_at', type: Date }) createdAt!: Date;
}
