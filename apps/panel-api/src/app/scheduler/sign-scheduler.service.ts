import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { englishText } from '@shared/panel-texts';
import { CronJob, CronTime } from 'cron';
import { AccountSessionsService } from '../accounts/account-sessions.service';
import { RuntimeStatusRegistry } from '../ops/runtime-status.registry';
import { randomSeconds } from '../runs/action-runner';
import { TaskRunner } from '../runs/task-runner.service';
import { SettingsService } from '../settings/settings.service';
import { SignTask } from '../sign-tasks/sign-task.types';
import { SignTasksService } from '../sign-tasks/sign-tasks.service';
import { cronOfSignAt, parseTimeOfDay } from '../sign-tasks/task-validation';
import { SchedulerLockService } from './scheduler-lock.service';
import { TaskBusy } from '../common/panel-error';
import { ClusterService, OwnershipChange } from '../cluster/cluster.service';
import { ClaimKey, JobClaims } from '../cluster/job-claims';
import { RunHistoryService } from '../runs/run-history.service';
import { RunRegistry } from '../runs/run-registry';
import { RunInterrupted } from '../runs/failure-category';
import { randomUUID } from 'node:crypto';

/** Replicas: a due run whose owner died just before it is caught up by the new owner within this much of its due time, beyond two lease periods. */
const CATCH_UP_EXTRA_MS = 60_000;

export const SIGN_JOB_PREFIX = 'sign-';

export function signJobId(accountName: string, taskName: string): string {
  return `${SIGN_JOB_PREFIX}${accountName}-${taskName}`;
}

interface WantedJob {
  id: string;
  taskName: string;
  accountName: string;
  cron: string;
  /** Everything that, when changed, needs the job replaced. */
  key: string;
}

interface RegisteredJob {
  key: string;
  taskName: string;
  accountName: string;
}

/**
 * One cron job per enabled sign task and account (`sign-{account}-{task}`) in the time zone of the
 * settings. `fixed` tasks fire at `sign_at` plus a random delay of up to `random_seconds`; `range`
 * tasks fire at `range_start` and wait a random time up to `range_end`. The jobs follow every task
 * change, account change, time zone change and the scheduler lock (only its holder has jobs);
 * a re-sync touches only the jobs that changed.
 */
