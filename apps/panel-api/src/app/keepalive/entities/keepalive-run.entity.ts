import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The last device keep-alive run (per replica that ran it), as its JSON result. */
@Entity('keepalive_runs')
export class KeepaliveRunRow {
  @PrimaryColumn({ name: 'replica_id', type: 'varchar', length: 64 })
  replicaId!: string;

  @Column({ type: 'text' })
  run!: string;

  @Column({ name: 'finished_at', type: 'varchar', length: 40 })
  finishedAt!: string;
}
