import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { englishText } from '@shared/panel-texts';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, Not, Repository } from 'typeorm';
import { PanelNotifier } from '../notifications/panel-notifier.service';
import { SignTask, TaskAction, TaskChat } from '../sign-tasks/sign-task.types';
import { SignTasksService } from '../sign-tasks/sign-tasks.service';
import { TelegramError } from '../telegram/telegram-error';
import { RUN_MESSAGES } from '../common/run-outcomes';
import { ActionRunner, coded, errorParams, FlowLogEntry, FlowLogParams, interruptionOf, waitFor } from './action-runner';
import type { FailureCategory } from '../common/run-outcomes';
import { failureCategoryOf, isRetryable, RunInterrupted } from './failure-category';
import { AccountRunLock } from './account-run-lock';
import { RunHistoryService, SignLogEvent } from './run-history.service';
import { RunRecord, RunRegistry, RunTrigger } from './run-registry';
import { RUN_TIMINGS, RunTimings } from './run-timings';
import { SentMessageDeletions } from './sent-message-deletions';
import { PendingRerun } from './entities/pending-rerun.entity';
import { TaskBusy, TaskNotRunnable } from '../common/panel-error';
import { TelegramMessage } from '../telegram/telegram-gateway';
import { AnswerMark, VerdictResult } from './action-runner';
import { combineVerdicts, namedWaitMs, RunVerdict, VerdictMatcher } from '../common/verdict';
import { ClusterService, StaleLeaseError } from '../cluster/cluster.service';

/** Writes a line of the run's flow log; a runner-written line also carries its code and parameters. */
type RunLog = (level: FlowLogEntry['level'], message: string, step?: string | null, codedAs?: { code?: string; params?: FlowLogParams }) => void;

interface StepsResult {
  lastReply: string | undefined;
  verdict: RunVerdict | null;
  verdictText: string | null;
  /** The bot named a wait: run the task once more after it. */
  rerunAfterMs?: number;
}

interface RunOutcome {
  success: boolean;
  category: FailureCategory;
  message: string;
  state: 'finished' | 'cancelled' | 'timeout' | 'interrupted';
  verdict: RunVerdict | null;
  verdictText: string | null;
}

