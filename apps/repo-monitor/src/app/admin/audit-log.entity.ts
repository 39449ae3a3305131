import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One admin action: who, what, on which target, with optional JSON details (never secrets). */
@Entity({ name: 'audit_log' })
export class AuditLogEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'created_at', type: Date })
  createdAt!: Date;

  @Column({ type: 'varchar', length: 64 })
  actor!: string;

  @Column({ type: 'varchar', length: 64 })
  action!: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  target!: string | null;

  @Column({ type: 'text', nullable: true })
  details!: string | null;

  @Column({ name: 'client_ip', type: 'varchar', length: 64, nullable: true })
  clientIp!: string | null;
}
