import type { EntityManager } from 'typeorm';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, Optional } from '@nestjs/common';
import { RuleGate } from './rule-gate';
import { AccountSessionsService } from '../accounts/account-sessions.service';
import { AccountStore } from '../accounts/account-store';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import { ConfigSectionRegistry } from '../config-transfer/config-sections';
import { KeywordHitsService } from '../keyword-hits/keyword-hits.service';
import { RuntimeComponentStatus, RuntimeStatusRegistry } from '../ops/runtime-status.registry';
import { SettingsService } from '../settings/settings.service';
import { LISTEN_ACTION, SignTask } from '../sign-tasks/sign-task.types';
import { SignTasksService } from '../sign-tasks/sign-tasks.service';
import type { TelegramGateway, TelegramIncomingMessage } from '../telegram/telegram-gateway';
import { AccountListener, AccountListenerHost, ListenerState } from './account-listener';
import { HitPushService } from './hit-push.service';
import { HitVariables, messageUrl } from './hit-template';
import { CompiledListenRule } from './listen-rule';
import { listenerScopeExclusion, ScopeExclusion } from '../cluster/account-scope';
import { WatermarkStore } from './watermark-store';
import { PanelMetrics } from '../metrics/metrics.service';
import { ClusterService } from '../cluster/cluster.service';

export const RUNTIME_COMPONENT = 'keyword_listeners';

/** An account with listen tasks that has no running listener, and why. */
type IdleReason = ScopeExclusion | 'needs_relogin' | 'no_session' | 'account_not_found';

export interface ListenerStatus {
  state: ListenerState | 'excluded' | 'waiting_for_login';
  reason?: IdleReason;
  tasks: string[];
  chats: string[];
  rules: number;
  hits: number;
  problems: string[];
  error?: string;
  started_at?: string;
  last_message_at?: string;
  next_retry_at?: string;
}

const RETRY_DELAYS_MS = [10_000, 30_000, 60_000, 300_000];

/**
 * Keyword listeners: one per account that has enabled listen tasks, a valid session and is in this
 * instance's scope (APP_MONITOR_ACCOUNT_ALLOWLIST, APP_MONITOR_SHARD). Rules are compiled when the
 * tasks change; an account whose rules did not change keeps its listener. A hit is recorded first,
 * then pushed in the background; a failed push is stored on the hit, never loses it.
 */
@Injectable()
export class KeywordListenersService implements OnApplicationBootstrap, OnModuleDestroy, AccountListenerHost {
  readonly logger = new Logger(KeywordListenersService.name);
  private readonly listeners = new Map<string, { listener: AccountListener; signature: string }>();
  private readonly idle = new Map<string, ListenerStatus>();
  private readonly retries = new Map<string, { timer: NodeJS.Timeout; attempt: number; at: Date }>();
  private readonly pushes = new Set<Promise<void>>();
  private readonly unsubscribers: Array<() => void> = [];
  private readonly ruleGate = new RuleGate();
  private syncing: Promise<void> = Promise.resolve();
  private destroyed = false;

  constructor(
    @Inject(PANEL_CONFIG) private readonly config: PanelConfig,
    private readonly tasks: SignTasksService,
    private readonly accounts: AccountStore,
    private readonly sessions: AccountSessionsService,
    private readonly settings: SettingsService,
    private readonly hitStore: KeywordHitsService,
    private readonly pushService: HitPushService,
    private readonly watermarks: WatermarkStore,
    private readonly runtime: RuntimeStatusRegistry,
    private readonly metrics: PanelMetrics,
    private readonly cluster: ClusterService,
    @Optional() private readonly configSections?: ConfigSectionRegistry,
  ) {}

  get gateway(): TelegramGateway {
    return this.sessions.gateway;
  }

  onApplicationBootstrap(): void {
    this.runtime.register(RUNTIME_COMPONENT, () => this.runtimeStatus());
    this.metrics.watchListeners(this);
    this.unsubscribers.push(
      this.tasks.onTasksChanged((change) => {
        if (change.type !== 'last_run') void this.sync();
      }),
      this.sessions.onEvent(() => this.sync()),
      // Replicas on PostgreSQL: a listener runs only on the owner of the account's lease.
      this.cluster.onOwnershipChange(() => void this.sync()),
      this.cluster.addReleaseHook((accounts) => this.stopAccounts(accounts)),
    );
    this.configSections?.onImported('keyword-listeners', () => this.restartAfterImport());
    void this.sync();
  }

