import { Inject, Injectable } from '@nestjs/common';
import { existsSync, readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import { DataDirectory } from '../data-dir/data-directory';
import { CorruptDataFileError, readJsonObjectFile, readTextFile, writeFileAtomic, writeJsonFileAtomic } from '../data-dir/json-file-store';
import { encodeSessionString, parseSessionString } from '../telegram/session-string';
import { TelegramProxy } from '../telegram/telegram-gateway';
import { assertAccountName, isAccountName } from './account-name';

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

/** What panel-api knows about an account besides its session; kept in `sessions/<name>.account.json`. */
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

/** The account list is read from disk at most every 5 s; every write through this store drops the cache. */
const LIST_CACHE_TTL_MS = 5_000;

const META_SUFFIX = '.account.json';
const FILE_SESSION_SUFFIX = '.session.json';
const STRING_SESSION_SUFFIX = '.session';
const FILE_SESSION_FORMAT = 'gramjs-session/1';

/**
 * Accounts live entirely under `sessions/` so that this folder alone (which backups carry on both
 * databases) restores them: `<name>.session` holds the GramJS string session (MSGR_SESSION_MODE=string),
 * `<name>.session.json` the same session as fields (MSGR_SESSION_MODE=file: dc, address, port and the
 * base64 auth key, readable without GramJS), `<name>.account.json` the remark, proxy and status.
 * Either session file is read in both modes; writing uses the configured one and removes the other.
 */
@Injectable()
export class AccountStore {
  private cachedList?: { at: number; records: AccountRecord[] };
  /** Accounts whose session check is running now, with how many checks (a job and a direct check may overlap). */
  private readonly checking = new Map<string, number>();

  constructor(
    private readonly dataDirectory: DataDirectory,
    @Inject(PANEL_CONFIG) private readonly config: PanelConfig,
  ) {}

  private path(name: string, suffix: string): string {
    return join(this.dataDirectory.sessions, `${assertAccountName(name)}${suffix}`);
  }

  names(): string[] {
    this.dataDirectory.prepare();
    const names = new Set<string>();
    for (const file of readdirSync(this.dataDirectory.sessions)) {
      if (file.startsWith('.')) continue;
      const suffix = [META_SUFFIX, FILE_SESSION_SUFFIX, STRING_SESSION_SUFFIX].find((s) => file.endsWith(s));
      if (!suffix) continue;
      const name = file.slice(0, -suffix.length);
      if (isAccountName(name)) names.add(name);
    }
    return [...names].sort((a, b) => a.localeCompare(b));
  }

  exists(name: string): boolean {
    return [META_SUFFIX, FILE_SESSION_SUFFIX, STRING_SESSION_SUFFIX].some((suffix) => existsSync(this.path(name, suffix)));
  }

  get(name: string): AccountRecord | undefined {
    const record = this.read(name);
    return record && this.withCheckState(record);
  }

  private read(name: string): AccountRecord | undefined {
    if (!this.exists(name)) return undefined;
    const meta = this.readMeta(name) ?? this.defaultMeta(name);
    return { ...meta, has_session: this.hasSession(name) };
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

  list(): AccountRecord[] {
    return this.names()
      .map((name) => this.read(name))
      .filter((record): record is AccountRecord => record !== undefined);
  }

  /** The list as served by GET /api/accounts: at most 5 s old, fresh after any change made here. */
  listCached(): AccountRecord[] {
    const now = Date.now();
    if (!this.cachedList || now - this.cachedList.at > LIST_CACHE_TTL_MS) this.cachedList = { at: now, records: this.list() };
    // The check state is live, not cached: a check shows as soon as it starts.
    return this.checking.size === 0 ? this.cachedList.records : this.cachedList.records.map((record) => this.withCheckState(record));
  }

  hasSession(name: string): boolean {
    return existsSync(this.path(name, STRING_SESSION_SUFFIX)) || existsSync(this.path(name, FILE_SESSION_SUFFIX));
  }

  /** The GramJS string session of the account, or undefined when it has none. */
  readSession(name: string): string | undefined {
    const text = readTextFile(this.path(name, STRING_SESSION_SUFFIX));
    if (text !== undefined && text.trim()) return text.trim();
    const path = this.path(name, FILE_SESSION_SUFFIX);
    const fields = readJsonObjectFile(path);
    if (!fields) return undefined;
    const authKey = typeof fields['auth_key'] === 'string' ? Buffer.from(fields['auth_key'], 'base64') : undefined;
    const dcId = fields['dc_id'];
    const serverAddress = fields['server_address'];
    const port = fields['port'];
    if (!authKey || authKey.length !== 256 || typeof dcId !== 'number' || typeof serverAddress !== 'string' || typeof port !== 'number') {
      throw new CorruptDataFileError(path, 'expected dc_id, server_address, port and a 256-byte base64 auth_key');
    }
    return encodeSessionString({ dcId, serverAddress, port, authKey });
  }

  /** Stores a session in the configured mode (a session string that does not parse is refused). */
  writeSession(name: string, sessionString: string): void {
    const parts = parseSessionString(sessionString);
    if (!parts) throw new Error('Not a GramJS string session');
    this.dataDirectory.prepare();
    this.cachedList = undefined;
    if (this.config.telegram.sessionMode === 'string') {
      writeFileAtomic(this.path(name, STRING_SESSION_SUFFIX), `${sessionString.trim()}\n`);
      this.removeFile(this.path(name, FILE_SESSION_SUFFIX));
    } else {
      writeJsonFileAtomic(this.path(name, FILE_SESSION_SUFFIX), {
        format: FILE_SESSION_FORMAT,
        dc_id: parts.dcId,
        server_address: parts.serverAddress,
        port: parts.port,
        auth_key: parts.authKey.toString('base64'),
      });
      this.removeFile(this.path(name, STRING_SESSION_SUFFIX));
    }
  }

  /**
   * Read-modify-write of the metadata, synchronous on purpose: nothing else in this process can
   * interleave between the read and the atomic write.
   */
  updateMeta(name: string, change: (meta: AccountMeta) => void): AccountMeta {
    const meta = this.readMeta(name) ?? this.defaultMeta(name);
    change(meta);
    meta.account_name = name;
    meta.updated_at = new Date().toISOString();
    this.dataDirectory.prepare();
    this.cachedList = undefined;
    writeJsonFileAtomic(this.path(name, META_SUFFIX), meta);
    return meta;
  }

  /** Removes the session and metadata files; false when there was nothing to remove. */
  remove(name: string): boolean {
    this.cachedList = undefined;
    let removed = false;
    for (const suffix of [STRING_SESSION_SUFFIX, FILE_SESSION_SUFFIX, META_SUFFIX]) {
      removed = this.removeFile(this.path(name, suffix)) || removed;
    }
    return removed;
  }

  private removeFile(path: string): boolean {
    try {
      unlinkSync(path);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  private defaultMeta(name: string): AccountMeta {
    const now = new Date().toISOString();
    return {
      account_name: name,
      remark: null,
      proxy: null,
      status: null,
      needs_relogin: false,
      user: null,
      last_check: null,
      created_at: now,
      updated_at: now,
    };
  }

  private readMeta(name: string): AccountMeta | undefined {
    const raw = readJsonObjectFile(this.path(name, META_SUFFIX));
    if (!raw) return undefined;
    const base = this.defaultMeta(name);
    return {
      ...base,
      remark: typeof raw['remark'] === 'string' ? raw['remark'] : null,
      proxy: raw['proxy'] && typeof raw['proxy'] === 'object' ? (raw['proxy'] as TelegramProxy) : null,
      status: typeof raw['status'] === 'string' ? (raw['status'] as AccountStatus) : null,
      needs_relogin: raw['needs_relogin'] === true,
      user: raw['user'] && typeof raw['user'] === 'object' ? (raw['user'] as AccountUserInfo) : null,
      last_check: raw['last_check'] && typeof raw['last_check'] === 'object' ? (raw['last_check'] as AccountLastCheck) : null,
      created_at: typeof raw['created_at'] === 'string' ? raw['created_at'] : base.created_at,
      updated_at: typeof raw['updated_at'] === 'string' ? raw['updated_at'] : base.updated_at,
    };
  }
}
