import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EnvelopeCipher } from '@shared/crypto';
import { Repository } from 'typeorm';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import { DataDirectory } from '../data-dir/data-directory';
import { loadOrCreateEncryptionKey } from '../data-dir/encryption-key';
import { SharedSecretRow } from './shared-secret-row.entity';

/** The backup key: every replica on PostgreSQL signs and checks archives with this one. */
export const BACKUP_KEY_SECRET = 'backup_key';
/** The generated first admin password, kept until the admin changes it. */
export const ADMIN_BOOTSTRAP_PASSWORD_SECRET = 'admin_bootstrap_password';

/** A shared secret this key cannot open (another APP_ENCRYPTION_KEY sealed it, or it was changed). */
export class SealedSecretError extends Error {
  constructor(name: string) {
    super(`The stored secret ${name} cannot be opened with this APP_ENCRYPTION_KEY (another key sealed it, or it was changed)`);
    this.name = 'SealedSecretError';
  }
}

function associatedData(name: string): string {
  return `panel-api shared secret:${name}`;
}

/** Opens a sealed shared secret with the master key (the offline restore reads the backup key this way). */
export function openSharedSecret(key: Buffer, name: string, sealed: string): string {
  try {
    return new EnvelopeCipher(key).decryptString(sealed, associatedData(name));
  } catch {
    throw new SealedSecretError(name);
  }
}

/**
 * Secrets that replicas on one database must share, which a single instance kept in its data
 * directory: one row each in `shared_secrets`, sealed with APP_ENCRYPTION_KEY (the key of the
 * sessions) and bound to its name. Created once, race-safely: every replica inserts its candidate
 * with "insert or ignore" and then uses whatever row is there.
 */
@Injectable()
export class SharedSecretStore {
  private cipher?: EnvelopeCipher;

  constructor(
    @InjectRepository(SharedSecretRow) private readonly rows: Repository<SharedSecretRow>,
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

  /** The stored secret; undefined when there is none. SealedSecretError when this key cannot open it. */
  async read(name: string): Promise<string | undefined> {
    const row = await this.rows.findOneBy({ name });
    if (!row) return undefined;
    try {
      return this.envelopes.decryptString(row.sealed, associatedData(name));
    } catch {
      throw new SealedSecretError(name);
    }
  }

  /**
   * Stores `candidate` unless a value is stored already, and answers the one stored (so every
   * replica that calls this at once ends with the same value), with whether this call stored it.
   */
  async putIfAbsent(name: string, candidate: string): Promise<{ value: string; created: boolean }> {
    const sealed = this.envelopes.encrypt(candidate, associatedData(name));
    await this.rows.createQueryBuilder().insert().values({ name, sealed, createdAt: Date.now() }).orIgnore().execute();
    const value = await this.read(name);
    if (value === undefined) throw new Error(`The shared secret ${name} was not stored`);
    return { value, created: value === candidate };
  }

  async remove(name: string): Promise<void> {
    await this.rows.delete({ name });
  }
}
