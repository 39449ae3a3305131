import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One account's device keep-alive bookkeeping: when it was last woken and how the last attempt went.
 * In the database, so the replica that owns the account next finds it (issue 31); times are ISO 8601 UTC.
 */
@Entity('keepalive_accounts')
export class KeepaliveAccountRow {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  account!: string;

  @Column({ name: 'last_keepalive_at', type: 'varchar', length: 40, nullable: true })
  lastKeepaliveAt!: string | null;

  @Column({ name: 'last_attempt_at', type: 'varchar', length: 40 })
  lastAttemptAt!: string;

  @Column({ name: 'last_code', type: 'varchar', length: 64, nullable: true })
  lastCode!: string | null;

  @Column({ name: 'last_message', type: 'text' })
  lastMessage!: string;
}
