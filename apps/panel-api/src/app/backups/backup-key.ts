import { randomToken } from '@shared/crypto';
import { CorruptDataFileError, createFileExclusive, readTextFile } from '../data-dir/json-file-store';

const MIN_KEY_LENGTH = 32;

/**
 * The key of the backups' integrity check: generated into the data directory (0600) with the first
 * backup, never part of a backup itself. Restoring checks an archive against it, so keep a copy
 * where you keep other secrets: a restore onto a new machine needs it.
 */
export function loadOrCreateBackupKey(path: string): string {
  if (readTextFile(path) === undefined) createFileExclusive(path, `${randomToken(48)}\n`);
  return readBackupKey(path);
}

/** The existing key; CorruptDataFileError when it is missing or too short. */
export function readBackupKey(path: string): string {
  const key = (readTextFile(path) ?? '').trim();
  if (key.length < MIN_KEY_LENGTH) throw new CorruptDataFileError(path, `the backup key must exist and have at least ${MIN_KEY_LENGTH} characters`);
  return key;
}
