import { Column, Entity, PrimaryColumn } from 'typeorm';
import { BIGINT_NUMBER } from '../../data-dir/entities/bigint-number';

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

  @Column({ type: 'bigint', transformer: BIGINT_NUMBER })
  revision!: number;

  @Column({ name: 'updated_at', type: 'bigint', transformer: BIGINT_NUMBER })
  updatedAt!: number;
}