const INTERRUPTION_STATES: Record<RunInterrupted['reason'], RunOutcome['state']> = { cancelled: 'cancelled', timeout: 'timeout', shutdown: 'interrupted', released: 'interrupted' };

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
export class TaskRunner implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(TaskRunner.name);
  private readonly pending = new Set<Promise<void>>();
  private readonly rerunTimers = new Map<string, NodeJS.Timeout>();
  private readonly rerunAt = new Map<string, string>();
  private stopListening?: () => void;
  private stopOwnership?: () => void;

  constructor(
    private readonly tasks: SignTasksService,
    private readonly actions: ActionRunner,
    private readonly registry: RunRegistry,
    private readonly lock: AccountRunLock,
    private readonly history: RunHistoryService,
    private readonly notifier: PanelNotifier,
    private readonly deletions: SentMessageDeletions,
    @Inject(RUN_TIMINGS) private readonly timings: RunTimings,
    @InjectRepository(PendingRerun) private readonly reruns: Repository<PendingRerun>,
    private readonly cluster: ClusterService,
  ) {}

  onModuleInit(): void {
    // A deleted task stops running and its in-memory runs are forgotten (its history stays).
    this.stopListening = this.tasks.onTasksChanged((change) => {
      if (change.type !== 'deleted') return;
      for (const name of change.names) {
        this.registry.cancel(name);
        this.registry.forgetTask(name);
        this.dropReruns(name);
      }
    });
    // A pending rerun belongs to the account's owner: a replica arms those of the accounts it gains
    // (a failover, a rebalance) and forgets the timers of those it loses.
    this.stopOwnership = this.cluster.onOwnershipChange((change) => {
      for (const account of change.lost) this.disarmAccount(account);
      if (change.gained.length) void this.armPendingReruns(change.gained);
    });
  }

  /** Reruns after a named wait that were still pending when the service stopped run at their time, or now if it passed. */
  async onApplicationBootstrap(): Promise<void> {
    await this.armPendingReruns();
  }

  /**
   * Arms the stored reruns (of `accounts`, or all at start) whose account this replica owns (on
   * SQLite every account); at start the rows of deleted tasks are removed. Never throws.
   */
  private async armPendingReruns(accounts?: string[]): Promise<void> {
    try {
      const pending = await this.reruns.find({ where: accounts ? { dueAt: Not(IsNull()), accountName: In(accounts) } : { dueAt: Not(IsNull()) } });
      for (const row of pending) {
        if (!this.tasks.get(row.taskName)) {
          // At start the tasks are loaded; a lease gained may come before that (the first heartbeat), so only the start prunes.
          if (!accounts) await this.reruns.delete({ taskName: row.taskName, accountName: row.accountName });
          continue;
        }
        if (!this.cluster.owns(row.accountName)) continue;
        this.logger.log(`Task ${row.taskName} (${row.accountName}) still runs again after the wait its bot named, at ${new Date(row.dueAt as number).toISOString()}`);
        this.armRerun(row.taskName, row.accountName, row.dueAt as number);
      }
    } catch (error) {
      this.logger.error(`The pending reruns after a named wait could not be read: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Forgets the rerun timers of an account this replica no longer owns (the new owner arms them). */
  private disarmAccount(accountName: string): void {
    for (const [key, timer] of this.rerunTimers) {
      if (key.split('\u0000')[1] !== accountName) continue;
      clearTimeout(timer);
      this.rerunTimers.delete(key);
      this.rerunAt.delete(key);
    }
  }

  async onModuleDestroy(): Promise<void> {
    this.stopListening?.();
    this.stopOwnership?.();
    for (const timer of this.rerunTimers.values()) clearTimeout(timer);
    this.rerunTimers.clear();
    // Recorded as interrupted (not cancelled: nobody asked) while this replica still holds the
    // accounts' leases: the cluster hands them over in beforeApplicationShutdown, after this.
    for (const run of this.registry.active()) run.abort?.abort(new RunInterrupted('shutdown'));
    await this.settle();
  }

  /**
   * Starts the task for each of its accounts (or `onlyAccount`) and returns at once. Accounts that
   * already run this task are skipped; TaskBusy when that leaves nothing to start, TaskNotRunnable for
   * listen tasks and tasks without an account. `claim`: the due run a scheduled start is (replicas).
   */
  start(taskName: string, trigger: RunTrigger, onlyAccount?: string, claim?: RunRecord['claim']): StartedRun[] {
    const task = this.tasks.require(taskName);
    if (task.execution_mode === 'listen') throw new TaskNotRunnable(`Task ${taskName} is a listen task; it runs through its keyword listener, not on demand`);
    const accounts = onlyAccount ? [onlyAccount] : this.tasks.accountsOf(task);
    if (accounts.length === 0) throw new TaskNotRunnable(`Task ${taskName} has no account to run for`);
    const started: StartedRun[] = [];
    for (const accountName of accounts) {
      if (this.registry.activeFor(taskName, accountName).length > 0) continue;
      const record = this.registry.create({
        task_name: taskName,
        account_name: accountName,
        trigger,
        timeout_seconds: Math.round(this.timings.runTimeoutMs / 1000),
        epoch: this.cluster.epochOf(accountName),
        ...(claim ? { claim } : {}),
      });
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
    const log: RunLog = (level, message, step = null, codedAs) =>
      this.registry.log(run, { at: new Date().toISOString(), step, level, message, ...(codedAs?.code ? { code: codedAs.code, params: codedAs.params ?? {} } : {}) });
    let outcome: RunOutcome;
    let rerunAfterMs: number | undefined;
    const judged = task.chats.some((chat) => chat.verdict !== undefined && new VerdictMatcher(chat.verdict).declared);
    const sent: SentByChat = new Map();
    try {
      this.registry.update(run, { phase: 'checking_account', phase_detail: englishText('phaseDetail', 'checking_account', { account: run.account_name }) });
      const session = this.actions.sessionOf(run.account_name);

      if (this.lock.isBusy(run.account_name)) {
        this.registry.update(run, { phase: 'waiting_lock', phase_detail: englishText('phaseDetail', 'waiting_lock', { account: run.account_name }) });
        log('info', `waiting for another run of ${run.account_name} to finish`, null, coded('waiting_lock', { account: run.account_name }, ''));
      }
      release = await this.lock.acquire(run.account_name, signal);

      const cooldown = this.lock.cooldownRemaining(run.account_name, this.timings.accountCooldownMs);
      if (cooldown > 0) {
        this.registry.update(run, { phase: 'cooldown', phase_detail: englishText('phaseDetail', 'cooldown'), wait_seconds: Math.ceil(cooldown / 1000) });
        await waitFor(cooldown, signal);
      }

      timeoutTimer = setTimeout(() => abort.abort(new RunInterrupted('timeout')), this.timings.runTimeoutMs);
      this.registry.update(run, { phase: 'running', phase_detail: null, wait_seconds: null });
      const result = await this.runSteps(task, run, session, signal, log, sent);
      rerunAfterMs = result.rerunAfterMs;
      const good = result.verdict === null || result.verdict === 'success' || result.verdict === 'already_done';
      outcome = {
        success: good,
        category: good ? 'none' : result.verdict === 'failed' ? 'bot_refused' : 'unconfirmed',
        message: result.verdictText ?? result.lastReply ?? (result.verdict === 'unconfirmed' ? RUN_MESSAGES.no_answer : RUN_MESSAGES.completed),
        state: 'finished',
        verdict: result.verdict,
        verdictText: result.verdictText,
      };
    } catch (error) {
      const interrupted = error instanceof RunInterrupted ? error : signal.aborted ? interruptionOf(signal) : undefined;
      const category = interrupted ? (interrupted.reason === 'timeout' ? 'timeout' : 'none') : failureCategoryOf(error);
      const message = error instanceof Error ? error.message : String(error);
      log('error', message, null, coded('run_error', errorParams(message), ''));
      if (category === 'session_invalid') await this.actions.markSessionInvalid(run.account_name, message);
      outcome = {
        success: false,
        category,
        message,
        state: interrupted ? INTERRUPTION_STATES[interrupted.reason] : 'finished',
        // A task judged by the bot's answer that could not even act failed; a cancelled run has no verdict.
        verdict: judged && (!interrupted || interrupted.reason === 'timeout') ? 'failed' : null,
        verdictText: null,
      };
    } finally {
      if (timeoutTimer) clearTimeout(timeoutTimer);
      release?.();
    }
    // A failed or cancelled run still cleans up what it sent before it stopped.
    for (const chatIndex of [...sent.keys()]) this.scheduleDeletion(task, run, chatIndex, sent, log);
    // Stored before the run shows as finished, so whoever sees it finished also sees its pending rerun.
    if (rerunAfterMs !== undefined && outcome.state === 'finished' && !outcome.success) await this.scheduleRerun(task, run, rerunAfterMs);
    await this.finalize(task, run, outcome);
  }

  /**
   * The bot named a wait ("请 37 分钟后再试"): the task runs once more for this account after it,
   * at most once a (UTC) day per task and account. Stored in the database (pending_reruns), so a
   * restart before the wait ends still runs it; logged. Never throws.
   */
  private async scheduleRerun(task: SignTask, run: RunRecord, waitMs: number): Promise<void> {
    try {
      const day = new Date().toISOString().slice(0, 10);
      const where = { taskName: task.name, accountName: run.account_name };
      const earlier = await this.reruns.findOne({ where });
      if (run.trigger === 'rerun' || earlier?.day === day) {
        this.logger.log(`Run ${run.run_id} of ${task.name} (${run.account_name}) named a wait, but the task already ran again after a wait today`);
        return;
      }
      const delay = Math.min(2_147_000_000, Math.max(0, Math.round(waitMs * (this.timings.namedWaitScale ?? 1))));
      const dueAt = Date.now() + delay;
      await this.reruns.save(this.reruns.create({ ...where, day, dueAt, runId: run.run_id, createdAt: Date.now() }));
      this.logger.log(`Task ${task.name} (${run.account_name}) runs again at ${new Date(dueAt).toISOString()}: the bot asked to wait ${Math.round(waitMs / 1000)} s`);
      this.armRerun(task.name, run.account_name, dueAt);
    } catch (error) {
      this.logger.error(`The rerun of ${task.name} (${run.account_name}) after the bot's wait could not be stored: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * Starts the stored rerun at `dueAt`. The row is claimed first (due_at cleared only while it still
   * holds this time, fenced by the account's lease), so a rerun starts once, on the account's owner,
   * even when a restart or a lease moving armed it twice.
   */
  private armRerun(taskName: string, accountName: string, dueAt: number): void {
    const key = `${taskName}\u0000${accountName}`;
    this.rerunAt.set(key, new Date(dueAt).toISOString());
    clearTimeout(this.rerunTimers.get(key));
    const timer = setTimeout(() => {
      this.rerunTimers.delete(key);
      this.rerunAt.delete(key);
      void this.fireRerun(taskName, accountName, dueAt);
    }, Math.max(0, dueAt - Date.now()));
    timer.unref();
    this.rerunTimers.set(key, timer);
  }

  /**
   * Claims the row (fenced: only the account's owner) and starts the rerun; when the start fails the
   * row gets its time back, so the next owner or start still runs it.
   */
  private async fireRerun(taskName: string, accountName: string, dueAt: number): Promise<void> {
    if (!this.cluster.owns(accountName)) return;
    let claimed = false;
    try {
      claimed = await this.reruns.manager.transaction(async (manager) => {
        await this.cluster.assertOwned(manager, accountName);
        const claim = await manager.update(PendingRerun, { taskName, accountName, dueAt }, { dueAt: null });
        return claim.affected === 1;
      });
      if (!claimed) return;
      this.start(taskName, 'rerun', accountName);
    } catch (error) {
      if (error instanceof StaleLeaseError) return;
      this.logger.warn(`The rerun of ${taskName} (${accountName}) after the bot's wait did not start: ${error instanceof Error ? error.message : String(error)}`);
      if (claimed) {
        await this.reruns
          .update({ taskName, accountName, dueAt: IsNull() }, { dueAt })
          .catch((restore: unknown) => this.logger.error(`The rerun of ${taskName} (${accountName}) could not be put back: ${restore instanceof Error ? restore.message : String(restore)}`));
      }
    }
  }

  /** A deleted task's pending reruns end with it. */
  private dropReruns(taskName: string): void {
    for (const [key, timer] of this.rerunTimers) {
      if (!key.startsWith(`${taskName}\u0000`)) continue;
      clearTimeout(timer);
      this.rerunTimers.delete(key);
      this.rerunAt.delete(key);
    }
    this.reruns.delete({ taskName }).catch((error: unknown) => this.logger.warn(`The pending reruns of ${taskName} were not removed: ${error instanceof Error ? error.message : String(error)}`));
  }

  /** When a task runs again after a wait its bot named, per account (ISO time), for the flow log and tests. */
  pendingReruns(taskName: string): Array<{ account_name: string; at: string }> {
    return [...this.rerunAt.entries()].filter(([key]) => key.startsWith(`${taskName}\u0000`)).map(([key, at]) => ({ account_name: key.split('\u0000')[1], at }));
  }

  /**
   * Runs the steps from the first; on a retryable failure waits and resumes at the failed step. A
   * chat that declares verdict patterns is judged by the bot's answer to its last action; a `failed`
   * answer repeats the chat per the retry policy, one that names a wait asks for a rerun after it.
   */
  private async runSteps(
    task: SignTask,
    run: RunRecord,
    session: ReturnType<ActionRunner['sessionOf']>,
    signal: AbortSignal,
    log: RunLog,
    sent: SentByChat,
  ): Promise<StepsResult> {
    const steps: Step[] = task.chats.flatMap((chat, chatIndex) => chat.actions.map((action, actionIndex) => ({ chatIndex, actionIndex, chat, action })));
    let next = 0;
    let retriesLeft = task.retry_count;
    let lastReply: string | undefined;
    const verdicts = new Map<number, VerdictResult>();
    let rerunAfterMs: number | undefined;
    let mark: AnswerMark | undefined;
    let previousReply: TelegramMessage | null = null;
    this.registry.update(run, { attempts: 1 });
    while (next < steps.length) {
      const step = steps[next];
      const label = `chat ${step.chatIndex + 1} action ${step.actionIndex + 1}`;
      if (step.actionIndex === 0) {
        mark = undefined;
        previousReply = null;
      }
      try {
        if (step.actionIndex > 0 && step.chat.action_interval) await waitFor(step.chat.action_interval * 1000, signal);
        if (step.actionIndex === 0 && step.chatIndex > 0 && task.sign_interval) await waitFor(task.sign_interval * 1000, signal);
        this.registry.update(run, { phase_detail: englishText('phaseDetail', 'action', { step: label, action: step.action.action, chat: step.chat.chat_id }) });
        await this.actions.runAction(step.action, {
          session,
          target: { chat_id: step.chat.chat_id, message_thread_id: step.chat.message_thread_id },
          signal,
          step: label,
          previousReply,
          log: (entry) => {
            if (entry.message.startsWith('reply: ')) lastReply = entry.message.slice('reply: '.length);
            log(entry.level, entry.message, entry.step === undefined ? label : entry.step, entry);
          },
          onSent: (_chat, message) => {
            if (step.chat.delete_after) sent.set(step.chatIndex, [...(sent.get(step.chatIndex) ?? []), message.id]);
          },
          onMark: (value) => {
            mark = value;
          },
          onReply: (reply) => {
            previousReply = reply;
          },
        });
        next += 1;
        const lastOfChat = step.actionIndex === step.chat.actions.length - 1;
        if (lastOfChat && step.chat.verdict && new VerdictMatcher(step.chat.verdict).declared) {
          const chatLabel = `chat ${step.chatIndex + 1}`;
          this.registry.update(run, { phase_detail: englishText('phaseDetail', 'reading_answer', { step: chatLabel, chat: step.chat.chat_id }) });
          const result = await this.actions.awaitVerdict(step.chat.verdict, mark ?? { afterId: 0, sinceSeconds: Math.floor(Date.now() / 1000) }, {
            session,
            target: { chat_id: step.chat.chat_id, message_thread_id: step.chat.message_thread_id },
            signal,
            step: chatLabel,
            log: (entry) => log(entry.level, entry.message, entry.step === undefined ? chatLabel : entry.step, entry),
          });
          verdicts.set(step.chatIndex, result);
          log(
            result.verdict === 'success' || result.verdict === 'already_done' ? 'info' : 'warn',
            `verdict ${result.verdict}: ${result.reason}${result.text ? ` (${result.text})` : ''}`,
            chatLabel,
            coded('verdict', { verdict: result.verdict, reason: result.reasonCode, ...result.reasonParams, ...(result.text ? { text: result.text } : {}) }, ''),
          );
          const wait = result.text && (result.verdict === 'failed' || result.verdict === 'unconfirmed') && step.chat.verdict.rerun_after_wait !== false
            ? namedWaitMs(result.text, new Date(), 'UTC')
            : undefined;
          if (wait !== undefined) {
            rerunAfterMs = wait;
          } else if (result.verdict === 'failed' && retriesLeft > 0) {
            retriesLeft -= 1;
            next = steps.findIndex((candidate) => candidate.chatIndex === step.chatIndex);
            const seconds = Math.ceil(this.timings.retryDelayMs / 1000);
            log('warn', `the bot answered with a failure; repeating ${chatLabel} in ${seconds} s, ${retriesLeft} retries left`, chatLabel, coded('bot_failed_retry', { seconds, retries: retriesLeft }, ''));
            this.registry.update(run, { attempts: run.attempts + 1, phase_detail: englishText('phaseDetail', 'retrying', { step: chatLabel }), wait_seconds: Math.ceil(this.timings.retryDelayMs / 1000) });
            await waitFor(this.timings.retryDelayMs, signal);
            this.registry.update(run, { wait_seconds: null });
            continue;
          }
        }
        if (lastOfChat) this.scheduleDeletion(task, run, step.chatIndex, sent, log);
      } catch (error) {
        if (error instanceof RunInterrupted || signal.aborted) throw error;
        const category = failureCategoryOf(error);
        if (!isRetryable(category) || retriesLeft <= 0) throw error;
        retriesLeft -= 1;
        const floodSeconds = error instanceof TelegramError && error.kind === 'flood_wait' ? (error.seconds ?? 0) : 0;
        const waitMs = Math.max(this.timings.retryDelayMs, floodSeconds * 1000);
        const message = error instanceof Error ? error.message : String(error);
        const seconds = Math.ceil(waitMs / 1000);
        log('warn', `${message} (${category}); retrying from this step in ${seconds} s, ${retriesLeft} retries left`, label, coded('step_retry', { ...errorParams(message), category, seconds, retries: retriesLeft }, ''));
        this.registry.update(run, { attempts: run.attempts + 1, failure_category: category, phase_detail: englishText('phaseDetail', 'retrying', { step: label }), wait_seconds: Math.ceil(waitMs / 1000) });
        await waitFor(waitMs, signal);
        this.registry.update(run, { wait_seconds: null, failure_category: 'none' });
      }
    }
    const judged = [...verdicts.values()];
    const verdict = combineVerdicts(judged.map((v) => v.verdict));
    const deciding = verdict === null ? undefined : [...judged].reverse().find((v) => v.verdict === verdict);
    return { lastReply, verdict, verdictText: deciding?.text ?? null, rerunAfterMs };
  }

  /** Hands what the run sent in one chat to the `delete_after` timer; the run does not wait for it. */
  private scheduleDeletion(task: SignTask, run: RunRecord, chatIndex: number, sent: SentByChat, log: RunLog): void {
    const messageIds = sent.get(chatIndex) ?? [];
    sent.delete(chatIndex);
    const chat = task.chats[chatIndex];
    if (!chat?.delete_after || messageIds.length === 0) return;
    this.deletions.schedule({ accountName: run.account_name, taskName: task.name, runId: run.run_id, chatId: chat.chat_id, messageIds, delaySeconds: chat.delete_after });
    log(
      'info',
      `${messageIds.length} sent message(s) in ${chat.chat_id} will be deleted in ${chat.delete_after} s`,
      `chat ${chatIndex + 1}`,
      coded('deletion_scheduled', { count: messageIds.length, chat: chat.chat_id, seconds: chat.delete_after }, ''),
    );
  }

  private async finalize(task: SignTask, run: RunRecord, outcome: RunOutcome): Promise<void> {
    const finishedAt = new Date().toISOString();
    this.registry.update(run, {
      verdict: outcome.verdict,
      verdict_text: outcome.verdictText,
      phase: 'finalizing',
      state: outcome.state,
      success: outcome.success,
      error: outcome.success ? null : outcome.message,
      failure_category: outcome.category,
      output: outcome.message,
      finished_at: finishedAt,
      wait_seconds: null,
    });
    const ended = outcome.verdict
      ? coded('run_ended_verdict', { verdict: outcome.verdict }, `run ended: ${outcome.verdict}`)
      : outcome.success
        ? coded('run_succeeded', {}, 'run succeeded')
        : outcome.state === 'finished'
          ? coded('run_failed', {}, 'run failed')
          : coded('run_interrupted', { state: outcome.state }, `run ${outcome.state}`);
    this.registry.log(run, { at: finishedAt, step: null, level: outcome.success ? 'info' : 'error', ...ended });
    this.history.countFinished(run);
    try {
      // The history row and the task's last run in one fenced transaction: a replica that lost the
      // account's lease meanwhile writes neither (the new owner records the run as interrupted), and
      // one whose commit went through announces and notifies.
      let stored: SignLogEvent | undefined;
      await this.tasks.recordLastRun(
        task.name,
        { at: finishedAt, account_name: run.account_name, success: outcome.success, message: outcome.message, failure_category: outcome.category, verdict: outcome.verdict },
        async (manager) => {
          await this.cluster.assertOwned(manager, run.account_name, run.epoch);
          stored = await this.history.store(manager, run, outcome.message);
        },
      );
      if (stored) await this.history.announce(stored);
      await this.notify(task, run, outcome);
    } catch (error) {
      if (error instanceof StaleLeaseError) await this.recordUnowned(task, run, outcome);
      else this.logger.error({ err: error }, `Finishing run ${run.run_id} of ${task.name} failed`);
    } finally {
      this.registry.update(run, { phase: null, phase_detail: null });
      this.registry.finish(run);
    }
  }

  /**
   * The fenced record of a run was refused: this replica lost the account (or lost it and got it back)
   * while the run went. A scheduled run has a claim, and the account's owner records it as
   * interrupted. A run without one (run now, batch, rerun) is known to no other replica: its own
   * history row is written here, unfenced, once (the refused write left nothing); the task's last run
   * and the notification stay with the owner's fence and are not written. Only for a run that began
   * while this replica owned the account.
   */
  private async recordUnowned(task: SignTask, run: RunRecord, outcome: RunOutcome): Promise<void> {
    if (run.claim || run.epoch === undefined) {
      this.logger.warn(`Run ${run.run_id} of ${task.name} ended after this replica lost ${run.account_name}: its history row, last run and notification are left to the new owner`);
      return;
    }
    try {
      const stored = await this.history.storeUnfenced(run, outcome.message);
      this.logger.warn(`Run ${run.run_id} of ${task.name} ended after this replica lost ${run.account_name}: recorded in the history as ${run.state} (no last run, no notification)`);
      await this.history.announce(stored);
    } catch (error) {
      this.logger.error({ err: error }, `Recording run ${run.run_id} of ${task.name} after this replica lost ${run.account_name} failed`);
    }
  }

  private async notify(task: SignTask, run: RunRecord, outcome: RunOutcome): Promise<void> {
    if (outcome.state === 'cancelled' || outcome.state === 'interrupted') return;
    if (outcome.success && !task.notify_on_success) return;
    if (!outcome.success && !task.notify_on_failure) return;
    const texts = this.notifier.texts();
    const title = outcome.verdict
      ? texts.say('taskVerdict', { task: task.name, verdict: texts.verdictTitle(outcome.verdict) })
      : texts.say(outcome.success ? 'taskSucceeded' : 'taskFailed', { task: task.name });
    const lines = [
      texts.say('account', { account: run.account_name }),
      ...(outcome.success ? [] : [texts.say('category', { category: texts.category(outcome.category) })]),
      ...(outcome.verdict ? [texts.say('verdict', { verdict: texts.verdict(outcome.verdict) })] : []),
      texts.say('result', { result: texts.runMessage({ message: outcome.message, success: outcome.success, failure_category: outcome.category }) }),
    ];
    await this.notifier.notify({ kind: outcome.success ? 'task_success' : 'task_failure', title, lines });
  }
}
