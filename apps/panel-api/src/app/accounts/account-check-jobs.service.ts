import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { In, Repository } from 'typeorm';
import { DataDirectory } from '../data-dir/data-directory';
import { readJsonObjectFile } from '../data-dir/json-file-store';
import { AccountCheckResult, AccountStatusService, CheckSummary, summarize } from './account-status.service';
import { PanelError } from '../common/panel-error';
import { ClusterService } from '../cluster/cluster.service';
import { CheckJobRow } from './entities/check-job-row.entity';

export type CheckJobStatus = 'running' | 'canceling' | 'canceled' | 'completed' | 'failed' | 'interrupted';

export interface CheckJob {
  job_id: string;
  status: CheckJobStatus;
  account_names: string[];
  timeout_seconds: number;
  progress: { done: number; total: number };
  /** Partial while running, final once the job ended. */
  result: CheckSummary;
  error: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** What `check_jobs.document` holds: the job without its status (the row's `status` column is the one truth). */
type StoredJobDocument = Omit<CheckJob, 'status'>;

const JOB_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const OPEN_STATUSES: CheckJobStatus[] = ['running', 'canceling'];
/** How often the replica that runs a job looks whether another replica asked to cancel it. */
export const CHECK_JOB_CANCEL_POLL_MS = 500;

export function isJobId(value: string): boolean {
  return JOB_ID_PATTERN.test(value);
}

interface ActiveJob {
  job: CheckJob;
  cancelRequested: boolean;
  done: Promise<void>;
  /** The job's writes, one after the other, so a later progress never lands before an earlier one. */
  writes: Promise<void>;
  forwardAuthorization?: string;
}

/**
 * Asynchronous status checks, one at a time per instance, each a row of `check_jobs` (both
 * databases), rewritten after every account. Any replica answers a job's status from the row, and a
 * cancel asked of any replica marks the row (`cancel_requested`, status `canceling`); the replica
 * that runs the job polls its row and stops. A job still open whose replica is no longer live (it
 * died, or was paused past its lease) is ended as `interrupted` by the first replica that reads it,
 * and the writes of a replica that comes back after that are refused (it stops the job). A job found
 * open at start that this instance ran (on one instance: every job) was cut off by a stop and is
 * `failed`, as before.
 */
@Injectable()
export class AccountCheckJobsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(AccountCheckJobsService.name);
  private active?: ActiveJob;
  private cancelPoll?: NodeJS.Timeout;

  constructor(
    @InjectRepository(CheckJobRow) private readonly rows: Repository<CheckJobRow>,
    private readonly status: AccountStatusService,
    private readonly cluster: ClusterService,
    private readonly dataDirectory: DataDirectory,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.importJobFiles();
    const open = await this.rows.findBy({ status: In(OPEN_STATUSES) });
    if (open.length === 0) return;
    const live = new Set((await this.cluster.otherReplicas()).map((replica) => replica.id));
    for (const row of open) {
      if (this.cluster.active && row.replicaId && row.replicaId !== this.cluster.replicaId) {
        if (!live.has(row.replicaId)) await this.interrupt(row);
        continue;
      }
      await this.finishRow(row.jobId, 'failed', { error: 'The service stopped while this job was running' });
    }
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.cancelPoll);
    if (this.active) {
      this.active.cancelRequested = true;
      await this.active.done;
    }
  }

  /** `forwardAuthorization`: the caller's token, kept in memory only, to check another replica's accounts at their owner. */
  async start(accountNames: string[] | undefined, timeoutSeconds: number, forwardAuthorization?: string): Promise<CheckJob> {
    if (this.active) throw new PanelError('check_job_running', `Status check job ${this.active.job.job_id} is still running; wait for it or cancel it`);
    const names = this.status.targets(accountNames);
    const now = new Date();
    const job: CheckJob = {
      job_id: randomUUID(),
      status: 'running',
      account_names: names,
      timeout_seconds: timeoutSeconds,
      progress: { done: 0, total: names.length },
      result: summarize([], names.length),
      error: null,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      finished_at: null,
    };
    const state: ActiveJob = { job, cancelRequested: false, done: Promise.resolve(), writes: Promise.resolve(), forwardAuthorization };
    // Claimed before the insert, so two requests at once cannot both start one.
    this.active = state;
    try {
      await this.rows.insert({
        jobId: job.job_id,
        replicaId: this.cluster.active ? this.cluster.replicaId : null,
        status: 'running',
        cancelRequested: false,
        document: documentOf(job),
        createdAt: now.getTime(),
        updatedAt: now.getTime(),
      });
    } catch (error) {
      this.active = undefined;
      throw error;
    }
    this.watchCancel(state);
    state.done = this.execute(state).finally(() => {
      clearInterval(this.cancelPoll);
      if (this.active === state) this.active = undefined;
    });
    return { ...job };
  }