  async onModuleDestroy(): Promise<void> {
    this.destroyed = true;
    for (const unsubscribe of this.unsubscribers) unsubscribe();
    for (const retry of this.retries.values()) clearTimeout(retry.timer);
    this.retries.clear();
    this.runtime.unregister(RUNTIME_COMPONENT);
    await this.syncing.catch(() => undefined);
    await Promise.all([...this.listeners.values()].map((entry) => entry.listener.stop()));
    this.listeners.clear();
    await Promise.all([...this.pushes]);
  }

  /** Stops every listener and starts them again from the current tasks (after a configuration import). */
  restart(): Promise<void> {
    return this.enqueueSync(true);
  }

  /**
   * The restart after a configuration import, which reports the truth: it throws (so the import
   * result says ok: false) naming every account whose listen tasks have no running listener.
   */
  async restartAfterImport(): Promise<void> {
    await this.restart();
    const notRunning = Object.entries(this.status())
      .filter(([, status]) => status.state !== 'listening' && status.state !== 'excluded')
      .map(([account, status]) => `${account}: ${status.state}${status.reason ? ` (${status.reason})` : ''}${status.error ? ` (${status.error})` : ''}`);
    if (notRunning.length) throw new Error(`keyword listeners not running for ${notRunning.join('; ')}`);
  }

  /** Brings the listeners in line with the current tasks and accounts. */
  sync(): Promise<void> {
    return this.enqueueSync(false);
  }

  /** Resolves once every message received so far is handled and every push has ended (tests, shutdown). */
  async settled(): Promise<void> {
    await this.syncing;
    await Promise.all([...this.listeners.values()].map((entry) => entry.listener.idle()));
    while (this.pushes.size > 0) await Promise.all([...this.pushes]);
  }

  status(): Record<string, ListenerStatus> {
    const out: Record<string, ListenerStatus> = {};
    for (const [account, status] of this.idle) out[account] = status;
    for (const [account, { listener }] of this.listeners) {
      const retry = this.retries.get(account);
      out[account] = {
        state: listener.state,
        tasks: [...new Set(listener.rules.map((rule) => rule.taskName))].sort(),
        chats: listener.chats(),
        rules: listener.rules.length,
        hits: listener.hits,
        problems: listener.rules.flatMap((rule) => rule.problems.map((problem) => `${rule.taskName}: ${problem}`)),
        error: listener.lastError,
        started_at: listener.startedAt?.toISOString(),
        last_message_at: listener.lastMessageAt?.toISOString(),
        next_retry_at: retry?.at.toISOString(),
      };
    }
    return out;
  }

  // ----- AccountListenerHost ------------------------------------------------------------------

  timeZone(): string {
    return this.settings.getGlobal().timezone;
  }

  watermark(accountName: string, chatId: string): Promise<number | undefined> {
    return this.watermarks.get(accountName, chatId);
  }

  advanceWatermark(accountName: string, chatId: string, messageId: number): Promise<void> {
    // Fenced like the hits: a replica that lost the account cannot move it past hits it failed to record.
    return this.watermarks.advance(accountName, chatId, messageId, this.cluster.active ? (manager) => this.cluster.assertOwned(manager, accountName) : undefined);
  }

  onSessionInvalid(accountName: string, message: string): void {
    this.sessions.markSessionInvalid(accountName, message).catch((error: unknown) => this.logger.error({ err: error }, `Flagging ${accountName} for a new login failed`));
  }

