import { Column, Entity, PrimaryColumn } from 'typeorm';
import { BIGINT_NUMBER } from '../../data-dir/entities/bigint-number';

/**
 * One Telegram account: what panel-api knows about it (remark, proxy, status, user, last check) as
 * JSON text, and its session sealed with APP_ENCRYPTION_KEY (SessionCipher; null when it has none).
 * `revision` is the store revision of its last write (see StoreRevision).
 */
@Entity('accounts')
export class AccountRow {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  name!: string;

  @Column({ type: 'text' })
  meta!: string;

  @Column({ name: 'sealed_session', type: 'text', nullable: true })
  sealedSession!: string | null;

  @Column({ type: 'bigint', transformer: BIGINT_NUMBER })
  revision!: number;

  @Column({ name: 'updated_at', type: 'bigint', transformer: BIGINT_NUMBER })
  updatedAt!: number;
}
