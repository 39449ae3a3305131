import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** One finished run (task × account): the row behind the live sign history and GET …/history. */
@Entity('sign_logs')
@Index('IDX_sign_logs_task_created', ['taskName', 'createdAt'])
export class SignLog {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'run_id', type: 'varchar', length: 36 })
  runId!: string;

  @Column({ name: 'task_name', type: 'varchar', length: 64 })
  taskName!: string;

  @Column({ name: 'account_name', type: 'varchar', length: 64 })
  accountName!: string;

  @Column({ type: 'boolean' })
  success!: boolean;

  /** finished, cancelled or timeout. */
  @Column({ type: 'varchar', length: 16 })
  state!: string;

  @Column({ name: 'failure_category', type: 'varchar', length: 32 })
  failureCategory!: string;

  @Column({ type: 'text' })
  message!: string;

  /** manual, schedule or batch. */
  @Column({ type: 'varchar', length: 16 })
  trigger!: string;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  /** success, already_done, failed or unconfirmed when the task reads the bot's answer; null otherwise. */
  @Column({ type: 'varchar', length: 16, nullable: true })
  verdict!: string | null;

  @Column({ name: 'verdict_text', type: 'varchar', length: 500, nullable: true })
  verdictText!: string | null;

  @CreateDateColumn({ name: 'created_at' })
  createdAt!: Date;

  /** When the run started (ISO 8601); null for rows written before the flow log moved into the database. */
  @Column({ name: 'started_at', type: 'varchar', length: 40, nullable: true })
  startedAt!: string | null;

  /** The run's full flow log (a JSON list of entries); null for rows older than that, whose log may still be a history file. */
  @Column({ name: 'flow_log', type: 'text', nullable: true })
  flowLog!: string | null;
}
