import { randomToken } from '@shared/crypto';
import { CorruptDataFileError, createFileExclusive, readTextFile } from '../data-dir/json-file-store';

const MIN_SECRET_LENGTH = 32;

/**
 * The HS256 signing secret: APP_JWT_SECRET when set, otherwise the one generated at first start and
 * kept in the data directory (0600), so tokens stay valid across restarts. Never overwritten.
 */
export function loadOrCreateJwtSecret(path: string, configured?: string): string {
  if (configured) return configured;
  const existing = readTextFile(path);
  if (existing === undefined) createFileExclusive(path, `${randomToken(48)}\n`);
  const secret = (readTextFile(path) ?? '').trim();
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new CorruptDataFileError(path, `the JWT secret must have at least ${MIN_SECRET_LENGTH} characters`);
  }
  return secret;
}
