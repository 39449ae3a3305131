import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { PanelNotifier } from '../notifications/panel-notifier.service';
import { SignTask, TaskAction, TaskChat } from '../sign-tasks/sign-task.types';
import { SignTasksService } from '../sign-tasks/sign-tasks.service';
import { TelegramError } from '../telegram/telegram-error';
import { ActionRunner, FlowLogEntry, interruptionOf, waitFor } from './action-runner';
import type { FailureCategory } from '../common/run-outcomes';
import { failureCategoryOf, isRetryable, RunInterrupted } from './failure-category';
import { AccountRunLock } from './account-run-lock';
import { RunHistoryService } from './run-history.service';
import { RunRecord, RunRegistry, RunTrigger } from './run-registry';
import { RUN_TIMINGS, RunTimings } from './run-timings';
import { SentMessageDeletions } from './sent-message-deletions';
import { TaskBusy, TaskNotRunnable } from '../common/panel-error';

interface Step {
  chatIndex: number;
  actionIndex: number;
  chat: TaskChat;
  action: TaskAction;
}

/** Messages a run sent, per chat index of the task, until the chat's `delete_after` deletion is scheduled. */
type SentByChat = Map<number, number[]>;

export interface StartedRun {
  run_id: string;
  account_name: string;
}

/**
 * Runs sign tasks: per account one run at a time (others wait in `waiting_lock`), the per-account
 * cooldown, the run timeout, retries that resume at the failed step, the failure category, and at
 * the end history, the live event and the notifications the task asks for.
 */
