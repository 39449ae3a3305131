import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { englishText } from '@shared/panel-texts';
import { randomUUID } from 'node:crypto';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import { FlowLogEntry } from './action-runner';
import type { FailureCategory, RunState } from '../common/run-outcomes';
import type { RunVerdict } from '../common/verdict';

export type RunPhase = 'starting' | 'checking_account' | 'waiting_lock' | 'cooldown' | 'running' | 'finalizing';
/** `rerun`: the bot named a wait and the task ran again after it. */
export type RunTrigger = 'manual' | 'schedule' | 'batch' | 'rerun';

/** One run of a task for one account, as kept in memory while it runs and a while after. */
export interface RunRecord {
  run_id: string;
  task_name: string;
  account_name: string;
  trigger: RunTrigger;
  state: RunState;
  phase: RunPhase | null;
  phase_detail: string | null;
  success: boolean | null;
  error: string | null;
  failure_category: FailureCategory;
  /** What the bot's answer said (tasks with verdict patterns), null otherwise or while running. */
  verdict: RunVerdict | null;
  /** The answer that decided the verdict. */
  verdict_text: string | null;
  /** Summary line of the outcome (the last reply or the failure). */
  output: string | null;
  started_at: string;
  finished_at: string | null;
  updated_at: string;
  /** Seconds the run waits in the current phase (lock, cooldown, retry), when known. */
  wait_seconds: number | null;
  timeout_seconds: number;
  attempts: number;
  /** In-memory flow log; emptied ACTIVE_LOG_CLEANUP_DELAY_SECONDS after the end (history keeps it). */
  logs: FlowLogEntry[];
  /** Cancels the run (cooperative); absent once finished. */
  abort?: AbortController;
  /** Replicas: the epoch of the account's lease when the run began; its writes are fenced by it. */
  epoch?: number;
  /**
   * Replicas: the claim of the due run this scheduled run is (job and due minute in `job_claims`).
   * A run without one (run now, batch, rerun) is known to no other replica.
   */
  claim?: { job: string; dueAt: number };
}

/**
 * The in-memory runs: created when a run starts, updated as it goes, logs reclaimed
 * `ACTIVE_LOG_CLEANUP_DELAY_SECONDS` after it ends and the status `RUN_STATUS_CLEANUP_DELAY_SECONDS`
 * after its last update. Persistent history (files and the sign_logs table) is separate.
 */
@Injectable()
export class RunRegistry implements OnModuleDestroy {
  private readonly runs = new Map<string, RunRecord>();
  private readonly timers = new Map<string, NodeJS.Timeout[]>();

  constructor(@Inject(PANEL_CONFIG) private readonly config: PanelConfig) {}

  /** Clears the timers only: the runs are TaskRunner's to stop (as `interrupted`, recorded), not cancelled here. */
  onModuleDestroy(): void {
    for (const timers of this.timers.values()) timers.forEach(clearTimeout);
    this.timers.clear();
  }

  create(input: { task_name: string; account_name: string; trigger: RunTrigger; timeout_seconds: number; epoch?: number; claim?: RunRecord['claim'] }): RunRecord {
    const now = new Date().toISOString();
    const record: RunRecord = {
      run_id: randomUUID(),
      ...input,
      state: 'running',
      phase: 'starting',
      phase_detail: null,
      success: null,
      error: null,
      failure_category: 'none',
      verdict: null,
      verdict_text: null,
      output: null,
      started_at: now,
      finished_at: null,
      updated_at: now,
      wait_seconds: null,
      attempts: 0,
      logs: [],
      abort: new AbortController(),
    };
    this.runs.set(record.run_id, record);
    return record;
  }

  update(record: RunRecord, change: Partial<Omit<RunRecord, 'run_id' | 'logs'>>): void {
    Object.assign(record, change, { updated_at: new Date().toISOString() });
  }

  log(record: RunRecord, entry: FlowLogEntry): void {
    record.logs.push(entry);
    record.updated_at = entry.at;
  }

  /** Marks the end and schedules the reclaim of the logs and, later, of the status. */
  finish(record: RunRecord): void {
    record.abort = undefined;
    const logDelay = this.config.runs.activeLogCleanupDelaySeconds * 1000;
    const statusDelay = this.config.runs.runStatusCleanupDelaySeconds * 1000;
    const logTimer = setTimeout(() => {
      record.logs = [];
    }, logDelay);
    const statusTimer = setTimeout(() => this.reclaimStatus(record.run_id, statusDelay), statusDelay);
    logTimer.unref();
    statusTimer.unref();
    this.timers.set(record.run_id, [logTimer, statusTimer]);
  }

  /**
   * Runs still in progress, in any phase up to and including finalizing: a run stays here until
   * `finish()`, after its history is recorded, so "no active runs" means the history is complete.
   */
  active(): RunRecord[] {
    return [...this.runs.values()].filter((run) => run.abort !== undefined);
  }

  activeFor(taskName: string, accountName?: string): RunRecord[] {
    return this.active().filter((run) => run.task_name === taskName && (accountName === undefined || run.account_name === accountName));
  }

  /** Every remembered run of a task, newest first. */
  ofTask(taskName: string): RunRecord[] {
    return [...this.runs.values()].filter((run) => run.task_name === taskName).sort((a, b) => b.started_at.localeCompare(a.started_at));
  }

  /** Cancels every active run of a task; returns how many were asked to stop. */
  cancel(taskName: string): number {
    const runs = this.activeFor(taskName).filter((run) => run.state === 'running');
    for (const run of runs) {
      this.update(run, { phase_detail: englishText('phaseDetail', 'cancel_requested') });
      run.abort?.abort();
    }
    return runs.length;
  }

  /** Drops runs of a deleted task that are no longer active. */
  forgetTask(taskName: string): void {
    for (const run of this.ofTask(taskName)) {
      if (run.abort) continue;
      this.clearTimers(run.run_id);
      this.runs.delete(run.run_id);
    }
  }

  private reclaimStatus(runId: string, delayMs: number): void {
    const record = this.runs.get(runId);
    if (!record) return;
    const idleFor = Date.now() - Date.parse(record.updated_at);
    if (idleFor + 50 < delayMs) {
      const timer = setTimeout(() => this.reclaimStatus(runId, delayMs), delayMs - idleFor);
      timer.unref();
      this.timers.set(runId, [timer]);
      return;
    }
    this.runs.delete(runId);
    this.timers.delete(runId);
  }

  private clearTimers(runId: string): void {
    this.timers.get(runId)?.forEach(clearTimeout);
    this.timers.delete(runId);
  }
}
