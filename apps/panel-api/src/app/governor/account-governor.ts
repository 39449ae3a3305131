import { englishText } from '@shared/panel-texts';
import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomInt } from 'node:crypto';
import { Repository } from 'typeorm';
import { ClusterService } from '../cluster/cluster.service';
import { SettingsService } from '../settings/settings.service';
import { TelegramError } from '../telegram/telegram-error';
import { AccountSafety } from './entities/account-safety.entity';
import { GOVERNOR_CLOCK, GovernorClock } from './governor-clock';

/** The limits every account's actions pass (settings `safety_*`). */
export interface GovernorLimits {
  /** Seconds between two actions of one account in one chat. */
  minSpacingSeconds: number;
  perMinute: number;
  perDay: number;
  /** Up to this many milliseconds added at random to every wait the governor imposes. */
  jitterMs: number;
  /** A FloodWait longer than this pauses the account's automation until someone resumes it. */
  floodPauseSeconds: number;
}

export type GovernorRefusalReason = 'paused' | 'daily_cap' | 'busy';

/** An action the governor did not let through; runs fail with category flood_wait, listeners skip the reply. */
export class GovernorRefusal extends Error {
  constructor(
    readonly reason: GovernorRefusalReason,
    message: string,
    /** For `busy`: how long the action would have had to wait. */
    readonly waitMs = 0,
  ) {
    super(message);
    this.name = 'GovernorRefusal';
  }
}

export interface FloodWaitRecord {
  at: string;
  seconds: number;
  method: string;
}

export interface AccountSafetyState {
  account_name: string;
  paused: boolean;
  paused_at: string | null;
  pause_reason: string | null;
  /** Writes (messages, dice, clicks, deletions) in the last 60 s, and the cap. */
  minute_used: number;
  minute_limit: number;
  /** Writes today (UTC), and the cap. */
  day_used: number;
  day_limit: number;
  /** Actions refused today (cap reached, paused, or a listener reply that would have waited too long). */
  refused_today: number;
  /** Every call the account made through the governor today, reads included. */
  calls_today: number;
  /** No write before this time (a FloodWait in force), or null. */
  flood_wait_until: string | null;
  /** The latest FloodWaits, newest first (at most 20). */
  flood_waits: FloodWaitRecord[];
}

export interface GovernorPauseEvent {
  accountName: string;
  seconds: number;
  method: string;
}

interface Budget {
  /** Acquisitions of one account run one after another. */
  chain: Promise<void>;
  lastByChat: Map<string, number>;
  /** Times of the writes of the last minute, oldest first. */
  minute: number[];
  day: string;
  dayCount: number;
  refused: number;
  calls: number;
  floodUntil: number;
  floodWaits: FloodWaitRecord[];
  paused: { at: string; reason: string } | null;
}

const FLOOD_HISTORY = 20;
/** Methods that write to Telegram: spaced, capped and held back by a FloodWait. */
export const WRITE_METHODS = new Set(['sendMessage', 'sendDice', 'clickButton', 'deleteMessages']);

/**
 * The safety governor (issue 35): every write an account makes, from runs, listeners' replies and
 * forwards, deletions, passes one budget per account: a minimum spacing per chat, per-minute and
 * per-day caps, random jitter on every imposed wait, and FloodWait obeyed exactly (no write before
 * the given seconds plus jitter have passed); a FloodWait above the threshold pauses the account's
 * automation (stored, so a restart keeps it) until POST …/safety/resume. Reads are counted and their
 * FloodWaits recorded but never delayed. The day's writes, a FloodWait in force and a pause are
 * stored with every change, so a restart (or the replica that takes the account over after one
 * started) does not hand the account a fresh day budget; the per-minute window and per-chat spacing
 * live in this process.
 */
