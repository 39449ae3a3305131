import { Column, Entity, PrimaryColumn } from 'typeorm';
import { BIGINT_NUMBER } from '../data-dir/entities/bigint-number';

/** A secret every replica needs alike (see SharedSecretStore), sealed with APP_ENCRYPTION_KEY and bound to its name. */
@Entity('shared_secrets')
export class SharedSecretRow {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  name!: string;

  @Column({ type: 'text' })
  sealed!: string;

  @Column({ name: 'created_at', type: 'bigint', transformer: BIGINT_NUMBER })
  createdAt!: number;
}
