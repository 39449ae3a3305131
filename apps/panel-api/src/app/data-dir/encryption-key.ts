import { parseMasterKey } from '@shared/crypto';
import { randomBytes } from 'node:crypto';
import { CorruptDataFileError, createFileExclusive, readTextFile } from './json-file-store';

/**
 * The key that seals the secrets panel-api keeps in the database (the Telegram sessions, the secret
 * settings): APP_ENCRYPTION_KEY when set; otherwise (SQLite only: the configuration requires the key
 * with PostgreSQL) the key generated at the first start and kept in the data directory (0600), as
 * the JWT secret is. Never overwritten.
 */
export function loadOrCreateEncryptionKey(path: string, configured?: string): Buffer {
  if (configured) return parseMasterKey(configured);
  if (readTextFile(path) === undefined) createFileExclusive(path, `${randomBytes(32).toString('hex')}\n`);
  const text = (readTextFile(path) ?? '').trim();
  if (!/^[0-9a-fA-F]{64}$/.test(text)) throw new CorruptDataFileError(path, 'the encryption key must be 64 hex characters');
  return parseMasterKey(text);
}