@Injectable()
export class TaskRunner implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(TaskRunner.name);
  private readonly pending = new Set<Promise<void>>();
  private stopListening?: () => void;

  constructor(
    private readonly tasks: SignTasksService,
    private readonly actions: ActionRunner,
    private readonly registry: RunRegistry,
    private readonly lock: AccountRunLock,
    private readonly history: RunHistoryService,
    private readonly notifier: PanelNotifier,
    private readonly deletions: SentMessageDeletions,
    @Inject(RUN_TIMINGS) private readonly timings: RunTimings,
  ) {}

  onModuleInit(): void {
    // A deleted task stops running and its in-memory runs are forgotten (its history stays).
    this.stopListening = this.tasks.onTasksChanged((change) => {
      if (change.type !== 'deleted') return;
      for (const name of change.names) {
        this.registry.cancel(name);
        this.registry.forgetTask(name);
      }
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.stopListening?.();
    for (const run of this.registry.active()) run.abort?.abort();
    await this.settle();
  }

  /**
   * Starts the task for each of its accounts (or `onlyAccount`) and returns at once. Accounts that
   * already run this task are skipped; TaskBusy when that leaves nothing to start, TaskNotRunnable for
   * listen tasks and tasks without an account.
   */
  start(taskName: string, trigger: RunTrigger, onlyAccount?: string): StartedRun[] {
    const task = this.tasks.require(taskName);
    if (task.execution_mode === 'listen') throw new TaskNotRunnable(`Task ${taskName} is a listen task; it runs through its keyword listener, not on demand`);
    const accounts = onlyAccount ? [onlyAccount] : this.tasks.accountsOf(task);
    if (accounts.length === 0) throw new TaskNotRunnable(`Task ${taskName} has no account to run for`);
    const started: StartedRun[] = [];
    for (const accountName of accounts) {
      if (this.registry.activeFor(taskName, accountName).length > 0) continue;
      const record = this.registry.create({ task_name: taskName, account_name: accountName, trigger, timeout_seconds: Math.round(this.timings.runTimeoutMs / 1000) });
      const promise = this.execute(task, record).finally(() => this.pending.delete(promise));
      this.pending.add(promise);
      started.push({ run_id: record.run_id, account_name: accountName });
    }
    if (started.length === 0) throw new TaskBusy(taskName);
    return started;
  }

  /** Waits for every run started so far (shutdown, tests). */
  async settle(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  private async execute(task: SignTask, run: RunRecord): Promise<void> {
    const abort = run.abort ?? new AbortController();
    const signal = abort.signal;
    let release: (() => void) | undefined;
    let timeoutTimer: NodeJS.Timeout | undefined;
    const log = (level: FlowLogEntry['level'], message: string, step: string | null = null): void =>
      this.registry.log(run, { at: new Date().toISOString(), step, level, message });
    let outcome: { success: boolean; category: FailureCategory; message: string; state: 'finished' | 'cancelled' | 'timeout' };
    const sent: SentByChat = new Map();
    try {
      this.registry.update(run, { phase: 'checking_account', phase_detail: `account ${run.account_name}` });
      const session = this.actions.sessionOf(run.account_name);

      if (this.lock.isBusy(run.account_name)) {
        this.registry.update(run, { phase: 'waiting_lock', phase_detail: `another run of ${run.account_name} is in progress` });
        log('info', `waiting for another run of ${run.account_name} to finish`);
      }
      release = await this.lock.acquire(run.account_name, signal);

      const cooldown = this.lock.cooldownRemaining(run.account_name, this.timings.accountCooldownMs);
      if (cooldown > 0) {
        this.registry.update(run, { phase: 'cooldown', phase_detail: 'per-account cooldown', wait_seconds: Math.ceil(cooldown / 1000) });
        await waitFor(cooldown, signal);
      }

      timeoutTimer = setTimeout(() => abort.abort(new RunInterrupted('timeout')), this.timings.runTimeoutMs);
      this.registry.update(run, { phase: 'running', phase_detail: null, wait_seconds: null });
      const lastReply = await this.runSteps(task, run, session, signal, log, sent);
      outcome = { success: true, category: 'none', message: lastReply ?? 'completed', state: 'finished' };
    } catch (error) {
      const interrupted = error instanceof RunInterrupted ? error : signal.aborted ? interruptionOf(signal) : undefined;
      const category = interrupted ? (interrupted.reason === 'timeout' ? 'timeout' : 'none') : failureCategoryOf(error);
      const message = error instanceof Error ? error.message : String(error);
      log('error', message);
      if (category === 'session_invalid') await this.actions.markSessionInvalid(run.account_name, message);
      outcome = {
        success: false,
        category,
        message,
        state: interrupted ? (interrupted.reason === 'timeout' ? 'timeout' : 'cancelled') : 'finished',
      };
    } finally {
      if (timeoutTimer) clearTimeout(timeoutTimer);
      release?.();
    }
    // A failed or cancelled run still cleans up what it sent before it stopped.
    for (const chatIndex of [...sent.keys()]) this.scheduleDeletion(task, run, chatIndex, sent, log);
    await this.finalize(task, run, outcome);
  }

  /** Runs the steps from the first; on a retryable failure waits and resumes at the failed step. Returns the last reply seen. */
  private async runSteps(
    task: SignTask,
    run: RunRecord,
    session: ReturnType<ActionRunner['sessionOf']>,
    signal: AbortSignal,
    log: (level: FlowLogEntry['level'], message: string, step?: string | null) => void,
    sent: SentByChat,
  ): Promise<string | undefined> {
    const steps: Step[] = task.chats.flatMap((chat, chatIndex) => chat.actions.map((action, actionIndex) => ({ chatIndex, actionIndex, chat, action })));
    let next = 0;
    let retriesLeft = task.retry_count;
    let lastReply: string | undefined;
    this.registry.update(run, { attempts: 1 });
    while (next < steps.length) {
      const step = steps[next];
      const label = `chat ${step.chatIndex + 1} action ${step.actionIndex + 1}`;
      try {
        if (step.actionIndex > 0 && step.chat.action_interval) await waitFor(step.chat.action_interval * 1000, signal);
        if (step.actionIndex === 0 && step.chatIndex > 0 && task.sign_interval) await waitFor(task.sign_interval * 1000, signal);
        this.registry.update(run, { phase_detail: `${label} (action ${step.action.action}) in ${step.chat.chat_id}` });
        await this.actions.runAction(step.action, {
          session,
          target: { chat_id: step.chat.chat_id, message_thread_id: step.chat.message_thread_id },
          signal,
          step: label,
          log: (entry) => {
            if (entry.message.startsWith('reply: ')) lastReply = entry.message.slice('reply: '.length);
            log(entry.level, entry.message, entry.step === undefined ? label : entry.step);
          },
          onSent: (_chat, message) => {
            if (step.chat.delete_after) sent.set(step.chatIndex, [...(sent.get(step.chatIndex) ?? []), message.id]);
          },
        });
        next += 1;
        if (step.actionIndex === step.chat.actions.length - 1) this.scheduleDeletion(task, run, step.chatIndex, sent, log);
      } catch (error) {
        if (error instanceof RunInterrupted || signal.aborted) throw error;
        const category = failureCategoryOf(error);
        if (!isRetryable(category) || retriesLeft <= 0) throw error;
        retriesLeft -= 1;
        const floodSeconds = error instanceof TelegramError && error.kind === 'flood_wait' ? (error.seconds ?? 0) : 0;
        const waitMs = Math.max(this.timings.retryDelayMs, floodSeconds * 1000);
        const message = error instanceof Error ? error.message : String(error);
        log('warn', `${message} (${category}); retrying from this step in ${Math.ceil(waitMs / 1000)} s, ${retriesLeft} retries left`, label);
        this.registry.update(run, { attempts: run.attempts + 1, failure_category: category, phase_detail: `retrying ${label}`, wait_seconds: Math.ceil(waitMs / 1000) });
        await waitFor(waitMs, signal);
        this.registry.update(run, { wait_seconds: null, failure_category: 'none' });
      }
    }
    return lastReply;
  }

  /** Hands what the run sent in one chat to the `delete_after` timer; the run does not wait for it. */
  private scheduleDeletion(task: SignTask, run: RunRecord, chatIndex: number, sent: SentByChat, log: (level: FlowLogEntry['level'], message: string, step?: string | null) => void): void {
    const messageIds = sent.get(chatIndex) ?? [];
    sent.delete(chatIndex);
    const chat = task.chats[chatIndex];
    if (!chat?.delete_after || messageIds.length === 0) return;
    this.deletions.schedule({ accountName: run.account_name, taskName: task.name, runId: run.run_id, chatId: chat.chat_id, messageIds, delaySeconds: chat.delete_after });
    log('info', `${messageIds.length} sent message(s) in ${chat.chat_id} will be deleted in ${chat.delete_after} s`, `chat ${chatIndex + 1}`);
  }

  private async finalize(
    task: SignTask,
    run: RunRecord,
    outcome: { success: boolean; category: FailureCategory; message: string; state: 'finished' | 'cancelled' | 'timeout' },
  ): Promise<void> {
    const finishedAt = new Date().toISOString();
    this.registry.update(run, {
      phase: 'finalizing',
      state: outcome.state,
      success: outcome.success,
      error: outcome.success ? null : outcome.message,
      failure_category: outcome.category,
      output: outcome.message,
      finished_at: finishedAt,
      wait_seconds: null,
    });
    this.registry.log(run, { at: finishedAt, step: null, level: outcome.success ? 'info' : 'error', message: outcome.success ? 'run succeeded' : `run ${outcome.state === 'finished' ? 'failed' : outcome.state}` });
    try {
      await this.history.record(run, outcome.message);
      await this.tasks.recordLastRun(task.name, { at: finishedAt, account_name: run.account_name, success: outcome.success, message: outcome.message, failure_category: outcome.category });
      await this.notify(task, run, outcome);
    } catch (error) {
      this.logger.error({ err: error }, `Finishing run ${run.run_id} of ${task.name} failed`);
    } finally {
      this.registry.update(run, { phase: null, phase_detail: null });
      this.registry.finish(run);
    }
  }

  private async notify(task: SignTask, run: RunRecord, outcome: { success: boolean; category: FailureCategory; message: string; state: string }): Promise<void> {
    if (outcome.state === 'cancelled') return;
    if (outcome.success && !task.notify_on_success) return;
    if (!outcome.success && !task.notify_on_failure) return;
    const title = outcome.success ? `Sign task ${task.name} succeeded` : `Sign task ${task.name} failed`;
    const lines = [`Account: ${run.account_name}`, ...(outcome.success ? [] : [`Category: ${outcome.category}`]), `Result: ${outcome.message}`];
    await this.notifier.notify({ kind: outcome.success ? 'task_success' : 'task_failure', title, lines });
  }
}
