import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { join } from 'node:path';
import { AccountSessionsService, checkCodeFor } from '../accounts/account-sessions.service';
import { AccountStore, CheckCode } from '../accounts/account-store';
import { forEachBounded } from '../accounts/bounded-concurrency';
import { DataDirectory } from '../data-dir/data-directory';
import { CorruptDataFileError, readJsonObjectFile, writeJsonFileAtomic } from '../data-dir/json-file-store';
import { SettingsService } from '../settings/settings.service';
import { TelegramError } from '../telegram/telegram-error';
import { PanelError } from '../common/panel-error';

const KEEPALIVE_CONCURRENCY = 3;
const KEEPALIVE_TIMEOUT_MS = 15_000;
const DAY_MS = 86_400_000;

export type KeepaliveOutcome = 'woken' | 'skipped_not_due' | 'skipped_needs_relogin' | 'failed';

export interface KeepaliveAccountResult {
  account_name: string;
  outcome: KeepaliveOutcome;
  code: CheckCode | null;
  message: string;
  last_keepalive_at: string | null;
}

export interface KeepaliveRun {
  trigger: 'schedule' | 'manual';
  started_at: string;
  finished_at: string;
  woken: number;
  failed: number;
  skipped: number;
  results: KeepaliveAccountResult[];
}

interface KeepaliveAccountState {
  last_keepalive_at: string | null;
  last_attempt_at: string;
  last_code: CheckCode | null;
  last_message: string;
}

interface KeepaliveState {
  last_run: KeepaliveRun | null;
  accounts: Record<string, KeepaliveAccountState>;
}

/**
 * Device keep-alive: a light authenticated request (account.updateStatus) for every account whose
 * last wake-up is older than device_keepalive_interval_days, so Telegram does not expire sessions
 * after six months without activity. Last times and results are kept in `.signer/device_keepalive.json`:
 * each account's outcome is written as soon as it is known (a crash mid-run keeps what was done),
 * and an account's entry goes when the account is removed.
 */
@Injectable()
export class KeepaliveService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(KeepaliveService.name);
  private running = false;
  private unsubscribe?: () => void;

  constructor(
    private readonly dataDirectory: DataDirectory,
    private readonly store: AccountStore,
    private readonly sessions: AccountSessionsService,
    private readonly settings: SettingsService,
  ) {}

  onModuleInit(): void {
    this.unsubscribe = this.sessions.onEvent((event) => {
      if (event.type === 'removed') this.forgetAccount(event.accountName);
    });
    // Entries of accounts removed while this version did not yet clean up after them.
    const state = this.readState();
    const stale = Object.keys(state.accounts).filter((name) => !this.store.exists(name));
    if (stale.length) {
      stale.forEach((name) => delete state.accounts[name]);
      writeJsonFileAtomic(this.stateFile, state);
    }
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  get stateFile(): string {
    return join(this.dataDirectory.signer, 'device_keepalive.json');
  }

  readState(): KeepaliveState {
    try {
      const raw = readJsonObjectFile(this.stateFile);
      if (raw && typeof raw['accounts'] === 'object' && raw['accounts'] !== null) return raw as unknown as KeepaliveState;
    } catch (error) {
      if (!(error instanceof CorruptDataFileError)) throw error;
      this.logger.warn(`${error.message}; starting keep-alive bookkeeping afresh`);
    }
    return { last_run: null, accounts: {} };
  }

  /** The scheduled run: does nothing when keep-alive is disabled in the settings. */
  async runScheduled(): Promise<KeepaliveRun | undefined> {
    if (!this.settings.getGlobal().device_keepalive_enabled) return undefined;
    if (this.running) return undefined;
    return this.run({ trigger: 'schedule', force: false });
  }

  /** Runs now: accounts that are due (or every account with `force`), a few at a time. */
  async run(options: { trigger: 'schedule' | 'manual'; force: boolean }): Promise<KeepaliveRun> {
    if (this.running) throw new PanelError('keepalive_busy', 'A device keep-alive run is already in progress');
    this.running = true;
    try {
      return await this.execute(options);
    } finally {
      this.running = false;
    }
  }

  private async execute(options: { trigger: 'schedule' | 'manual'; force: boolean }): Promise<KeepaliveRun> {
    const startedAt = new Date();
    const intervalMs = this.settings.getGlobal().device_keepalive_interval_days * DAY_MS;
    const state = this.readState();
    const results = await forEachBounded(this.store.names(), KEEPALIVE_CONCURRENCY, async (name): Promise<KeepaliveAccountResult> => {
      const previous = state.accounts[name];
      const last = previous?.last_keepalive_at ?? null;
      const record = this.store.get(name);
      if (!record || !record.has_session || record.needs_relogin) {
        return { account_name: name, outcome: 'skipped_needs_relogin', code: null, message: 'The account needs a new login', last_keepalive_at: last };
      }
      if (!options.force && last && startedAt.getTime() - Date.parse(last) < intervalMs) {
        return { account_name: name, outcome: 'skipped_not_due', code: null, message: 'Woken recently enough', last_keepalive_at: last };
      }
      const attemptAt = new Date().toISOString();
      try {
        const session = this.sessions.sessionFor(name);
        // Through the safety governor: a paused account is not woken.
        await this.sessions.gateway.wakeUp(session, { timeoutMs: KEEPALIVE_TIMEOUT_MS });
        this.recordAccount(name, { last_keepalive_at: attemptAt, last_attempt_at: attemptAt, last_code: 'OK', last_message: 'Woken' });
        return { account_name: name, outcome: 'woken', code: 'OK', message: 'Woken', last_keepalive_at: attemptAt };
      } catch (error) {
        const code = checkCodeFor(error);
        const message = error instanceof Error ? error.message : String(error);
        if (error instanceof TelegramError && error.kind === 'session_invalid') await this.sessions.markSessionInvalid(name, message);
        this.recordAccount(name, { last_keepalive_at: last, last_attempt_at: attemptAt, last_code: code, last_message: message });
        return { account_name: name, outcome: 'failed', code, message, last_keepalive_at: last };
      }
    });
    const run: KeepaliveRun = {
      trigger: options.trigger,
      started_at: startedAt.toISOString(),
      finished_at: new Date().toISOString(),
      woken: results.filter((r) => r.outcome === 'woken').length,
      failed: results.filter((r) => r.outcome === 'failed').length,
      skipped: results.filter((r) => r.outcome.startsWith('skipped')).length,
      results,
    };
    const finished = this.readState();
    finished.last_run = run;
    writeJsonFileAtomic(this.stateFile, finished);
    this.logger.log(`Device keep-alive (${run.trigger}): ${run.woken} woken, ${run.failed} failed, ${run.skipped} skipped`);
    return run;
  }

  /**
   * Writes one account's outcome at once. Read-modify-write of the whole (small) file happens
   * synchronously, so parallel workers and a removal in between never overwrite each other.
   */
  private recordAccount(name: string, entry: KeepaliveAccountState): void {
    // Removed while its wake-up was in flight: nothing to keep.
    if (!this.store.exists(name)) return;
    const state = this.readState();
    state.accounts[name] = entry;
    writeJsonFileAtomic(this.stateFile, state);
  }

  private forgetAccount(name: string): void {
    const state = this.readState();
    if (!(name in state.accounts)) return;
    delete state.accounts[name];
    writeJsonFileAtomic(this.stateFile, state);
  }
}
