import { englishText } from '@shared/panel-texts';
import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { In, Not, Repository } from 'typeorm';
import { AccountSessionsService, checkCodeFor } from '../accounts/account-sessions.service';
import { AccountStore, CheckCode } from '../accounts/account-store';
import { forEachBounded } from '../accounts/bounded-concurrency';
import { DataDirectory } from '../data-dir/data-directory';
import { CorruptDataFileError, readJsonObjectFile } from '../data-dir/json-file-store';
import { moveAsideImported } from '../data-dir/imported-files';
import { ClusterService } from '../cluster/cluster.service';
import { KeepaliveAccountRow } from './entities/keepalive-account.entity';
import { KeepaliveRunRow } from './entities/keepalive-run.entity';
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

export interface KeepaliveState {
  last_run: KeepaliveRun | null;
  accounts: Record<string, KeepaliveAccountState>;
}

/**
 * Device keep-alive: a light authenticated request (account.updateStatus) for every account whose
 * last wake-up is older than device_keepalive_interval_days, so Telegram does not expire sessions
 * after six months without activity. Last times and results are kept in the database
 * (`keepalive_accounts`, `keepalive_runs`): each account's outcome is written as soon as it is known
 * (a crash mid-run keeps what was done), and an account's entry goes when the account is removed.
 *
 * Replicas on PostgreSQL: each replica wakes only the accounts it owns (the job runs on every one);
 * the manual run asks the other replicas for theirs (KeepaliveController). The former
 * `.signer/device_keepalive.json` is imported once at the first start and renamed.
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
    private readonly cluster: ClusterService,
    @InjectRepository(KeepaliveAccountRow) private readonly accountRows: Repository<KeepaliveAccountRow>,
    @InjectRepository(KeepaliveRunRow) private readonly runRows: Repository<KeepaliveRunRow>,
  ) {}

  async onModuleInit(): Promise<void> {
    this.unsubscribe = this.sessions.onEvent((event) => {
      if (event.type === 'removed') this.forgetAccount(event.accountName).catch((error: unknown) => this.logger.warn(`Dropping the keep-alive entry of ${event.accountName} failed: ${String(error)}`));
    });
    await this.importStateFile();
    // Entries of accounts removed while this version did not yet clean up after them.
    const names = this.store.names();
    await this.accountRows.createQueryBuilder().delete().where(names.length ? { account: Not(In(names)) } : '1 = 1').execute();
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  /** The file earlier versions kept the bookkeeping in (imported once, then renamed). */
  get stateFile(): string {
    return join(this.dataDirectory.signer, 'device_keepalive.json');
  }

  /** What is known of every account, and this instance's last run. */
  async readState(): Promise<KeepaliveState> {
    const accounts: Record<string, KeepaliveAccountState> = {};
    for (const row of await this.accountRows.find({ order: { account: 'ASC' } })) {
      accounts[row.account] = { last_keepalive_at: row.lastKeepaliveAt, last_attempt_at: row.lastAttemptAt, last_code: row.lastCode as CheckCode | null, last_message: row.lastMessage };
    }
    const run = await this.runRows.findOneBy({ replicaId: this.runKey });
    return { last_run: run ? (JSON.parse(run.run) as KeepaliveRun) : null, accounts };
  }

  /** Whose last run a row is: the replica's id, or one fixed key for the single SQLite instance (its id changes at every start). */
  private get runKey(): string {
    return this.cluster.active ? this.cluster.replicaId : 'single-instance';
  }

  /**
   * Moves `.signer/device_keepalive.json` of an earlier version into the database once: entries the
   * database already holds win (another replica's or an interrupted import), and the file is renamed
   * `device_keepalive.json.imported-<time>` so the next start finds nothing. A corrupt file is set
   * aside the same way, and the bookkeeping starts afresh. Replicas sharing the data directory may
   * import it at the same time: the inserts skip what is stored, and the one that renames second finds
   * the file gone and goes on.
   */
  private async importStateFile(): Promise<void> {
    if (!existsSync(this.stateFile)) return;
    let imported = 0;
    let alreadyStored = 0;
    try {
      const raw = readJsonObjectFile(this.stateFile);
      const accounts = raw && typeof raw['accounts'] === 'object' && raw['accounts'] !== null ? (raw['accounts'] as Record<string, Partial<KeepaliveAccountState>>) : {};
      for (const [name, entry] of Object.entries(accounts)) {
        if (!this.store.exists(name) || typeof entry?.last_attempt_at !== 'string') continue;
        if (await this.accountRows.existsBy({ account: name })) {
          alreadyStored += 1;
          continue;
        }
        await this.accountRows
          .createQueryBuilder()
          .insert()
          .values({
            account: name,
            lastKeepaliveAt: typeof entry.last_keepalive_at === 'string' ? entry.last_keepalive_at : null,
            lastAttemptAt: entry.last_attempt_at,
            lastCode: typeof entry.last_code === 'string' ? entry.last_code : null,
            lastMessage: typeof entry.last_message === 'string' ? entry.last_message : '',
          })
          .orIgnore()
          .execute();
        imported += 1;
      }
    } catch (error) {
      if (!(error instanceof CorruptDataFileError)) throw error;
      this.logger.warn(`${error.message}; starting keep-alive bookkeeping afresh`);
    }
    const movedTo = `${this.stateFile}.imported-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    if (!moveAsideImported(this.stateFile, movedTo)) {
      this.logger.log(`The device keep-alive bookkeeping of ${this.stateFile} was imported by another replica sharing this data directory (${imported} entries added here)`);
      return;
    }
    this.logger.log(
      `Imported the device keep-alive bookkeeping of ${imported} account(s) from ${this.stateFile} into the database (${alreadyStored} already stored there; the file is now ${movedTo})`,
    );
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
    const state = await this.readState();
    // Replicas: only the accounts this replica owns (the others wake theirs).
    const names = this.store.names().filter((name) => this.cluster.owns(name));
    const results = await forEachBounded(names, KEEPALIVE_CONCURRENCY, async (name): Promise<KeepaliveAccountResult> => {
      const previous = state.accounts[name];
      const last = previous?.last_keepalive_at ?? null;
      const record = this.store.get(name);
      if (!record || !record.has_session || record.needs_relogin) {
        return { account_name: name, outcome: 'skipped_needs_relogin', code: null, message: englishText('keepalive', 'skipped_needs_relogin'), last_keepalive_at: last };
      }
      if (!options.force && last && startedAt.getTime() - Date.parse(last) < intervalMs) {
        return { account_name: name, outcome: 'skipped_not_due', code: null, message: englishText('keepalive', 'skipped_not_due'), last_keepalive_at: last };
      }
      const attemptAt = new Date().toISOString();
      try {
        const session = this.sessions.sessionFor(name);
        // Through the safety governor: a paused account is not woken.
        await this.sessions.gateway.wakeUp(session, { timeoutMs: KEEPALIVE_TIMEOUT_MS });
        await this.recordAccount(name, { last_keepalive_at: attemptAt, last_attempt_at: attemptAt, last_code: 'OK', last_message: 'Woken' });
        return { account_name: name, outcome: 'woken', code: 'OK', message: 'Woken', last_keepalive_at: attemptAt };
      } catch (error) {
        const code = checkCodeFor(error);
        const message = error instanceof Error ? error.message : String(error);
        if (error instanceof TelegramError && error.kind === 'session_invalid') await this.sessions.markSessionInvalid(name, message);
        await this.recordAccount(name, { last_keepalive_at: last, last_attempt_at: attemptAt, last_code: code, last_message: message });
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
    await this.runRows.upsert({ replicaId: this.runKey, run: JSON.stringify(run), finishedAt: run.finished_at }, ['replicaId']);
    this.logger.log(`Device keep-alive (${run.trigger}): ${run.woken} woken, ${run.failed} failed, ${run.skipped} skipped`);
    return run;
  }

  /** Writes one account's outcome at once (its own row, so parallel workers never overwrite each other). */
  private async recordAccount(name: string, entry: KeepaliveAccountState): Promise<void> {
    // Removed while its wake-up was in flight: nothing to keep.
    if (!this.store.exists(name)) return;
    await this.accountRows.upsert(
      { account: name, lastKeepaliveAt: entry.last_keepalive_at, lastAttemptAt: entry.last_attempt_at, lastCode: entry.last_code, lastMessage: entry.last_message },
      ['account'],
    );
  }

  private async forgetAccount(name: string): Promise<void> {
    await this.accountRows.delete({ account: name });
  }
}
