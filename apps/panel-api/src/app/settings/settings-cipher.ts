import { Inject, Injectable } from '@nestjs/common';
import { EnvelopeCipher } from '@shared/crypto';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import { DataDirectory } from '../data-dir/data-directory';
import { loadOrCreateEncryptionKey } from '../data-dir/encryption-key';

/** A stored setting that this key cannot open (another key sealed it, or it was changed). */
export class SealedSettingError extends Error {
  constructor(what: string) {
    super(`The stored setting ${what} cannot be opened with this APP_ENCRYPTION_KEY (another key sealed it, or it was changed)`);
    this.name = 'SealedSettingError';
  }
}

/**
 * Seals the secret settings for the database with the key that seals the Telegram sessions
 * (APP_ENCRYPTION_KEY, or on SQLite without it the generated `.app_encryption_key`). What is sealed
 * is bound to its place (`<group>.<key>`), so a sealed value copied to another field does not open.
 */
@Injectable()
export class SettingsCipher {
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

  seal(place: string, value: string): string {
    return this.envelopes.encrypt(value, associatedData(place));
  }

  open(place: string, sealed: string): string {
    try {
      return this.envelopes.decryptString(sealed, associatedData(place));
    } catch {
      throw new SealedSettingError(place);
    }
  }
}

function associatedData(place: string): string {
  return `panel-api setting:${place}`;
}