  async onHit(rule: CompiledListenRule, message: TelegramIncomingMessage, keyword: string): Promise<void> {
    const chatTitle = message.chatTitle ?? rule.chatName ?? null;
    const url = messageUrl(message.chatId, message.id);
    // Every write of the hit (the row, its push outcome) is fenced by the account's lease.
    const fence = (manager: EntityManager) => this.cluster.assertOwned(manager, rule.accountName);
    const hit = await this.hitStore.record({
      accountName: rule.accountName,
      taskName: rule.taskName,
      chatId: message.chatId,
      chatTitle,
      messageThreadId: message.threadId ?? null,
      senderId: message.senderId ?? null,
      senderName: message.senderName ?? null,
      senderUsername: message.senderUsername ?? null,
      messageId: message.id,
      ruleIndex: rule.ruleIndex,
      messageText: message.text,
      matchedKeyword: keyword,
      messageUrl: url || null,
      hitAt: new Date(message.date * 1000),
      pushChannel: rule.pushChannel,
    }, { fence });
    if (!hit) return; // already recorded (a replay): never pushed twice
    this.metrics.keywordHitRecorded(rule.accountName);
    const held = this.ruleGate.check(rule, this.timeZone());
    if (held) {
      await this.hitStore.setPushOutcome(hit.id, 'skipped', held, { fence }).catch((error: unknown) => this.logger.error({ err: error, hit: hit.id }, 'Storing a skipped keyword hit failed'));
      return;
    }
    const sender = message.senderUsername ? `@${message.senderUsername}` : (message.senderName ?? message.senderId ?? '');
    const variables: HitVariables = {
      keyword,
      message: message.text,
      text: message.text,
      sender,
      chat_id: message.chatId,
      chat_title: chatTitle ?? '',
      message_id: String(message.id),
      url,
      task_name: rule.taskName,
      account_name: rule.accountName,
    };
    const push = this.pushService
      .push(rule.action, { accountName: rule.accountName, chatId: message.chatId, threadId: message.threadId, variables })
      .then((outcome) => this.hitStore.setPushOutcome(hit.id, outcome.status, outcome.status === 'sent' ? undefined : outcome.error, { fence }))
      .catch((error: unknown) => this.logger.error({ err: error, hit: hit.id }, 'Storing the push outcome of a keyword hit failed'));
    this.pushes.add(push);
    void push.finally(() => this.pushes.delete(push));
  }

  // ----- internals ----------------------------------------------------------------------------

  private enqueueSync(full: boolean): Promise<void> {
    this.syncing = this.syncing.then(() => (this.destroyed ? undefined : this.reconcile(full))).catch((error: unknown) => {
      this.logger.error({ err: error }, 'Synchronising keyword listeners failed');
    });
    return this.syncing;
  }

  /** The compiled rules of every account, from the enabled listen tasks. */
  private rulesByAccount(): Map<string, { rules: CompiledListenRule[]; signature: string; tasks: SignTask[] }> {
    const byAccount = new Map<string, { rules: CompiledListenRule[]; parts: string[]; tasks: SignTask[] }>();
    for (const task of this.tasks.list({ enabled: true, execution_mode: 'listen' })) {
      for (const accountName of this.tasks.accountsOf(task)) {
        const entry = byAccount.get(accountName) ?? { rules: [], parts: [], tasks: [] };
        entry.tasks.push(task);
        let ruleIndex = 0;
        for (const chat of task.chats) {
          for (const action of chat.actions) {
            if (action.action !== LISTEN_ACTION) continue;
            entry.rules.push(
              new CompiledListenRule({ accountName, taskName: task.name, ruleIndex: ruleIndex++, chatId: chat.chat_id, chatName: chat.name, messageThreadId: chat.message_thread_id, action }),
            );
            entry.parts.push(JSON.stringify([task.name, chat.chat_id, chat.name, chat.message_thread_id, action]));
          }
        }
        byAccount.set(accountName, entry);
      }
    }
    const out = new Map<string, { rules: CompiledListenRule[]; signature: string; tasks: SignTask[] }>();
    for (const [account, entry] of byAccount) {
      if (entry.rules.length > 0) out.set(account, { rules: entry.rules, signature: entry.parts.join('\n'), tasks: entry.tasks });
    }
    return out;
  }