@Injectable()
export class SignScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(SignScheduler.name);
  private readonly jobs = new Map<string, RegisteredJob>();
  /** Runs waiting out their random delay, by job, with the due run they claimed (replicas). */
  private readonly delayed = new Map<string, { timer: NodeJS.Timeout; claim?: ClaimKey }>();
  private stopping = false;
  private readonly unsubscribers: Array<() => void> = [];
  private timeZone = 'UTC';
  private lastSync?: { at: string; durationMs: number; jobs: number };

  constructor(
    private readonly registry: SchedulerRegistry,
    private readonly tasks: SignTasksService,
    private readonly runner: TaskRunner,
    private readonly settings: SettingsService,
    private readonly lock: SchedulerLockService,
    private readonly accounts: AccountSessionsService,
    private readonly runtimeStatus: RuntimeStatusRegistry,
    private readonly cluster: ClusterService,
    private readonly claims: JobClaims,
    private readonly history: RunHistoryService,
    private readonly runs: RunRegistry,
  ) {}

  onApplicationBootstrap(): void {
    this.sync();
    this.unsubscribers.push(
      this.tasks.onTasksChanged((change) => {
        if (change.type !== 'last_run') this.sync();
      }),
      this.settings.onChange((change) => {
        if (change.global && this.settings.getGlobal().timezone !== this.timeZone) this.sync();
      }),
      this.lock.onChange((held) => {
        // Registers the tasks as last read (at most a second old) at once; the re-read reports what
        // another replica changed since, and that change re-syncs.
        this.sync();
        if (held) {
          this.tasks.reloadFromDisk().catch((error: unknown) => this.logger.error({ err: error }, 'Re-reading the tasks for the new scheduler lock holder failed'));
        }
      }),
      this.accounts.onEvent((event) => {
        if (event.type === 'removed' || event.type === 'logged_in') this.sync();
      }),
      // Replicas on PostgreSQL: the jobs of an account live on the owner of its lease.
      this.cluster.onOwnershipChange((change) => this.ownershipChanged(change)),
      this.cluster.addReleaseHook(async (accounts) => this.stopRunsOf(accounts)),
    );
    if (this.cluster.active) {
      const subscription = this.history.events.subscribe((event) => {
        this.claims.finish({ runId: event.run_id }, 'done').catch((error: unknown) => this.logger.warn(`Closing the claim of run ${event.run_id} failed: ${String(error)}`));
      });
      this.unsubscribers.push(() => subscription.unsubscribe());
      // A rebalance never moves an account while one of its runs is going or waiting here.
      this.cluster.setBusyCheck(
        (account) => this.runs.active().some((run) => run.account_name === account) || [...this.delayed.keys()].some((id) => this.jobs.get(id)?.accountName === account),
      );
    }
    this.runtimeStatus.register('scheduler', () => ({
      state: this.lock.isHeld() ? 'running' : 'idle',
      details: { sign_jobs: this.jobs.size, delayed_runs: this.delayed.size, time_zone: this.timeZone, lock: this.lock.describe(), last_sync: this.lastSync ?? null },
    }));
  }

  onModuleDestroy(): void {
    this.stopping = true;
    this.unsubscribers.forEach((unsubscribe) => unsubscribe());
    this.unregisterAll();
  }

  /** Ids of the registered sign jobs. */
  jobIds(): string[] {
    return [...this.jobs.keys()];
  }

  /** Brings the registered jobs in line with the tasks (none unless this instance holds the lock). */
  sync(): void {
    const started = performance.now();
    this.timeZone = this.settings.getGlobal().timezone;
    if (!this.cluster.active && !this.lock.isHeld()) {
      this.unregisterAll();
      return;
    }
    const wanted = new Map(this.wantedJobs().filter((job) => this.cluster.owns(job.accountName)).map((job) => [job.id, job]));
    for (const [id, job] of this.jobs) {
      const next = wanted.get(id);
      if (!next || next.key !== job.key) this.unregister(id);
    }
    for (const job of wanted.values()) {
      if (!this.jobs.has(job.id)) this.register(job);
    }
    this.lastSync = { at: new Date().toISOString(), durationMs: Math.round((performance.now() - started) * 10) / 10, jobs: this.jobs.size };
  }

  /** A claim whose run did not start is closed as skipped (never left `running`). */
  private closeClaim(jobId: string, dueAt: number | undefined): void {
    if (dueAt === undefined) return;
    this.claims.finish({ job: jobId, dueAt }, 'skipped').catch((error: unknown) => this.logger.warn(`${jobId}: closing the claim failed: ${String(error)}`));
  }

  /** This replica's claims with a run going or waiting here (not orphans). */
  private busyClaims(): ClaimKey[] {
    const running = this.runs.active().flatMap((run) => (run.claim ? [run.claim] : []));
    const waiting = [...this.delayed.values()].flatMap((entry) => (entry.claim ? [entry.claim] : []));
    return [...running, ...waiting];
  }

  /** Replicas: re-registers the jobs; for accounts this replica just took, ends the runs their old owner left and catches up a run due meanwhile. */
  private ownershipChanged(change: OwnershipChange): void {
    this.sync();
    if (!change.gained.length) return;
    void this.takeOver(change.gained).catch((error: unknown) => this.logger.error({ err: error }, `Taking over the schedules of ${change.gained.join(', ')} failed`));
  }

  private async takeOver(accounts: string[]): Promise<void> {
    const windowMs = 2 * this.cluster.leaseSeconds * 1000 + CATCH_UP_EXTRA_MS;
    const now = Date.now();
    for (const accountName of accounts) {
      await this.interruptOrphans(accountName).catch((error: unknown) => this.logger.error({ err: error }, `Recording the interrupted runs of ${accountName} failed (the next owner or regain tries again)`));
      for (const job of this.wantedJobs().filter((item) => item.accountName === accountName)) {
        const task = this.tasks.get(job.taskName);
        if (!task) continue;
        // The latest run due in the window, never one due before the task existed (a task created
        // seconds before its account moved has no earlier run to catch up). A task due every minute
        // has an older run there, claimed by the old owner.
        const createdAt = Date.parse(task.created_at);
        const from = Math.max(now - windowMs, Number.isFinite(createdAt) ? createdAt : now);
        const next = upcomingRuns(task, this.timeZone, 20, new Date(from))
          .filter((run) => Date.parse(run.fires_at) <= now)
          .at(-1);
        if (!next) continue;
        // Claimed under the minute of its tick, as fire() claims it, so a time of day with seconds
        // cannot be claimed once by the tick and once by a catch-up.
        const dueAt = dueMinute(Date.parse(next.fires_at));
        if (!(await this.claims.claimForAccount(job.id, dueAt, accountName))) continue;
        this.logger.warn(`${job.id}: catching up the run due at ${next.fires_at} (its account changed replicas around then)`);
        this.fireClaimed(job, dueAt);
      }
    }
  }

  /**
   * Records once, as `interrupted`, the account's due runs whose claim is still `running` with no run
   * going or waiting here: another replica's that died with its lease, or this replica's own that it
   * stopped when it lost trust in its leases and whose records were refused (it gets the account back
   * with the same epoch after a pause shorter than the lease).
   */
  private async interruptOrphans(accountName: string): Promise<void> {
    const prefix = signJobId(accountName, '');
    const recorded = await this.history.recordInterruptedRuns(accountName, async (manager) =>
      (await this.claims.interruptOrphans(manager, accountName, () => this.busyClaims())).map((claim) => {
        const due = new Date(claim.dueAt).toISOString();
        const why = claim.replicaId === this.cluster.replicaId ? 'interrupted_lease_not_renewed' : 'interrupted_replica_stopped';
        return {
          runId: claim.runId ?? randomUUID(),
          taskName: claim.job.startsWith(prefix) ? claim.job.slice(prefix.length) : claim.job,
          accountName,
          trigger: 'schedule',
          reason: englishText('runMessage', why, { replica: claim.replicaId, account: accountName, due }),
        };
      }),
    );
    for (const event of recorded) this.logger.warn(`Run ${event.run_id} of ${event.task_name} (${accountName}) recorded as interrupted: ${event.message}`);
  }

  /**
   * Runs of accounts this replica gives up are stopped: their fenced records would be refused. The new
   * owner records a scheduled one (its claim) as interrupted; one without a claim records itself.
   */
  private stopRunsOf(accounts: string[]): void {
    for (const run of this.runs.active()) {
      if (accounts.includes(run.account_name)) run.abort?.abort(new RunInterrupted('released'));
    }
  }

  private wantedJobs(): WantedJob[] {
    const out: WantedJob[] = [];
    for (const task of this.tasks.list({ enabled: true })) {
      const cron = scheduleOf(task);
      if (!cron) continue;
      const key = `${cron}|${this.timeZone}|${task.execution_mode}|${task.random_seconds}|${task.range_end ?? ''}`;
      for (const accountName of this.tasks.accountsOf(task)) {
        out.push({ id: signJobId(accountName, task.name), taskName: task.name, accountName, cron, key });
      }
    }
    return out;
  }

  private register(job: WantedJob): void {
    try {
      const cronJob = CronJob.from({
        cronTime: job.cron,
        timeZone: this.timeZone,
        start: false,
        onTick: () => this.fire(job),
      });
      if (this.registry.doesExist('cron', job.id)) this.registry.deleteCronJob(job.id);
      this.registry.addCronJob(job.id, cronJob);
      cronJob.start();
      this.jobs.set(job.id, { key: job.key, taskName: job.taskName, accountName: job.accountName });
    } catch (error) {
      this.logger.error({ err: error }, `Could not schedule ${job.id}`);
    }
  }

  private unregister(id: string): void {
    if (this.registry.doesExist('cron', id)) this.registry.deleteCronJob(id);
    const job = this.jobs.get(id);
    this.jobs.delete(id);
    const delayed = this.delayed.get(id);
    if (!delayed) return;
    clearTimeout(delayed.timer);
    this.delayed.delete(id);
    if (!delayed.claim) return;
    // A waiting run dropped (its task edited or disabled) while the account is here: its claim is closed
    // as skipped. One dropped because the account left or the service stops stays `running`: whoever
    // owns the account next records it as interrupted.
    if (!this.stopping && job && this.cluster.owns(job.accountName)) this.closeClaim(id, delayed.claim.dueAt);
  }

  private unregisterAll(): void {
    for (const id of [...this.jobs.keys()]) this.unregister(id);
  }

  /** Whether this replica schedules the account's jobs now (the lock holder on one data directory; the lease owner with replicas). */
  private schedulesHere(accountName: string): boolean {
    return this.cluster.active ? this.cluster.owns(accountName) : this.lock.isHeld();
  }

  /**
   * A tick. With replicas the due run (job, minute of the tick) is claimed in the database first, so
   * it runs once however many replicas fire it; then the random delay (or the range window), then
   * the run for the job's account.
   */
  private fire(job: WantedJob): void {
    if (!this.cluster.active) {
      this.fireClaimed(job);
      return;
    }
    const dueAt = dueMinute(Date.now());
    this.claims
      .claimForAccount(job.id, dueAt, job.accountName)
      .then((claimed) => {
        if (claimed) this.fireClaimed(job, dueAt);
      })
      .catch((error: unknown) => this.logger.error({ err: error }, `${job.id}: claiming the due run failed`));
  }

  private fireClaimed(job: WantedJob, dueAt?: number): void {
    const task = this.tasks.get(job.taskName);
    if (!task?.enabled || !this.schedulesHere(job.accountName)) {
      this.closeClaim(job.id, dueAt);
      return;
    }
    const delaySeconds = task.execution_mode === 'range' ? randomSeconds(rangeWindowSeconds(task)) : randomSeconds(task.random_seconds);
    if (this.delayed.has(job.id)) {
      this.closeClaim(job.id, dueAt);
      return;
    }
    const claim = dueAt === undefined ? undefined : { job: job.id, dueAt };
    const run = (): void => {
      this.delayed.delete(job.id);
      const current = this.tasks.get(job.taskName);
      if (!current?.enabled || !this.schedulesHere(job.accountName)) {
        this.closeClaim(job.id, dueAt);
        return;
      }
      try {
        const [started] = this.runner.start(job.taskName, 'schedule', job.accountName, claim);
        if (claim) this.claims.settled(claim);
        if (dueAt !== undefined && started) {
          this.claims.attachRun(job.id, dueAt, started.run_id).catch((error: unknown) => this.logger.warn(`${job.id}: noting the run of the claim failed: ${String(error)}`));
        }
      } catch (error) {
        this.closeClaim(job.id, dueAt);
        if (error instanceof TaskBusy) this.logger.warn(`${job.id}: skipped, the previous run is still going`);
        else this.logger.error({ err: error }, `${job.id}: could not start`);
      }
    };
    if (delaySeconds <= 0) {
      run();
      return;
    }
    const timer = setTimeout(run, delaySeconds * 1000);
    timer.unref();
    this.delayed.set(job.id, { timer, claim });
    if (claim) this.claims.settled(claim);
  }
}