@Injectable()
export class AccountGovernor implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(AccountGovernor.name);
  private readonly budgets = new Map<string, Budget>();
  private readonly pauseListeners = new Set<(event: GovernorPauseEvent) => void>();
  private stopOwnership?: () => void;

  constructor(
    private readonly settings: SettingsService,
    @InjectRepository(AccountSafety) private readonly rows: Repository<AccountSafety>,
    @Inject(GOVERNOR_CLOCK) private readonly clock: GovernorClock,
    private readonly cluster: ClusterService,
  ) {}

  async onModuleInit(): Promise<void> {
    for (const row of await this.rows.find()) this.adopt(row);
    // Replicas: an account taken over from another replica comes with the budget that replica stored.
    this.stopOwnership = this.cluster.onOwnershipChange((change) => {
      for (const accountName of change.gained) void this.reload(accountName);
    });
  }

  onModuleDestroy(): void {
    this.stopOwnership?.();
  }

  private async reload(accountName: string): Promise<void> {
    try {
      const row = await this.rows.findOneBy({ accountName });
      if (row) this.adopt(row);
    } catch (error) {
      this.logger.error({ err: error }, `Could not read the stored safety state of ${accountName}`);
    }
  }

  /** Takes the stored state of an account: its pause, FloodWaits, the day's writes and a FloodWait in force. */
  private adopt(row: AccountSafety): void {
    const budget = this.budget(row.accountName);
    budget.paused = row.pausedAt === null ? null : { at: new Date(Number(row.pausedAt)).toISOString(), reason: row.pauseReason ?? 'paused' };
    budget.floodWaits = parseFloodWaits(row.floodWaits);
    if (row.day === budget.day) budget.dayCount = Math.max(budget.dayCount, row.dayCount);
    else if (row.day > budget.day) {
      budget.day = row.day;
      budget.dayCount = row.dayCount;
    }
    budget.floodUntil = Math.max(budget.floodUntil, Number(row.floodUntil) || 0);
  }

  limits(): GovernorLimits {
    const global = this.settings.getGlobal();
    return {
      minSpacingSeconds: global.safety_min_spacing_seconds,
      perMinute: global.safety_per_minute,
      perDay: global.safety_per_day,
      jitterMs: global.safety_jitter_ms,
      floodPauseSeconds: global.safety_flood_pause_seconds,
    };
  }

  onPause(listener: (event: GovernorPauseEvent) => void): () => void {
    this.pauseListeners.add(listener);
    return () => this.pauseListeners.delete(listener);
  }

  /**
   * Waits until the account may write in `chat`, then counts the write, and answers the function
   * that ends it: the account's next write is decided only once this one has been sent (or failed),
   * so two writes are never in flight at once and the spacing holds between the sends themselves,
   * not only between the decisions. Refuses (GovernorRefusal) when the account is paused, its daily
   * cap is used, or the wait would exceed `maxWaitMs`.
   */
  async acquire(accountName: string, chat: string, options: { signal?: AbortSignal; maxWaitMs?: number } = {}): Promise<() => void> {
    const budget = this.budget(accountName);
    const previous = budget.chain;
    let release!: () => void;
    budget.chain = new Promise<void>((resolve) => (release = resolve));
    let granted = false;
    try {
      await previous;
      const limits = this.limits();
      this.rollDay(budget);
      budget.calls += 1;
      if (budget.paused) throw this.refuse(budget, 'paused', englishText('runMessage', 'safety_paused', { account: accountName, reason: budget.paused.reason }));
      if (budget.dayCount >= limits.perDay) throw this.refuse(budget, 'daily_cap', englishText('runMessage', 'safety_daily_cap', { account: accountName, limit: limits.perDay }));
      const now = this.clock.now();
      budget.minute = budget.minute.filter((at) => at > now - 60_000);
      const last = budget.lastByChat.get(chat);
      const paced = Math.max(
        last === undefined ? 0 : last + limits.minSpacingSeconds * 1000,
        budget.minute.length >= limits.perMinute ? budget.minute[budget.minute.length - limits.perMinute] + 60_000 : 0,
      );
      let waitMs = Math.max(0, Math.max(paced, budget.floodUntil) - now);
      // A FloodWait's end already carries its jitter; spacing and caps get theirs here.
      if (waitMs > 0 && paced > budget.floodUntil && limits.jitterMs > 0) waitMs += randomInt(0, limits.jitterMs + 1);
      if (options.maxWaitMs !== undefined && waitMs > options.maxWaitMs) {
        throw this.refuse(budget, 'busy', englishText('runMessage', 'safety_busy', { account: accountName, seconds: Math.ceil(waitMs / 1000) }), waitMs);
      }
      if (waitMs > 0) await this.clock.sleep(waitMs, options.signal);
      const at = this.clock.now();
      budget.lastByChat.set(chat, at);
      budget.minute.push(at);
      budget.dayCount += 1;
      await this.persist(accountName, budget);
      granted = true;
      return release;
    } finally {
      if (!granted) release();
    }
  }

  /** Counts a read (no budget applies to it). */
  noteCall(accountName: string): void {
    const budget = this.budget(accountName);
    this.rollDay(budget);
    budget.calls += 1;
  }

  /** Learns from a failed call: a FloodWait holds back writes (when a write caused it) and may pause the account. */
  async noteFailure(accountName: string, method: string, error: unknown): Promise<void> {
    if (!(error instanceof TelegramError) || error.kind !== 'flood_wait') return;
    const seconds = error.seconds ?? 0;
    const budget = this.budget(accountName);
    const limits = this.limits();
    const now = this.clock.now();
    budget.floodWaits = [{ at: new Date(now).toISOString(), seconds, method }, ...budget.floodWaits].slice(0, FLOOD_HISTORY);
    if (WRITE_METHODS.has(method)) {
      const jitter = limits.jitterMs > 0 ? randomInt(0, limits.jitterMs + 1) : 0;
      budget.floodUntil = Math.max(budget.floodUntil, now + seconds * 1000 + jitter);
    }
    const pause = seconds > limits.floodPauseSeconds && !budget.paused;
    if (pause) budget.paused = { at: new Date(now).toISOString(), reason: `FloodWait of ${seconds} s on ${method}` };
    await this.persist(accountName, budget);
    if (pause) {
      this.logger.warn(`Automation of ${accountName} paused: Telegram asked to wait ${seconds} s (${method}), above the ${limits.floodPauseSeconds} s threshold`);
      for (const listener of this.pauseListeners) listener({ accountName, seconds, method });
    }
  }

  /** Lets a paused account act again; the FloodWait in force (if any) still holds back writes until it passes. */
  async resume(accountName: string): Promise<AccountSafetyState> {
    const budget = this.budget(accountName);
    budget.paused = null;
    await this.persist(accountName, budget);
    this.logger.log(`Automation of ${accountName} resumed`);
    return this.state(accountName);
  }

  isPaused(accountName: string): boolean {
    return this.budgets.get(accountName)?.paused != null;
  }

  state(accountName: string): AccountSafetyState {
    const budget = this.budget(accountName);
    const limits = this.limits();
    this.rollDay(budget);
    const now = this.clock.now();
    return {
      account_name: accountName,
      paused: budget.paused !== null,
      paused_at: budget.paused?.at ?? null,
      pause_reason: budget.paused?.reason ?? null,
      minute_used: budget.minute.filter((at) => at > now - 60_000).length,
      minute_limit: limits.perMinute,
      day_used: budget.dayCount,
      day_limit: limits.perDay,
      refused_today: budget.refused,
      calls_today: budget.calls,
      flood_wait_until: budget.floodUntil > now ? new Date(budget.floodUntil).toISOString() : null,
      flood_waits: [...budget.floodWaits],
    };
  }

  /** Forgets an account (deleted). */
  async forget(accountName: string): Promise<void> {
    this.budgets.delete(accountName);
    await this.rows.delete({ accountName });
  }

  private refuse(budget: Budget, reason: GovernorRefusalReason, message: string, waitMs = 0): GovernorRefusal {
    budget.refused += 1;
    return new GovernorRefusal(reason, message, waitMs);
  }

  private rollDay(budget: Budget): void {
    const day = new Date(this.clock.now()).toISOString().slice(0, 10);
    if (budget.day === day) return;
    budget.day = day;
    budget.dayCount = 0;
    budget.refused = 0;
    budget.calls = 0;
  }

  private budget(accountName: string): Budget {
    let budget = this.budgets.get(accountName);
    if (!budget) {
      budget = { chain: Promise.resolve(), lastByChat: new Map(), minute: [], day: '', dayCount: 0, refused: 0, calls: 0, floodUntil: 0, floodWaits: [], paused: null };
      this.budgets.set(accountName, budget);
    }
    return budget;
  }

  private async persist(accountName: string, budget: Budget): Promise<void> {
    try {
      await this.rows.save(
        this.rows.create({
          accountName,
          pausedAt: budget.paused ? String(Date.parse(budget.paused.at)) : null,
          pauseReason: budget.paused?.reason ?? null,
          floodWaits: JSON.stringify(budget.floodWaits),
          day: budget.day,
          dayCount: budget.dayCount,
          floodUntil: String(budget.floodUntil),
          updatedAt: String(this.clock.now()),
        }),
      );
    } catch (error) {
      this.logger.error({ err: error }, `Could not store the safety state of ${accountName}`);
    }
  }
}

function parseFloodWaits(text: string): FloodWaitRecord[] {
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed)) return [];
    return parsed
      .filter((item): item is FloodWaitRecord => typeof item === 'object' && item !== null && typeof item.at === 'string' && typeof item.seconds === 'number' && typeof item.method === 'string')
      .slice(0, FLOOD_HISTORY);
  } catch {
    return [];
  }
}
