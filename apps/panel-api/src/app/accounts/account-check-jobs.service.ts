import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DataDirectory } from '../data-dir/data-directory';
import { CorruptDataFileError, readJsonObjectFile, writeJsonFileAtomic } from '../data-dir/json-file-store';
import { AccountCheckResult, AccountStatusService, CheckSummary, summarize } from './account-status.service';
import { PanelError } from '../common/panel-error';

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

const JOB_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isJobId(value: string): boolean {
  return JOB_ID_PATTERN.test(value);
}

/**
 * Asynchronous status checks, one at a time, each kept as `.signer/jobs/<job_id>.json` (rewritten
 * atomically after every account). A job found running at startup was cut off by a stop: it is failed.
 */
@Injectable()
export class AccountCheckJobsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(AccountCheckJobsService.name);
  private active?: { job: CheckJob; cancelRequested: boolean; done: Promise<void>; forwardAuthorization?: string };

  constructor(
    private readonly dataDirectory: DataDirectory,
    private readonly status: AccountStatusService,
  ) {}

  private get folder(): string {
    return join(this.dataDirectory.signer, 'jobs');
  }

  private file(jobId: string): string {
    return join(this.folder, `${jobId}.json`);
  }

  onModuleInit(): void {
    mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    for (const file of readdirSync(this.folder)) {
      if (!file.endsWith('.json') || file.startsWith('.')) continue;
      try {
        const job = readJsonObjectFile(join(this.folder, file)) as unknown as CheckJob | undefined;
        if (job && (job.status === 'running' || job.status === 'canceling')) {
          const now = new Date().toISOString();
          this.save({ ...job, status: 'failed', error: 'The service stopped while this job was running', updated_at: now, finished_at: now });
        }
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

  /** Whether this instance ran the job (replicas: the others forward its status and cancel here). */
  knows(jobId: string): boolean {
    return this.active?.job.job_id === jobId || (isJobId(jobId) && existsSync(this.file(jobId)));
  }

  get(jobId: string): CheckJob {
    if (this.active?.job.job_id === jobId) return this.active.job;
    const job = isJobId(jobId) ? (readJsonObjectFile(this.file(jobId)) as unknown as CheckJob | undefined) : undefined;
    if (!job) throw new PanelError('check_job_not_found', `Status check job ${jobId} not found`);
    return job;
  }

  cancel(jobId: string): CheckJob {
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
    writeJsonFileAtomic(this.file(job.job_id), job);
  }
}
