import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ClusterService } from './cluster.service';

const DATABASE_NOW = `(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::bigint`;

/** A claim left `running` by a replica that lost the account: its run ended without a record. */
export interface InterruptedClaim {
  job: string;
  dueAt: number;
  runId: string | null;
  replicaId: string;
  claimedAt: number;
}

/** A due run of a job: the key of its claim. */
export interface ClaimKey {
  job: string;
  dueAt: number;
}

/** A claim being taken or taken here whose run is not yet registered (going or waiting): never an orphan. */
interface ClaimNote extends ClaimKey {
  /** Claim calls for this key still in flight here (a tick and a catch-up may race). */
  calls: number;
  won: boolean;
}

/**
 * Each due scheduled run fires once across the replicas: the replica about to run it inserts
 * (job, due time) into `job_claims`, fenced by the account's lease (or the leader lease for system
 * jobs) in the same statement; a second replica's insert for the same due time finds the row and
 * does nothing. On SQLite (one instance) every claim succeeds without a row.
 */
@Injectable()
export class JobClaims {
  private readonly logger = new Logger(JobClaims.name);
  private readonly unstarted = new Map<string, ClaimNote>();

  constructor(
    private readonly cluster: ClusterService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** Claims a due run of an account's job; false when another replica claimed it or this replica does not own the account. */
  async claimForAccount(job: string, dueAt: number, accountName: string): Promise<boolean> {
    if (!this.cluster.active) return true;
    const epoch = this.cluster.epochOf(accountName);
    if (epoch === undefined) return false;
    // Noted before the row can exist, so a takeover's orphan search (interruptOrphans) never takes a
    // claim whose run is about to start here; the note ends when the run is registered (settled).
    const key = noteKey(job, dueAt);
    const note = this.unstarted.get(key) ?? { job, dueAt, calls: 0, won: false };
    note.calls += 1;
    this.unstarted.set(key, note);
    try {
      if (await this.insertAccountClaim(job, dueAt, accountName, epoch)) {
        note.won = true;
        return true;
      }
    } finally {
      note.calls -= 1;
      // A call that lost (another replica's claim, or a race with this replica's own winner) leaves the winner's note.
      if (note.calls === 0 && !note.won && this.unstarted.get(key) === note) this.unstarted.delete(key);
    }
    await this.countIfFenced(job, dueAt, accountName);
    return false;
  }

  /** The claim's run is registered here (going or waiting), or the claim is closed or given up: it needs no note any more. */
  settled(claim: ClaimKey): void {
    this.unstarted.delete(noteKey(claim.job, claim.dueAt));
  }

  private async insertAccountClaim(job: string, dueAt: number, accountName: string, epoch: number): Promise<boolean> {
    const rows = (await this.dataSource.query(
      `INSERT INTO "job_claims" ("job", "due_at", "account", "replica_id", "epoch", "state", "claimed_at")
       SELECT $1::varchar, $2::bigint, $3::varchar, $4::varchar, $5::bigint, 'running', ${DATABASE_NOW}
        WHERE EXISTS (SELECT 1 FROM "account_leases" WHERE "account" = $3::varchar AND "owner" = $4::varchar AND "epoch" = $5::bigint AND "expires_at" > ${DATABASE_NOW})
       ON CONFLICT ("job", "due_at") DO NOTHING
       RETURNING "job"`,
      [job, dueAt, accountName, this.cluster.replicaId, epoch],
    )) as unknown[];
    return rows.length > 0;
  }

  /** Claims a due run of a system job for the leader; false when already claimed or this replica does not lead. */
  async claimForLeader(job: string, dueAt: number): Promise<boolean> {
    if (!this.cluster.active) return true;
    const epoch = this.cluster.leaderEpoch();
    if (epoch === undefined) return false;
    const rows = (await this.dataSource.query(
      `INSERT INTO "job_claims" ("job", "due_at", "account", "replica_id", "epoch", "state", "claimed_at")
       SELECT $1::varchar, $2::bigint, NULL, $3::varchar, $4::bigint, 'running', ${DATABASE_NOW}
        WHERE EXISTS (SELECT 1 FROM "cluster_leader" WHERE "name" = 'scheduler' AND "owner" = $3::varchar AND "epoch" = $4::bigint AND "expires_at" > ${DATABASE_NOW})
       ON CONFLICT ("job", "due_at") DO NOTHING
       RETURNING "job"`,
      [job, dueAt, this.cluster.replicaId, epoch],
    )) as unknown[];
    return rows.length > 0;
  }

  /** Whether a due run was claimed by any replica. */
  async claimed(job: string, dueAt: number): Promise<boolean> {
    if (!this.cluster.active) return false;
    const rows = (await this.dataSource.query(`SELECT 1 FROM "job_claims" WHERE "job" = $1 AND "due_at" = $2`, [job, dueAt])) as unknown[];
    return rows.length > 0;
  }

  /** Remembers which run a claim started (so its end, or its loss, can be told). */
  async attachRun(job: string, dueAt: number, runId: string): Promise<void> {
    if (!this.cluster.active) return;
    await this.dataSource.query(`UPDATE "job_claims" SET "run_id" = $3 WHERE "job" = $1 AND "due_at" = $2 AND "replica_id" = $4`, [job, dueAt, runId, this.cluster.replicaId]);
  }

  /** Marks a claim as over: `done` once its run is recorded, `skipped` when it could not start. */
  async finish(where: { runId: string } | ClaimKey, state: 'done' | 'skipped'): Promise<void> {
    if (!this.cluster.active) return;
    if (!('runId' in where)) this.settled(where);
    if ('runId' in where) {
      await this.dataSource.query(`UPDATE "job_claims" SET "state" = $2 WHERE "run_id" = $1 AND "replica_id" = $3 AND "state" = 'running'`, [where.runId, state, this.cluster.replicaId]);
    } else {
      await this.dataSource.query(`UPDATE "job_claims" SET "state" = $3 WHERE "job" = $1 AND "due_at" = $2 AND "replica_id" = $4 AND "state" = 'running'`, [
        where.job,
        where.dueAt,
        state,
        this.cluster.replicaId,
      ]);
    }
  }

  /**
   * The claims of an account still `running` that no live run answers for, now that this replica owns
   * the account: those on another replica died with its lease; this replica's own were stopped when it
   * stopped trusting its leases (a pause or a lost database shorter than the lease), and their records
   * were refused. This replica's own claims stay when `busy()` names them (a run going or waiting
   * here, read inside the transaction), when a claim call noted them, or when they were taken after
   * the transaction began. They become `interrupted` in the caller's transaction (the update is the
   * claim, so once); a claim whose run has a history row after all is closed as `done` instead.
   */
  async interruptOrphans(manager: EntityManager, accountName: string, busy: () => readonly ClaimKey[]): Promise<InterruptedClaim[]> {
    if (!this.cluster.active) return [];
    // The transaction has begun (the caller's fence ran in it): a claim noted after this read is newer than it.
    const kept = [...busy(), ...this.unstarted.values()];
    const result = (await manager.query(
      `UPDATE "job_claims" AS "claim"
          SET "state" = CASE WHEN EXISTS (SELECT 1 FROM "sign_logs" WHERE "sign_logs"."run_id" = "claim"."run_id") THEN 'done' ELSE 'interrupted' END
        WHERE "claim"."account" = $1 AND "claim"."state" = 'running'
          AND NOT ("claim"."replica_id" = $2 AND (
                "claim"."claimed_at" >= (EXTRACT(EPOCH FROM transaction_timestamp()) * 1000)::bigint
             OR ("claim"."job", "claim"."due_at") IN (SELECT "job", "due_at" FROM unnest($3::varchar[], $4::bigint[]) AS "kept" ("job", "due_at"))))
        RETURNING "claim"."job", "claim"."due_at", "claim"."run_id", "claim"."replica_id", "claim"."claimed_at", "claim"."state"`,
      [accountName, this.cluster.replicaId, kept.map((claim) => claim.job), kept.map((claim) => claim.dueAt)],
    )) as [Array<{ job: string; due_at: string | number; run_id: string | null; replica_id: string; claimed_at: string | number; state: string }>, number];
    return result[0]
      .filter((row) => row.state === 'interrupted')
      .map((row) => ({ job: row.job, dueAt: Number(row.due_at), runId: row.run_id, replicaId: row.replica_id, claimedAt: Number(row.claimed_at) }));
  }

  /** Drops claims older than `olderThanMs` (maintenance). */
  async prune(olderThanMs: number): Promise<void> {
    if (!this.cluster.active) return;
    await this.dataSource.query(`DELETE FROM "job_claims" WHERE "due_at" < ${DATABASE_NOW} - $1`, [olderThanMs]);
  }

  private async countIfFenced(job: string, dueAt: number, accountName: string): Promise<void> {
    try {
      if (!(await this.claimed(job, dueAt))) this.cluster.countRefusedWrite(accountName, `claim of ${job} at ${new Date(dueAt).toISOString()}`);
    } catch (error) {
      this.logger.warn(`Could not tell why the claim of ${job} was refused: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

function noteKey(job: string, dueAt: number): string {
  return `${job}\u0000${dueAt}`;
}
