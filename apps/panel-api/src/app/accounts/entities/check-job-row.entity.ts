import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { EPOCH_MS } from '../../auth/entities/auth-throttle.entity';

/**
 * A status-check job (`POST /api/accounts/status/check-jobs`): its state as the API shows it
 * (`document`, JSON), the replica that runs it (null on one instance) and whether a cancel was asked
 * (by any replica; the one that runs it polls the row).
 */
@Entity('check_jobs')
export class CheckJobRow {
  @PrimaryColumn({ name: 'job_id', type: 'varchar', length: 36 })
  jobId!: string;

  @Column({ name: 'replica_id', type: 'varchar', length: 128, nullable: true })
  replicaId!: string | null;

  @Index('check_jobs_status')
  @Column({ type: 'varchar', length: 16 })
  status!: string;

  @Column({ name: 'cancel_requested', type: 'boolean', default: false })
  cancelRequested!: boolean;

  @Column({ type: 'text' })
  document!: string;

  @Column({ name: 'created_at', type: 'bigint', transformer: EPOCH_MS })
  createdAt!: number;

  @Column({ name: 'updated_at', type: 'bigint', transformer: EPOCH_MS })
  updatedAt!: number;
}
