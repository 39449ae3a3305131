import { Column, Entity, PrimaryColumn } from 'typeorm';
import { EPOCH_MS } from '../../auth/entities/auth-throttle.entity';

/**
 * The last test of one notification channel (bot, bark, server_chan, ntfy, webhook): kept in the
 * database so the settings page shows it after a reload and on every replica.
 */
@Entity('notification_channel_tests')
export class ChannelTest {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  channel!: string;

  @Column({ name: 'tested_at', type: 'bigint', transformer: EPOCH_MS })
  testedAt!: number;

  @Column({ type: 'boolean' })
  ok!: boolean;

  /** Why it failed, as a stable code (`dns_failed`, `timeout`, `http_error`, ...); null when it worked. */
  @Column({ name: 'error_code', type: 'varchar', length: 32, nullable: true })
  errorCode!: string | null;

  /** The receiver's HTTP status, when there was an answer. */
  @Column({ type: 'integer', nullable: true })
  status!: number | null;

  /** What the receiver said (Telegram's description, the start of an answer); no secret. */
  @Column({ type: 'varchar', length: 300, nullable: true })
  detail!: string | null;
}
