import { Column, Entity, PrimaryColumn } from 'typeorm';
import { BIGINT_NUMBER } from './bigint-number';

/**
 * A counter per stored collection (`sign_tasks`), raised in the transaction of every write to it.
 * Raising it locks its row, so writes to one collection commit one after another in revision order,
 * and a replica that reads an unchanged counter knows nothing changed since its last look (one
 * primary-key read instead of the whole collection).
 */
@Entity('store_revisions')
export class StoreRevision {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  scope!: string;

  @Column({ type: 'bigint', transformer: BIGINT_NUMBER })
  revision!: number;
}
