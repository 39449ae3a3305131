import { Column, Entity, PrimaryColumn } from 'typeorm';
import { EPOCH_MS } from '../../auth/entities/auth-throttle.entity';
import { BIGINT_NUMBER } from '../../data-dir/entities/bigint-number';

/**
 * A backup archive kept in one replica's data directory (`backups/`): which replica holds it, so
 * any replica can list it and send a download or delete there.
 */
@Entity('local_backups')
export class LocalBackupRow {
  @PrimaryColumn({ name: 'replica_id', type: 'varchar', length: 128 })
  replicaId!: string;

  @PrimaryColumn({ type: 'varchar', length: 128 })
  name!: string;

  @Column({ name: 'size_bytes', type: 'bigint', transformer: BIGINT_NUMBER })
  sizeBytes!: number;

  @Column({ name: 'modified_at', type: 'bigint', transformer: EPOCH_MS })
  modifiedAt!: number;
}
