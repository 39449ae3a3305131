import { ClusterService } from '../cluster/cluster.service';
import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { existsSync, mkdirSync } from 'node:fs';
import { DataSource, EntityManager } from 'typeorm';
import { DataDirectory } from '../data-dir/data-directory';
import { moveAsideImported } from '../data-dir/imported-files';
import { raiseStoreRevision, readStoreRevision, SerialQueue } from '../data-dir/store-revisions';
import { parseSessionString } from '../telegram/session-string';
import { TelegramProxy } from '../telegram/telegram-gateway';
import { assertAccountName } from './account-name';
import { AccountRow } from './entities/account-row.entity';
import { accountMetaOf, defaultAccountMeta, LegacyAccount, legacyAccountNames, readLegacyAccount } from './legacy-account-files';
import { SealedSessionError, SessionCipher } from './session-cipher';

export type AccountStatus = 'connected' | 'invalid' | 'checking' | 'error' | 'not_found';

export type CheckCode =
  | 'OK'
  | 'ACCOUNT_NOT_FOUND'
  | 'ACCOUNT_SESSION_INVALID'
  | 'CLIENT_INIT_FAILED'
  | 'TIMEOUT'
  | 'CONNECTION_ERROR'
  | 'STORAGE_PERMISSION_DENIED'
  | 'FLOOD_WAIT'
  | 'STATUS_CHECK_FAILED';

export interface AccountUserInfo {
  id: string;
  username: string | null;
  first_name: string | null;
  phone: string | null;
}

export interface AccountLastCheck {
  checked_at: string;
  code: CheckCode;
  message: string;
}

/** What panel-api knows about an account besides its session (the `meta` column of `accounts`). */
export interface AccountMeta {
  account_name: string;
  remark: string | null;
  proxy: TelegramProxy | null;
  /** null until the first status check (for example right after import-session). */
  status: AccountStatus | null;
  needs_relogin: boolean;
  user: AccountUserInfo | null;
  last_check: AccountLastCheck | null;
  created_at: string;
  updated_at: string;
}

export interface AccountRecord extends AccountMeta {
  has_session: boolean;
}


/** The scope of the accounts' counter in `store_revisions`. */
export const ACCOUNTS_SCOPE = 'accounts';

/** How often a replica looks for account writes of the others when nothing asked (one primary-key read). */
export const ACCOUNT_POLL_INTERVAL_MS = 1_000;

/** What the one-time move of `sessions/` into the database did. */
export interface AccountFileImport {
  folder: string;
  /** Where the folder was set aside; null when another replica sharing the data directory did it first. */
  moved_to: string | null;
  imported: string[];
  /** Accounts the database already held: left as they are. */
  already_stored: string[];
  /** Accounts whose files did not parse, with the reason; the files stay in the renamed folder. */
  unreadable: Array<{ name: string; reason: string }>;
}

/** What another replica changed in the accounts (seen by a refresh). */
export interface AccountChange {
  /** New accounts, and accounts whose session changed (a new login or import). */
  loggedIn: string[];
  removed: string[];
}

export type AccountChangeListener = (change: AccountChange) => void;

interface StoredAccount {
  meta: AccountMeta;
  /** The opened session; undefined when there is none. */
  session?: string;
  /** Set when the stored session could not be opened with this key. */
  sealedError?: SealedSessionError;
  revision: number;
}

/**
 * The accounts, in the database (`accounts`: the metadata as JSON and the session sealed with
 * APP_ENCRYPTION_KEY), so every replica on one PostgreSQL database knows every account. Served from
 * memory, re-read when the `accounts` counter moved: on `refresh()` (request handlers that need
 * the newest state call it) and every second. Writes go to the database first (one transaction
 * each), then to memory.
 *
 * At the first start on a data directory that still has account files in `sessions/` (an earlier
 * version, or a restored backup of one), they are moved into the table once: an account the table
 * already holds is left alone, and the folder is renamed `sessions.imported-<time>`.
 */
