import { Inject, Injectable } from '@nestjs/common';
import { EnvelopeCipher } from '@shared/crypto';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import { DataDirectory } from '../data-dir/data-directory';
import { loadOrCreateEncryptionKey } from '../data-dir/encryption-key';

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
