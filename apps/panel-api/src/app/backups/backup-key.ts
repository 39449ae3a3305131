import { randomToken } from '@shared/crypto';
import { CorruptDataFileError, createFileExclusive, readTextFile } from '../data-dir/json-file-store';

const MIN_KEY_LENGTH = 32;

/** A new backup key (64 characters). */
export function newBackupKey(): string {
  return randomToken(48);
}

/** Whether a key is long enough to be a backup key. */
export function isUsableBackupKey(key: string | undefined): key is string {
  return key !== undefined && key.trim().length >= MIN_KEY_LENGTH;
}

/**
 * The key of the backups' integrity check on one instance (SQLite): generated into the data
 * directory (0600) with the first backup, never part of a backup itself. Restoring checks an archive
 * against it, so keep a copy where you keep other secrets: a restore onto a new machine needs it.
 * (Replicas on PostgreSQL share one key in the database instead: BackupKeyService.)
 */
export function loadOrCreateBackupKey(path: string): string {
  if (readTextFile(path) === undefined) createFileExclusive(path, `${newBackupKey()}\n`);
  return readBackupKey(path);
}

/** The existing key; CorruptDataFileError when it is missing or too short. */
export function readBackupKey(path: string): string {
  const key = (readTextFile(path) ?? '').trim();
  if (key.length < MIN_KEY_LENGTH) throw new CorruptDataFileError(path, `the backup key must exist and have at least ${MIN_KEY_LENGTH} characters`);
  return key;
}
