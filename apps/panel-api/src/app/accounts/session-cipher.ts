import { Inject, Injectable } from '@nestjs/common';
import { EnvelopeCipher, parseMasterKey } from '@shared/crypto';
import { randomBytes } from 'node:crypto';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import { DataDirectory } from '../data-dir/data-directory';
import { CorruptDataFileError, createFileExclusive, readTextFile } from '../data-dir/json-file-store';

/**
 * APP_ENCRYPTION_KEY when set; otherwise (SQLite only: the configuration requires the key with
 * PostgreSQL) the key generated at the first start and kept in the data directory (0600), as the
 * JWT secret is. Never overwritten.
 */
export function loadOrCreateEncryptionKey(path: string, configured?: string): Buffer {
  if (configured) return parseMasterKey(configured);
  if (readTextFile(path) === undefined) createFileExclusive(path, `${randomBytes(32).toString('hex')}\n`);
  const text = (readTextFile(path) ?? '').trim();
  if (!/^[0-9a-fA-F]{64}$/.test(text)) throw new CorruptDataFileError(path, 'the encryption key must be 64 hex characters');
  return parseMasterKey(text);
}

/** A sealed session that this key cannot open (another key, or changed bytes). */
export class SealedSessionError extends Error {
  constructor(accountName: string) {
    super(`The stored session of account ${accountName} cannot be opened with this APP_ENCRYPTION_KEY (another key sealed it, or it was changed)`);
    this.name = 'SealedSessionError';
  }
}

/**
 * Seals Telegram sessions for the database (AES-256-GCM envelopes of @shared/crypto). The account
 * name is bound in as associated data, so a sealed session copied to another account's row does not open.
 */
@Injectable()
export class SessionCipher {
  private cipher?: EnvelopeCipher;

  constructor(
    private readonly dataDirectory: DataDirectory,
    @Inject(PANEL_CONFIG) private readonly config: PanelConfig,
  ) {}

  private get envelopes(): EnvelopeCipher {
    if (!this.cipher) {
      this.dataDirectory.prepare();
      this.cipher = new EnvelopeCipher(loadOrCreateEncryptionKey(this.dataDirectory.encryptionKeyFile, this.config.auth.encryptionKey));
    }
    return this.cipher;
  }

  seal(accountName: string, session: string): string {
    return this.envelopes.encrypt(session, associatedData(accountName));
  }

  open(accountName: string, sealed: string): string {
    try {
      return this.envelopes.decryptString(sealed, associatedData(accountName));
    } catch {
      throw new SealedSessionError(accountName);
    }
  }
}

function associatedData(accountName: string): string {
  return `panel-api account session:${accountName}`;
}
