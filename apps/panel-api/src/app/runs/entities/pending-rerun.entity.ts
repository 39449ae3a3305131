import { Column, Entity, PrimaryColumn } from 'typeorm';
import { EPOCH_MS } from '../../auth/entities/auth-throttle.entity';

/**
 * "Run once more after the wait the bot named" (issue 35), per task and account: in the database so
 * a restart before the wait ends still runs it, and so "once a day" holds across restarts and replicas.
 * The row stays after the rerun started (`due_at` null) to remember the day.
 */
@Entity('pending_reruns')
export class PendingRerun {
  @PrimaryColumn({ name: 'task_name', type: 'varchar', length: 128 })
  taskName!: string;

  @PrimaryColumn({ name: 'account_name', type: 'varchar', length: 128 })
  accountName!: string;

  /** The UTC day (YYYY-MM-DD) the rerun was asked for: one a day per task and account. */
  @Column({ type: 'varchar', length: 10 })
  day!: string;

  /** When it runs (epoch ms); null once it started or was given up. */
  @Column({ name: 'due_at', type: 'bigint', nullable: true, transformer: { to: (value: number | null) => value, from: (value: string | number | null) => (value === null ? null : Number(value)) } })
  dueAt!: number | null;

  /** The run whose answer named the wait. */
  @Column({ name: 'run_id', type: 'varchar', length: 64 })
  runId!: string;

  @Column({ name: 'created_at', type: 'bigint', transformer: EPOCH_MS })
  createdAt!: number;
}
