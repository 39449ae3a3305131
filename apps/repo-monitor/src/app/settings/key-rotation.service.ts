import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ENCRYPTED_COLUMNS, SEALED_GITHUB_SETTING_KEYS, settingAssociatedData } from './encrypted-columns';
import { SecretCipher } from './secret-cipher';
import { SettingEntity } from './setting.entity';
import { isSealedSettingValue } from './settings.store';

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
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly cipher: SecretCipher,
  ) {}

  async onModuleInit(): Promise<void> {
    const result = await this.rotate();
    if (result.resealed > 0) this.logger.log(`re-encrypted ${result.resealed} stored secrets under key ${this.cipher.currentKeyId}`);
    if (result.sealed > 0) this.logger.log(`encrypted ${result.sealed} GitHub App settings stored in clear by an earlier version`);
  }

  async rotate(): Promise<RotationResult> {
    if (!this.cipher.available) {
      const stored = await this.countSealed(this.dataSource.manager);
      if (stored > 0) this.logger.warn(`${stored} stored secrets cannot be read: MONITOR_ENCRYPTION_KEY is not set`);
      return { resealed: 0, sealed: 0 };
    }
    return this.dataSource.transaction(async (manager) => {
      let resealed = 0;
      let sealed = 0;
      for (const row of await manager.find(SettingEntity)) {
        const value: unknown = JSON.parse(row.value);
        if (SEALED_KEYS.has(row.key) && typeof value === 'string') {
          const envelope = this.cipher.seal(value, settingAssociatedData(row.key));
          await manager.update(SettingEntity, { key: row.key }, { value: JSON.stringify({ envelope }) });
          sealed++;
          continue;
        }
        if (!isSealedSettingValue(value) || !this.cipher.needsRotation(value.envelope)) continue;
        const envelope = this.cipher.reseal(value.envelope, settingAssociatedData(row.key));
        await manager.update(SettingEntity, { key: row.key }, { value: JSON.stringify({ ...value, envelope }) });
        resealed++;
      }
      for (const column of ENCRYPTED_COLUMNS) {
        const rows: Array<{ id: string | number; envelope: string }> = await manager.query(
          `SELECT "${column.idColumn}" AS "id", "${column.column}" AS "envelope" FROM "${column.table}" WHERE "${column.column}" IS NOT NULL`,
        );
        for (const row of rows) {
          if (!this.cipher.needsRotation(row.envelope)) continue;
          const envelope = this.cipher.reseal(row.envelope, column.associatedData(String(row.id)));
          await manager
            .createQueryBuilder()
            .update(column.table)
            .set({ [column.column]: envelope })
            .where(`"${column.idColumn}" = :id`, { id: row.id })
            .execute();
          resealed++;
        }
      }
      return { resealed, sealed };
    });
  }

  private async countSealed(manager: EntityManager): Promise<number> {
    let count = 0;
    for (const row of await manager.find(SettingEntity)) if (isSealedSettingValue(JSON.parse(row.value))) count++;
    for (const column of ENCRYPTED_COLUMNS) {
      const [{ total }]: Array<{ total: number | string }> = await manager.query(
        `SELECT COUNT(*) AS "total" FROM "${column.table}" WHERE "${column.column}" IS NOT NULL`,
      );
      count += Number(total);
    }
    return count;
  }
}
