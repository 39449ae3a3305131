import { Column, Entity, PrimaryColumn } from 'typeorm';

/** What the safety governor keeps across restarts per account: a pause, the latest FloodWaits, the day's writes and a FloodWait in force. */
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

  /** The UTC day `dayCount` counts (YYYY-MM-DD), '' before the first write. */
  @Column({ name: 'day', type: 'varchar', length: 10, default: '' })
  day!: string;

  @Column({ name: 'day_count', type: 'integer', default: 0 })
  dayCount!: number;

  /** Epoch milliseconds before which no write goes out (a FloodWait in force), 0 for none. */
  @Column({ name: 'flood_until', type: 'bigint', default: 0 })
  floodUntil!: string;

  @Column({ name: 'updated_at', type: 'bigint' })
  updatedAt!: string;
}