  private async reconcile(full: boolean): Promise<void> {
    if (full) this.watermarks.clearCache();
    const wanted = this.rulesByAccount();
    this.idle.clear();
    const toStart: Array<{ account: string; rules: CompiledListenRule[]; signature: string }> = [];
    for (const [account, entry] of wanted) {
      const base: Omit<ListenerStatus, 'state'> = {
        tasks: [...new Set(entry.tasks.map((task) => task.name))].sort(),
        chats: [...new Set(entry.rules.map((rule) => rule.chatId))],
        rules: entry.rules.length,
        hits: 0,
        problems: entry.rules.flatMap((rule) => rule.problems.map((problem) => `${rule.taskName}: ${problem}`)),
      };
      // An account that does not exist is held by no replica: it waits for its login here, as on one instance.
      const elsewhere = this.accounts.get(account) !== undefined && !this.cluster.owns(account);
      const exclusion = listenerScopeExclusion(account, this.config.listeners) ?? (elsewhere ? 'other_replica' : undefined);
      const unavailable = exclusion ? undefined : this.unavailableReason(account);
      if (exclusion || unavailable) {
        this.idle.set(account, { ...base, state: exclusion ? 'excluded' : 'waiting_for_login', reason: exclusion ?? unavailable });
        continue;
      }
      const current = this.listeners.get(account);
      if (!full && current && current.signature === entry.signature && current.listener.state !== 'needs_relogin') continue;
      toStart.push({ account, rules: entry.rules, signature: entry.signature });
    }
    // Stop what is no longer wanted or must start again.
    for (const [account, { listener }] of [...this.listeners]) {
      if (toStart.some((item) => item.account === account) || !wanted.has(account) || this.idle.has(account)) {
        this.listeners.delete(account);
        this.cancelRetry(account);
        await listener.stop();
      }
    }
    for (const item of toStart) await this.startListener(item.account, item.rules, item.signature);
  }

  private unavailableReason(account: string): IdleReason | undefined {
    const record = this.accounts.get(account);
    if (!record) return 'account_not_found';
    if (record.needs_relogin) return 'needs_relogin';
    if (!record.has_session) return 'no_session';
    return undefined;
  }

  private async startListener(account: string, rules: CompiledListenRule[], signature: string): Promise<void> {
    let session;
    try {
      session = this.sessions.sessionFor(account);
    } catch {
      return;
    }
    const listener = new AccountListener(account, rules, session, this);
    this.listeners.set(account, { listener, signature });
    try {
      await listener.start();
      this.cancelRetry(account);
      if (!this.cluster.owns(account)) {
        // The lease went while the listener connected: it must not stay connected here.
        this.listeners.delete(account);
        await listener.stop();
      }
    } catch (error) {
      if (listener.state === 'needs_relogin') return; // the account event re-syncs; nothing to retry until a new login
      this.logger.warn(`Keyword listener of ${account} could not start: ${error instanceof Error ? error.message : String(error)}`);
      this.scheduleRetry(account);
    }
  }

  /** Stops the listeners of accounts this replica gives up, at once (not behind a running sync). */
  private async stopAccounts(accounts: string[]): Promise<void> {
    await Promise.all(
      accounts.map(async (account) => {
        const entry = this.listeners.get(account);
        if (!entry) return;
        this.listeners.delete(account);
        this.cancelRetry(account);
        await entry.listener.stop();
      }),
    );
    void this.sync();
  }

  private scheduleRetry(account: string): void {
    const attempt = (this.retries.get(account)?.attempt ?? -1) + 1;
    const delay = RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)];
    const previous = this.retries.get(account);
    if (previous) clearTimeout(previous.timer);
    const timer = setTimeout(() => {
      const entry = this.listeners.get(account);
      // Forget the failed listener so the next sync starts it again.
      if (entry && entry.listener.state === 'error') {
        this.listeners.delete(account);
        // Logged, not thrown: a rejection here would be unhandled and end the process.
        void entry.listener
          .stop()
          .then(() => this.sync())
          .catch((error: unknown) => this.logger.error({ err: error }, `Restarting the keyword listener of ${account} failed`));
      }
    }, delay);
    timer.unref();
    this.retries.set(account, { timer, attempt, at: new Date(Date.now() + delay) });
  }

  private cancelRetry(account: string): void {
    const retry = this.retries.get(account);
    if (retry) clearTimeout(retry.timer);
    this.retries.delete(account);
  }

  private runtimeStatus(): RuntimeComponentStatus {
    const accounts = this.status();
    const states = Object.values(accounts).map((status) => status.state);
    let state: RuntimeComponentStatus['state'] = 'idle';
    if (states.includes('listening')) state = states.some((s) => s === 'error' || s === 'needs_relogin') ? 'degraded' : 'running';
    else if (states.some((s) => s === 'error' || s === 'needs_relogin')) state = 'error';
    return {
      state,
      details: {
        accounts,
        account_allowlist: this.config.listeners.accountAllowlist ?? null,
        shard: this.config.listeners.shard ? `${this.config.listeners.shard.index}/${this.config.listeners.shard.count}` : null,
      },
    };
  }
}
