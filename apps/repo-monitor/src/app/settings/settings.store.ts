import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { settingAssociatedData } from './encrypted-columns';
import { SecretCipher } from './secret-cipher';
import { SettingEntity } from './setting.entity';

/** How a secret setting is kept: only the envelope, never the plaintext. */
export interface SealedSettingValue {
  envelope: string;
}

export function isSealedSettingValue(value: unknown): value is SealedSettingValue {
  return typeof value === 'object' && value !== null && typeof (value as { envelope?: unknown }).envelope === 'string';
}

/**
 * The settings table (key → JSON). Plain values are stored as JSON; secrets as `{"envelope": …}`
 * sealed by SecretCipher and bound to their key. Every method takes an optional EntityManager so
 * writes that belong together share one transaction.
 */
@Injectable()
export class SettingsStore {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly cipher: SecretCipher,
  ) {}

  async get<T>(key: string, manager?: EntityManager): Promise<T | undefined> {
    const row = await (manager ?? this.dataSource.manager).findOne(SettingEntity, { where: { key } });
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  /** Values of several keys at once; missing keys are absent from the map. */
  async getMany(keys: string[], manager?: EntityManager): Promise<Map<string, unknown>> {
    if (keys.length === 0) return new Map();
    const rows = await (manager ?? this.dataSource.manager).find(SettingEntity, { where: { key: In(keys) } });
    return new Map(rows.map((row) => [row.key, JSON.parse(row.value) as unknown]));
  }

  async set(key: string, value: unknown, manager?: EntityManager): Promise<void> {
    await (manager ?? this.dataSource.manager).upsert(
      SettingEntity,
      { key, value: JSON.stringify(value), updatedAt: new Date() },
      { conflictPaths: ['key'] },
    );
  }

  async delete(key: string, manager?: EntityManager): Promise<void> {
    await (manager ?? this.dataSource.manager).delete(SettingEntity, { key });
  }

  /** Every row as stored (key rotation reads them all). */
  all(manager?: EntityManager): Promise<SettingEntity[]> {
    return (manager ?? this.dataSource.manager).find(SettingEntity);
  }

  /** Replaces the stored JSON text of an existing row, leaving its update time (key rotation: the same value in a new envelope). */
  async replaceStoredValue(key: string, value: string, manager?: EntityManager): Promise<void> {
    await (manager ?? this.dataSource.manager).update(SettingEntity, { key }, { value });
  }

  async getSecret(key: string, manager?: EntityManager): Promise<string | undefined> {
    const stored = await this.get<unknown>(key, manager);
    if (!isSealedSettingValue(stored)) return undefined;
    return this.cipher.open(stored.envelope, settingAssociatedData(key));
  }

  /** Whether a secret is stored, without decrypting it (works even when no key is configured). */
  async hasSecret(key: string, manager?: EntityManager): Promise<boolean> {
    return isSealedSettingValue(await this.get<unknown>(key, manager));
  }

  /**
   * Seals and stores a secret; `null` removes it. `extra` fields are stored beside the envelope (key
   * rotation keeps them). Throws encryption_unavailable without a master key.
   */
  async setSecret(key: string, plaintext: string | null, manager?: EntityManager, extra: Record<string, unknown> = {}): Promise<void> {
    if (plaintext === null) {
      await this.delete(key, manager);
      return;
    }
    const sealed: SealedSettingValue = { ...extra, envelope: this.cipher.seal(plaintext, settingAssociatedData(key)) };
    await this.set(key, sealed, manager);
  }
}