  /** The job as stored, from any replica; a job whose replica is gone is ended as `interrupted` first. */
  async get(jobId: string): Promise<CheckJob> {
    let row = await this.rows.findOneBy({ jobId });
    if (!row) throw new PanelError('check_job_not_found', `Status check job ${jobId} not found`);
    if (OPEN_STATUSES.includes(row.status as CheckJobStatus) && !(await this.runnerLive(row))) {
      await this.interrupt(row);
      row = (await this.rows.findOneBy({ jobId })) ?? row;
    }
    return viewOf(row);
  }

  /** Asks the job to stop, from any replica: the replica that runs it sees the row within CHECK_JOB_CANCEL_POLL_MS. */
  async cancel(jobId: string): Promise<CheckJob> {
    const job = await this.get(jobId);
    if (!OPEN_STATUSES.includes(job.status)) {
      throw new PanelError('check_job_not_running', `Status check job ${jobId} is ${job.status}; only a running job can be cancelled`);
    }
    const updated = await this.rows
      .createQueryBuilder()
      .update()
      .set({ status: 'canceling', cancelRequested: true, updatedAt: Date.now() })
      .where({ jobId, status: In(OPEN_STATUSES) })
      .execute();
    if (this.active?.job.job_id === jobId) this.requestCancel(this.active);
    if (!updated.affected) return this.get(jobId);
    return { ...job, status: 'canceling' };
  }

