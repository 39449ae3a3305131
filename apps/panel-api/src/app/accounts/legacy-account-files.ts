import { join } from 'node:path';
import { entriesToImport } from '../data-dir/imported-files';
import { CorruptDataFileError, readJsonObjectFile, readTextFile } from '../data-dir/json-file-store';
import { encodeSessionString, parseSessionString } from '../telegram/session-string';
import { TelegramProxy } from '../telegram/telegram-gateway';
import { isAccountName } from './account-name';
import type { AccountLastCheck, AccountMeta, AccountStatus, AccountUserInfo } from './account-store';

const META_SUFFIX = '.account.json';
const FILE_SESSION_SUFFIX = '.session.json';
const STRING_SESSION_SUFFIX = '.session';

/** An account as an earlier version kept it under `sessions/`. */
export interface LegacyAccount {
  name: string;
  /** undefined when there was no `<name>.account.json`. */
  meta?: AccountMeta;
  /** The GramJS string session; undefined when there was no session file. */
  session?: string;
  /** The files it was read from, relative to the folder. */
  files: string[];
}

/**
 * Reads the accounts of a `sessions/` folder as earlier versions wrote it: `<name>.session` (a GramJS
 * string session, MSGR_SESSION_MODE=string), `<name>.session.json` (the same session as fields: dc,
 * address, port and the base64 auth key, MSGR_SESSION_MODE=file) and `<name>.account.json` (remark,
 * proxy, status). A file that does not parse throws CorruptDataFileError naming it.
 */
export function readLegacyAccount(folder: string, name: string): LegacyAccount {
  const files: string[] = [];
  const present = (suffix: string) => {
    const text = readTextFile(join(folder, `${name}${suffix}`));
    if (text !== undefined) files.push(`${name}${suffix}`);
    return text;
  };
  const metaText = present(META_SUFFIX);
  const stringSession = present(STRING_SESSION_SUFFIX);
  const fileSession = present(FILE_SESSION_SUFFIX);
  let session: string | undefined;
  if (stringSession !== undefined && stringSession.trim()) {
    session = stringSession.trim();
    if (!parseSessionString(session)) throw new CorruptDataFileError(join(folder, `${name}${STRING_SESSION_SUFFIX}`), 'not a GramJS string session');
  } else if (fileSession !== undefined) {
    session = sessionOfFields(join(folder, `${name}${FILE_SESSION_SUFFIX}`));
  }
  const meta = metaText === undefined ? undefined : metaOfFile(join(folder, `${name}${META_SUFFIX}`), name);
  return { name, meta, session, files };
}

/** The account names a `sessions/` folder holds files of, sorted; none when the folder is gone (another replica set it aside). */
export function legacyAccountNames(folder: string): string[] {
  const names = new Set<string>();
  for (const { name: file } of entriesToImport(folder)) {
    if (file.startsWith('.')) continue;
    const suffix = [META_SUFFIX, FILE_SESSION_SUFFIX, STRING_SESSION_SUFFIX].find((s) => file.endsWith(s));
    if (!suffix) continue;
    const name = file.slice(0, -suffix.length);
    if (isAccountName(name)) names.add(name);
  }
  return [...names].sort((a, b) => a.localeCompare(b));
}

function sessionOfFields(path: string): string | undefined {
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

export function defaultAccountMeta(name: string, now = new Date().toISOString()): AccountMeta {
  return { account_name: name, remark: null, proxy: null, status: null, needs_relogin: false, user: null, last_check: null, created_at: now, updated_at: now };
}

/** Account metadata from its stored JSON (a file of an earlier version, or the database's `meta` column). */
export function accountMetaOf(raw: Record<string, unknown>, name: string): AccountMeta {
  const base = defaultAccountMeta(name);
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

function metaOfFile(path: string, name: string): AccountMeta | undefined {
  const raw = readJsonObjectFile(path);
  return raw ? accountMetaOf(raw, name) : undefined;
}