/** The key of a due run in `job_claims`: the minute of its tick (a tick fires within its minute). */
export function dueMinute(at: number): number {
  return Math.floor(at / 60_000) * 60_000;
}

/** The cron expression a task fires on, or undefined for listen tasks and tasks without a schedule. */
export function scheduleOf(task: SignTask): string | undefined {
  if (task.execution_mode === 'fixed') return task.sign_at ? cronOfSignAt(task.sign_at) : undefined;
  if (task.execution_mode === 'range') return task.range_start ? cronOfSignAt(task.range_start) : undefined;
  return undefined;
}

/** Seconds from range_start to range_end (across midnight when the end is earlier). */
export function rangeWindowSeconds(task: Pick<SignTask, 'range_start' | 'range_end'>): number {
  const start = task.range_start ? parseTimeOfDay(task.range_start) : undefined;
  const end = task.range_end ? parseTimeOfDay(task.range_end) : undefined;
  if (start === undefined || end === undefined) return 0;
  return (end - start + 86_400) % 86_400;
}

/** One upcoming run of a schedule: when the job fires and the latest its run may start after the random wait. */
export interface UpcomingRun {
  fires_at: string;
  latest_start: string;
}

/**
 * The next `count` ticks of a task's schedule in a time zone, computed as the registered CronJob
 * computes them (same expression from scheduleOf, same cron library, same zone), with the random
 * wait fire() adds: up to random_seconds in fixed mode, up to range_end in range mode.
 */
export function upcomingRuns(task: Pick<SignTask, 'execution_mode' | 'sign_at' | 'range_start' | 'range_end' | 'random_seconds'>, timeZone: string, count: number, from = new Date()): UpcomingRun[] {
  const cron = scheduleOf(task as SignTask);
  if (!cron) return [];
  const time = new CronTime(cron, timeZone);
  const waitSeconds = task.execution_mode === 'range' ? rangeWindowSeconds(task) : task.random_seconds;
  const runs: UpcomingRun[] = [];
  let cursor: Date = from;
  for (let index = 0; index < count; index++) {
    // getNextDateFrom reads the start in the zone it is given, not the one CronTime was built with (as CronJob does through sendAt).
    const next = time.getNextDateFrom(cursor, timeZone).toJSDate();
    runs.push({ fires_at: next.toISOString(), latest_start: new Date(next.getTime() + waitSeconds * 1000).toISOString() });
    cursor = next;
  }
  return runs;
}