  /**
   * An earlier version kept each job as `.signer/jobs/<job_id>.json`: each becomes a row (a job the
   * database holds already keeps its row) and the file is removed. A file left running names no
   * replica of this version, so the sweep after this ends it as cut off by a stop.
   */
  private async importJobFiles(): Promise<void> {
    const folder = join(this.dataDirectory.signer, 'jobs');
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      return;
    }
    let imported = 0;
    for (const name of names) {
      if (!name.endsWith('.json') || name.startsWith('.') || !isJobId(name.slice(0, -'.json'.length))) continue;
      const path = join(folder, name);
      try {
        const job = readJsonObjectFile(path) as unknown as (CheckJob & { replica_id?: string }) | undefined;
        if (!job || job.job_id !== name.slice(0, -'.json'.length)) continue;
        const { replica_id: _replica, ...stored } = job;
        const updatedAt = Date.parse(job.updated_at);
        await this.rows
          .createQueryBuilder()
          .insert()
          .values({
            jobId: job.job_id,
            replicaId: null,
            status: String(job.status).slice(0, 16),
            cancelRequested: false,
            document: documentOf(stored),
            createdAt: Date.parse(job.created_at) || Date.now(),
            updatedAt: Number.isFinite(updatedAt) ? updatedAt : Date.now(),
          })
          .orIgnore()
          .execute();
        rmSync(path, { force: true });
        imported += 1;
      } catch (error) {
        this.logger.warn(`Status check job file ${path} was not imported: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (imported) this.logger.log(`Imported ${imported} status check job file(s) of ${folder} into the database`);
  }

  /** Waits for the running job (tests and shutdown). */
  async idle(): Promise<void> {
    await this.active?.done;
  }

  private async execute(state: ActiveJob): Promise<void> {
    const { job } = state;
    const results: AccountCheckResult[] = [];
    try {
      await this.status.check(job.account_names, job.timeout_seconds, {
        shouldStop: () => state.cancelRequested,
        forwardAuthorization: state.forwardAuthorization,
        onResult: (result) => {
          results.push(result);
          Object.assign(job, { progress: { done: results.length, total: job.progress.total }, result: summarize([...results], job.progress.total), updated_at: new Date().toISOString() });
          this.queueWrite(state, () => this.writeProgress(state));
        },
      });
      this.queueWrite(state, () => this.finishRow(job.job_id, state.cancelRequested ? 'canceled' : 'completed', { document: job }));
    } catch (error) {
      this.logger.error({ err: error, jobId: job.job_id }, 'Status check job failed');
      this.queueWrite(state, () => this.finishRow(job.job_id, 'failed', { document: job, error: (error as Error).message }));
    }
    await state.writes;
  }

  private queueWrite(state: ActiveJob, write: () => Promise<void>): void {
    state.writes = state.writes.then(write).catch((error: unknown) => {
      this.logger.warn(`Could not record status check job ${state.job.job_id}: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  /** The progress, only while the job is open: a row another replica ended (interrupted) stops the job here. */
  private async writeProgress(state: ActiveJob): Promise<void> {
    const result = await this.rows
      .createQueryBuilder()
      .update()
      .set({ document: documentOf(state.job), updatedAt: Date.now() })
      .where({ jobId: state.job.job_id, status: In(OPEN_STATUSES) })
      .execute();
    if (!result.affected && !state.cancelRequested) {
      this.logger.warn(`Status check job ${state.job.job_id} was ended by another replica (this one was taken for gone); stopping it`);
      state.cancelRequested = true;
    }
  }

  /** Ends an open job with `status`; a job already ended (elsewhere) keeps its end. */
  private async finishRow(jobId: string, status: CheckJobStatus, change: { document?: CheckJob; error?: string }): Promise<void> {
    const row = await this.rows.findOneBy({ jobId });
    if (!row) return;
    const now = new Date();
    const document: StoredJobDocument = { ...JSON.parse(change.document ? documentOf(change.document) : row.document) as StoredJobDocument, updated_at: now.toISOString(), finished_at: now.toISOString() };
    if (change.error !== undefined) document.error = change.error;
    await this.rows
      .createQueryBuilder()
      .update()
      .set({ status, document: JSON.stringify(document), updatedAt: now.getTime() })
      .where({ jobId, status: In(OPEN_STATUSES) })
      .execute();
  }

  private async interrupt(row: CheckJobRow): Promise<void> {
    this.logger.warn(`Status check job ${row.jobId} ran on replica ${row.replicaId ?? '?'}, which is no longer live: recorded as interrupted`);
    await this.finishRow(row.jobId, 'interrupted', { error: `The replica ${row.replicaId ?? ''} that ran this job stopped before it finished` });
  }

  /** Whether the replica that runs an open job is live (this one, or another with a current heartbeat). */
  private async runnerLive(row: CheckJobRow): Promise<boolean> {
    if (this.active?.job.job_id === row.jobId) return true;
    // One instance, or this replica's own id: a job not running here was cut off by a stop.
    if (!this.cluster.active || !row.replicaId || row.replicaId === this.cluster.replicaId) return false;
    return (await this.cluster.otherReplicas()).some((replica) => replica.id === row.replicaId);
  }

  /** Polls the running job's row for a cancel asked of another replica. */
  private watchCancel(state: ActiveJob): void {
    if (!this.cluster.active) return;
    clearInterval(this.cancelPoll);
    this.cancelPoll = setInterval(() => {
      if (state.cancelRequested) return;
      void this.rows.findOneBy({ jobId: state.job.job_id }).then(
        (row) => {
          if (row?.cancelRequested || (row && !OPEN_STATUSES.includes(row.status as CheckJobStatus))) this.requestCancel(state);
        },
        (error: unknown) => this.logger.warn(`Could not read status check job ${state.job.job_id}: ${error instanceof Error ? error.message : String(error)}`),
      );
    }, CHECK_JOB_CANCEL_POLL_MS);
    this.cancelPoll.unref();
  }

  private requestCancel(state: ActiveJob): void {
    state.cancelRequested = true;
    state.job.status = 'canceling';
  }
}

function documentOf(job: CheckJob): string {
  const { status: _status, ...document } = job;
  return JSON.stringify(document);
}

function viewOf(row: CheckJobRow): CheckJob {
  const document = JSON.parse(row.document) as StoredJobDocument;
  return { ...document, job_id: row.jobId, status: row.status as CheckJobStatus };
}