@Injectable()
export class AccountStore implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(AccountStore.name);
  private readonly accounts = new Map<string, StoredAccount>();
  private revision = -1;
  private readonly queue = new SerialQueue();
  private pollTimer?: NodeJS.Timeout;
  /** Accounts whose session check is running now, with how many checks (a job and a direct check may overlap). */
  private readonly checking = new Map<string, number>();
  /** What the import of `sessions/` at this start did (undefined when there were no account files). */
  lastFileImport?: AccountFileImport;
  private readonly listeners = new Set<AccountChangeListener>();

  constructor(
    private readonly dataDirectory: DataDirectory,
    private readonly cipher: SessionCipher,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly cluster: ClusterService,
  ) {}

  async onModuleInit(): Promise<void> {
    this.lastFileImport = await this.importAccountFiles();
    await this.refresh();
    this.pollTimer = setInterval(() => {
      this.refresh().catch((error: unknown) => this.logger.error({ err: error }, 'Re-reading the accounts failed'));
    }, ACCOUNT_POLL_INTERVAL_MS);
    this.pollTimer.unref();
  }

  onModuleDestroy(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
  }

  /** Told (after the refresh that found it) what another replica changed; returns the unsubscribe function. */
  onExternalChange(listener: AccountChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  names(): string[] {
    return [...this.accounts.keys()].sort((a, b) => a.localeCompare(b));
  }

  exists(name: string): boolean {
    return this.accounts.has(name);
  }

  get(name: string): AccountRecord | undefined {
    const stored = this.accounts.get(name);
    return stored && this.withCheckState(this.recordOf(stored));
  }

  /**
   * Shows the account as `checking` until the returned function is called. Kept in memory only:
   * a check cut short by a restart leaves the status it had before, never `checking`.
   */
  beginCheck(name: string): () => void {
    this.checking.set(name, (this.checking.get(name) ?? 0) + 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const left = (this.checking.get(name) ?? 1) - 1;
      if (left > 0) this.checking.set(name, left);
      else this.checking.delete(name);
    };
  }

  private withCheckState(record: AccountRecord): AccountRecord {
    return this.checking.has(record.account_name) ? { ...record, status: 'checking' } : record;
  }

  private recordOf(stored: StoredAccount): AccountRecord {
    return { ...structuredClone(stored.meta), has_session: stored.session !== undefined || stored.sealedError !== undefined };
  }

  list(): AccountRecord[] {
    return this.names().map((name) => this.get(name)).filter((record): record is AccountRecord => record !== undefined);
  }

  /** The list as served by GET /api/accounts (memory, as of the last refresh or write). */
  listCached(): AccountRecord[] {
    return this.list();
  }

  hasSession(name: string): boolean {
    const stored = this.accounts.get(name);
    return stored !== undefined && (stored.session !== undefined || stored.sealedError !== undefined);
  }

  /** The GramJS string session of the account, or undefined when it has none; SealedSessionError when this key cannot open it. */
  readSession(name: string): string | undefined {
    const stored = this.accounts.get(name);
    if (stored?.sealedError) throw stored.sealedError;
    return stored?.session;
  }

  /** Stores a session, sealed (a session string that does not parse is refused); creates the account when it is new. */
  async writeSession(name: string, sessionString: string): Promise<void> {
    assertAccountName(name);
    const session = sessionString.trim();
    if (!parseSessionString(session)) throw new Error('Not a GramJS string session');
    const sealed = this.cipher.seal(name, session);
    await this.write(async (manager, revision) => {
      const row = await manager.findOneBy(AccountRow, { name });
      const meta = row ? this.metaOf(row) : defaultAccountMeta(name);
      await manager.upsert(AccountRow, [{ name, meta: JSON.stringify(meta), sealedSession: sealed, revision, updatedAt: Date.now() }], ['name']);
      return { meta, session };
    });
    // A session stored here (a login, an import) is used here at once when no other replica owns the account.
    await this.cluster.adopt(name).catch((error: unknown) => this.logger.warn(`Could not take the lease of ${name}: ${error instanceof Error ? error.message : String(error)}`));
  }

  /**
   * Read-modify-write of the metadata in one transaction on the stored row (not this replica's copy),
   * so a change made meanwhile on another replica is kept. Creates the account when it is new.
   */
  async updateMeta(name: string, change: (meta: AccountMeta) => void): Promise<AccountMeta> {
    assertAccountName(name);
    let updated: AccountMeta | undefined;
    let created = false;
    await this.write(async (manager, revision) => {
      const row = await manager.findOneBy(AccountRow, { name });
      const meta = row ? this.metaOf(row) : defaultAccountMeta(name);
      change(meta);
      meta.account_name = name;
      meta.updated_at = new Date().toISOString();
      updated = meta;
      if (row) await manager.update(AccountRow, { name }, { meta: JSON.stringify(meta), revision, updatedAt: Date.now() });
      else await manager.insert(AccountRow, { name, meta: JSON.stringify(meta), sealedSession: null, revision, updatedAt: Date.now() });
      created = !row;
      return { meta, session: row?.sealedSession ? this.openSession(name, row.sealedSession) : undefined };
    });
    // An account created here (an import, a login started) is this replica's at once when no other
    // replica owns it, as writeSession does, instead of after a lease's wait for an orphan.
    if (created) await this.cluster.adopt(name).catch((error: unknown) => this.logger.warn(`Could not take the lease of ${name}: ${error instanceof Error ? error.message : String(error)}`));
    return structuredClone(updated as AccountMeta);
  }

  /** Removes the account and its session; false when there was nothing to remove. */
  async remove(name: string): Promise<boolean> {
    let removed = false;
    await this.queue.run(async () => {
      await this.dataSource.transaction(async (manager) => {
        await raiseStoreRevision(manager, ACCOUNTS_SCOPE);
        removed = await manager.existsBy(AccountRow, { name });
        if (removed) await manager.delete(AccountRow, { name });
      });
      this.accounts.delete(name);
    });
    return removed;
  }

  /** Brings memory in line with the table (every write committed before this call included). */
  refresh(): Promise<void> {
    return this.queue.run(() => this.scan());
  }

  /** A write in one transaction that first raises the counter; `work` returns what memory keeps. */
  private async write(work: (manager: EntityManager, revision: number) => Promise<{ meta: AccountMeta; session: string | SealedSessionError | undefined }>): Promise<void> {
    await this.queue.run(async () => {
      const { kept, revision } = await this.dataSource.transaction(async (manager) => {
        const revision = await raiseStoreRevision(manager, ACCOUNTS_SCOPE);
        return { kept: await work(manager, revision), revision };
      });
      const name = kept.meta.account_name;
      this.accounts.set(name, {
        meta: kept.meta,
        session: typeof kept.session === 'string' ? kept.session : undefined,
        sealedError: kept.session instanceof SealedSessionError ? kept.session : undefined,
        revision,
      });
    });
  }

  private metaOf(row: AccountRow): AccountMeta {
    return accountMetaOf(JSON.parse(row.meta) as Record<string, unknown>, row.name);
  }

  private openSession(name: string, sealed: string): string | SealedSessionError {
    try {
      return this.cipher.open(name, sealed);
    } catch (error) {
      if (error instanceof SealedSessionError) return error;
      throw error;
    }
  }

  private async scan(): Promise<void> {
    const revision = await readStoreRevision(this.dataSource, ACCOUNTS_SCOPE);
    if (revision === this.revision) return;
    const repository = this.dataSource.getRepository(AccountRow);
    const stored = await repository.find({ select: { name: true, revision: true } });
    const present = new Set(stored.map((row) => row.name));
    const stale = stored.filter((row) => this.accounts.get(row.name)?.revision !== row.revision).map((row) => row.name);
    const change: AccountChange = { loggedIn: [], removed: [] };
    for (let at = 0; at < stale.length; at += 500) {
      const rows = await repository.createQueryBuilder('account').where('account.name IN (:...names)', { names: stale.slice(at, at + 500) }).getMany();
      for (const row of rows) {
        try {
          const session = row.sealedSession ? this.openSession(row.name, row.sealedSession) : undefined;
          if (session instanceof SealedSessionError) this.logger.error(session.message);
          const previous = this.accounts.get(row.name);
          if (!previous || (typeof session === 'string' && session !== previous.session)) change.loggedIn.push(row.name);
          this.accounts.set(row.name, {
            meta: this.metaOf(row),
            session: typeof session === 'string' ? session : undefined,
            sealedError: session instanceof SealedSessionError ? session : undefined,
            revision: row.revision,
          });
        } catch (error) {
          this.logger.error(`Stored account ${row.name} was not loaded: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    }
    for (const name of [...this.accounts.keys()]) {
      if (present.has(name)) continue;
      this.accounts.delete(name);
      change.removed.push(name);
    }
    // The first look at start is not a change anyone made meanwhile.
    const first = this.revision === -1;
    this.revision = revision;
    if (!first && (change.loggedIn.length || change.removed.length)) this.announce(change);
  }

  /** Listeners hear about it after the current synchronous work. */
  private announce(change: AccountChange): void {
    queueMicrotask(() => {
      for (const listener of this.listeners) {
        try {
          listener(change);
        } catch (error) {
          this.logger.error({ err: error }, 'An account change listener failed');
        }
      }
    });
  }

  /**
   * Moves the account files of `sessions/` into the table, once: an account the table already holds
   * stays as it is, and the folder is renamed `sessions.imported-<time>` (an empty `sessions/` is
   * made again: backups and the layout keep it).
   */
  private async importAccountFiles(): Promise<AccountFileImport | undefined> {
    const folder = this.dataDirectory.sessions;
    if (!existsSync(folder)) return undefined;
    const names = legacyAccountNames(folder);
    if (names.length === 0) return undefined;
    const unreadable: AccountFileImport['unreadable'] = [];
    const accounts: LegacyAccount[] = [];
    for (const name of names) {
      try {
        const account = readLegacyAccount(folder, name);
        // Its files are gone: another replica sharing the data directory imported them and set the folder aside.
        if (account.files.length > 0) accounts.push(account);
      } catch (error) {
        unreadable.push({ name, reason: error instanceof Error ? error.message : String(error) });
      }
    }
    const imported: string[] = [];
    const alreadyStored: string[] = [];
    if (accounts.length > 0) {
      await this.dataSource.transaction(async (manager) => {
        const revision = await raiseStoreRevision(manager, ACCOUNTS_SCOPE);
        for (const account of accounts) {
          if (await manager.existsBy(AccountRow, { name: account.name })) {
            alreadyStored.push(account.name);
            continue;
          }
          const meta = account.meta ?? defaultAccountMeta(account.name);
          await manager.insert(AccountRow, {
            name: account.name,
            meta: JSON.stringify(meta),
            sealedSession: account.session === undefined ? null : this.cipher.seal(account.name, account.session),
            revision,
            updatedAt: Date.now(),
          });
          imported.push(account.name);
        }
      });
    }
    const movedTo = `${folder}.imported-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    // Another replica sharing the data directory set the folder aside (and made a new empty one) first:
    // the files read here are gone from it, and the empty folder must not be set aside too.
    const stillHere = legacyAccountNames(folder).some((name) => names.includes(name));
    if (!stillHere || !moveAsideImported(folder, movedTo)) {
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      this.logger.log(`The accounts of ${folder} were moved into the database by another replica sharing this data directory (${imported.length} imported here)`);
      return { folder, moved_to: null, imported, already_stored: alreadyStored, unreadable };
    }
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    this.logger.log(
      `Moved the accounts of ${folder} into the database (sessions sealed with APP_ENCRYPTION_KEY): ${imported.length} imported, ` +
        `${alreadyStored.length} already stored and left as they are, ${unreadable.length} unreadable (kept in ${movedTo})` +
        (unreadable.length ? `: ${unreadable.map((entry) => `${entry.name} (${entry.reason})`).join('; ')}` : ''),
    );
    return { folder, moved_to: movedTo, imported, already_stored: alreadyStored, unreadable };
  }
}
