import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { EPOCH_MS } from './auth-throttle.entity';

/** An access token logged out before it expired (its `jti`); kept until it would have expired anyway. */
@Entity('revoked_tokens')
export class RevokedToken {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  jti!: string;

  @Index('IDX_revoked_tokens_expires_at')
  @Column({ name: 'expires_at', type: 'bigint', transformer: EPOCH_MS })
  expiresAt!: number;
}
