import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DatabaseWork } from '../../database/database-work';
import { EncryptedColumnRepository } from './encrypted-column.repository';
import { ENCRYPTED_COLUMNS, SEALED_GITHUB_SETTING_KEYS, settingAssociatedData } from './encrypted-columns';
import { SecretCipher } from './secret-cipher';
import { isSealedSettingValue, SettingsStore } from './settings.store';

export interface RotationResult {
  resealed: number;
  /** Settings that must be sealed but were stored in clear by an earlier version, now sealed. */
  sealed: number;
}

const SEALED_KEYS: ReadonlySet<string> = new Set(Object.values(SEALED_GITHUB_SETTING_KEYS));

/**
 * At startup, re-encrypts every stored secret that is not under the current master key, in one
 * transaction: after a rotation nothing is left that only the previous key can open. A secret no
 * configured key opens stops startup rather than being silently lost.
 */
@Injectable()
export class KeyRotationService implements OnModuleInit {
  private readonly logger = new Logger(KeyRotationService.name);

  constructor(
    private readonly database: DatabaseWork,
    private readonly cipher: SecretCipher,
    private readonly settings: SettingsStore,
    private readonly encryptedColumns: EncryptedColumnRepository,
  ) {}

  async onModuleInit(): Promise<void> {
    const result = await this.rotate();
    if (result.resealed > 0) this.logger.log(`re-encrypted ${result.resealed} stored secrets under key ${this.cipher.currentKeyId}`);
    if (result.sealed > 0) this.logger.log(`encrypted ${result.sealed} GitHub App settings stored in clear by an earlier version`);
  }

  async rotate(): Promise<RotationResult> {
    if (!this.cipher.available) {
      const stored = await this.countSealed();
      if (stored > 0) this.logger.warn(`${stored} stored secrets cannot be read: MONITOR_ENCRYPTION_KEY is not set`);
      return { resealed: 0, sealed: 0 };
    }
    return this.database.transaction(async (manager) => {
      let resealed = 0;
      let sealed = 0;
      for (const row of await this.settings.all(manager)) {
        const value: unknown = JSON.parse(row.value);
        if (SEALED_KEYS.has(row.key) && typeof value === 'string') {
          const envelope = this.cipher.seal(value, settingAssociatedData(row.key));
          await this.settings.replaceStoredValue(row.key, JSON.stringify({ envelope }), manager);
          sealed++;
          continue;
        }
        if (!isSealedSettingValue(value) || !this.cipher.needsRotation(value.envelope)) continue;
        const envelope = this.cipher.reseal(value.envelope, settingAssociatedData(row.key));
        await this.settings.replaceStoredValue(row.key, JSON.stringify({ ...value, envelope }), manager);
        resealed++;
      }
      for (const column of ENCRYPTED_COLUMNS) {
        for (const row of await this.encryptedColumns.envelopes(manager, column)) {
          if (!this.cipher.needsRotation(row.envelope)) continue;
          const envelope = this.cipher.reseal(row.envelope, column.associatedData(String(row.id)));
          await this.encryptedColumns.replace(manager, column, row.id, envelope);
          resealed++;
        }
      }
      return { resealed, sealed };
    });
  }

  private async countSealed(): Promise<number> {
    let count = 0;
    for (const row of await this.settings.all()) if (isSealedSettingValue(JSON.parse(row.value))) count++;
    for (const column of ENCRYPTED_COLUMNS) count += await this.encryptedColumns.count(column);
    return count;
  }
}
