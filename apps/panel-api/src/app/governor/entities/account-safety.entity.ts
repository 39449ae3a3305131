import { Column, Entity, PrimaryColumn } from 'typeorm';

/** What the safety governor keeps across restarts per account: a pause and the latest FloodWaits. */
@Entity('account_safety')
export class AccountSafety {
  @PrimaryColumn({ name: 'account_name', type: 'varchar', length: 64 })
  accountName!: string;

  /** Epoch milliseconds of the pause, null when the account's automation runs. */
  @Column({ name: 'paused_at', type: 'bigint', nullable: true })
  pausedAt!: string | null;

  @Column({ name: 'pause_reason', type: 'varchar', length: 300, nullable: true })
  pauseReason!: string | null;

  /** JSON array of { at, seconds, method }, newest first. */
  @Column({ name: 'flood_waits', type: 'text' })
  floodWaits!: string;

  @Column({ name: 'updated_at', type: 'bigint' })
  updatedAt!: string;
}
