import { Column, Entity, PrimaryColumn } from 'typeorm';
import { EPOCH_MS } from '../../auth/entities/auth-throttle.entity';

/**
 * One sign or listen task: the validated document as JSON text (the shape of the former
 * `.signer/tasks/<name>.json`, which configuration export and import keep), and the store revision
 * of its last write (see StoreRevision), so a replica re-reads only what changed.
 */
@Entity('sign_tasks')
export class SignTaskRow {
  @PrimaryColumn({ type: 'varchar', length: 128 })
  name!: string;

  @Column({ type: 'text' })
  document!: string;

  @Column({ type: 'bigint', transformer: EPOCH_MS })
  revision!: number;

  @Column({ name: 'updated_at', type: 'bigint', transformer: EPOCH_MS })
  updatedAt!: number;
}
