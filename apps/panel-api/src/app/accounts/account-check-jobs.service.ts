import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DataDirectory } from '../data-dir/data-directory';
import { CorruptDataFileError, readJsonObjectFile, writeJsonFileAtomic } from '../data-dir/json-file-store';
import { AccountCheckResult, AccountStatusService, CheckSummary, summarize } from './account-status.service';
import { PanelError } from '../common/panel-error';
import { ClusterService } from '../cluster/cluster.service';

export type CheckJobStatus = 'running' | 'canceling' | 'canceled' | 'completed' | 'failed';

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

/** A job as its file holds it: with the replica that runs it (absent in files of an earlier version). */
type StoredCheckJob = CheckJob & { replica_id?: string };

const JOB_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isJobId(value: string): boolean {
  return JOB_ID_PATTERN.test(value);
}

/**
 * Asynchronous status checks, one at a time, each kept as `.signer/jobs/<job_id>.json` (rewritten
 * atomically after every account). Replicas may share the data directory: a job file names the
 * replica that runs it, and only that replica answers for it (the others forward its status and
 * cancel there). A job found running at startup was cut off by a stop and is failed when this replica
 * ran it, when it names no replica (an earlier version) or a replica that is no longer live; a job of
 * another live replica is left to it. On SQLite (one instance) every job is this instance's.
 */
@Injectable()
export class AccountCheckJobsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(AccountCheckJobsService.name);
  private active?: { job: CheckJob; cancelRequested: boolean; done: Promise<void>; forwardAuthorization?: string };

  constructor(
    private readonly dataDirectory: DataDirectory,
    private readonly status: AccountStatusService,
    private readonly cluster: ClusterService,
  ) {}

  private get folder(): string {
    return join(this.dataDirectory.signer, 'jobs');
  }

  private file(jobId: string): string {
    return join(this.folder, `${jobId}.json`);
  }

  async onModuleInit(): Promise<void> {
    mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    const live = new Set((await this.cluster.otherReplicas()).map((replica) => replica.id));
    for (const file of readdirSync(this.folder)) {
      if (!file.endsWith('.json') || file.startsWith('.')) continue;
      try {
        const job = readJsonObjectFile(join(this.folder, file)) as unknown as StoredCheckJob | undefined;
        if (!job || (job.status !== 'running' && job.status !== 'canceling')) continue;
        if (this.cluster.active && job.replica_id && job.replica_id !== this.cluster.replicaId && live.has(job.replica_id)) continue;
        const now = new Date().toISOString();
        writeJsonFileAtomic(this.file(job.job_id), { ...job, status: 'failed', error: 'The service stopped while this job was running', updated_at: now, finished_at: now });
      } catch (error) {
        if (!(error instanceof CorruptDataFileError)) throw error;
        this.logger.warn(error.message);
      }
    }
  }

  async onModuleDestroy(): Promise<void> {
    if (this.active) {
      this.active.cancelRequested = true;
      await this.active.done;
    }
  }

  /** `forwardAuthorization`: the caller's token, kept in memory only, to check another replica's accounts at their owner. */
  start(accountNames: string[] | undefined, timeoutSeconds: number, forwardAuthorization?: string): CheckJob {
    if (this.active) throw new PanelError('check_job_running', `Status check job ${this.active.job.job_id} is still running; wait for it or cancel it`);
    const names = this.status.targets(accountNames);
    const now = new Date().toISOString();
    const job: CheckJob = {
      job_id: randomUUID(),
      status: 'running',
      account_names: names,
      timeout_seconds: timeoutSeconds,
      progress: { done: 0, total: names.length },
      result: summarize([], names.length),
      error: null,
      created_at: now,
      updated_at: now,
      finished_at: null,
    };
    this.save(job);
    const state = { job, cancelRequested: false, done: Promise.resolve(), forwardAuthorization };
    this.active = state;
    state.done = this.execute(state).finally(() => {
      if (this.active === state) this.active = undefined;
    });
    return job;
  }

  /**
   * Whether this instance runs or ran the job: active here, or its file names this replica (on one
   * instance: any job file). Replicas: the others forward its status and cancel here.
   */
  knows(jobId: string): boolean {
    if (this.active?.job.job_id === jobId) return true;
    const stored = this.read(jobId);
    return stored !== undefined && this.ranHere(stored);
  }

  get(jobId: string): CheckJob {
    if (this.active?.job.job_id === jobId) return this.active.job;
    const stored = this.read(jobId);
    if (!stored) throw new PanelError('check_job_not_found', `Status check job ${jobId} not found`);
    const { replica_id: _replica, ...job } = stored;
    return job;
  }

  cancel(jobId: string): CheckJob {
    const stored = this.active?.job.job_id === jobId ? undefined : this.read(jobId);
    // Another replica runs it: not this replica's to answer, so a replica looking for its holder asks on.
    if (stored && !this.ranHere(stored) && (stored.status === 'running' || stored.status === 'canceling')) {
      throw new PanelError('check_job_not_found', `Status check job ${jobId} runs on another replica`);
    }
    const job = this.get(jobId);
    if (this.active?.job.job_id !== jobId || (job.status !== 'running' && job.status !== 'canceling')) {
      throw new PanelError('check_job_not_running', `Status check job ${jobId} is ${job.status}; only a running job can be cancelled`);
    }
    this.active.cancelRequested = true;
    this.update(job, { status: 'canceling' });
    return job;
  }

  /** Waits for the running job (tests and shutdown). */
  async idle(): Promise<void> {
    await this.active?.done;
  }

  private async execute(state: { job: CheckJob; cancelRequested: boolean; forwardAuthorization?: string }): Promise<void> {
    const { job } = state;
    const results: AccountCheckResult[] = [];
    try {
      await this.status.check(job.account_names, job.timeout_seconds, {
        shouldStop: () => state.cancelRequested,
        forwardAuthorization: state.forwardAuthorization,
        onResult: (result) => {
          results.push(result);
          this.update(job, { progress: { done: results.length, total: job.progress.total }, result: summarize([...results], job.progress.total) });
        },
      });
      const now = new Date().toISOString();
      this.update(job, { status: state.cancelRequested ? 'canceled' : 'completed', finished_at: now });
    } catch (error) {
      this.logger.error({ err: error, jobId: job.job_id }, 'Status check job failed');
      this.update(job, { status: 'failed', error: (error as Error).message, finished_at: new Date().toISOString() });
    }
  }

  private update(job: CheckJob, change: Partial<CheckJob>): void {
    Object.assign(job, change, { updated_at: new Date().toISOString() });
    this.save(job);
  }

  private save(job: CheckJob): void {
    const stored: StoredCheckJob = this.cluster.active ? { ...job, replica_id: this.cluster.replicaId } : job;
    writeJsonFileAtomic(this.file(job.job_id), stored);
  }

  private read(jobId: string): StoredCheckJob | undefined {
    return isJobId(jobId) ? (readJsonObjectFile(this.file(jobId)) as unknown as StoredCheckJob | undefined) : undefined;
  }

  /** Whether this replica started the job (on one instance: every job). */
  private ranHere(job: StoredCheckJob): boolean {
    return !this.cluster.active || job.replica_id === this.cluster.replicaId;
  }
}
