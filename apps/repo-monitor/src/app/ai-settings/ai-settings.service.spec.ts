import { serializeSqliteAccess } from '@shared/database';
import { tempDir } from '@shared/testing';
import { join } from 'node:path';
import { AbstractLogger, DataSource, LogLevel, LogMessage } from 'typeorm';
import { dataSourceOptions } from '../../database/data-source-options';
import { DatabaseWork } from '../../database/database-work';
import { AuditLogRepository } from '../admin/audit-log.repository';
import { AuditLogService } from '../admin/audit-log.service';
import { loadMonitorConfig } from '../config/monitor-config';
import { SecretCipher } from '../settings/secret-cipher';
import { SettingsStore } from '../settings/settings.store';
import { SettingsChanges } from '../settings/settings-changes';
import { AiSettingsService } from './ai-settings.service';

/** Counts the reads of the settings table, where the AI settings live. */
class SettingsReads extends AbstractLogger {
  count = 0;
  protected writeLog(_level: LogLevel, message: LogMessage | LogMessage[]): void {
    for (const entry of Array.isArray(message) ? message : [message]) {
      if (entry.type === 'query' && /^SELECT .* FROM "settings"/s.test(String(entry.message).trim())) this.count++;
    }
  }
}

describe('AiSettingsService: effective settings cached, cleared on change', () => {
  const dir = tempDir('monitor-ai-settings-');
  const reads = new SettingsReads(['query']);
  const config = loadMonitorConfig({ env: { MONITOR_DATABASE_URL: `file:${join(dir.path, 'unused.db')}`, MONITOR_ENCRYPTION_KEY: 'c3'.repeat(32) } });
  let dataSource: DataSource;
  let store: SettingsStore;
  let service: AiSettingsService;

  beforeAll(async () => {
    dataSource = new DataSource({ ...dataSourceOptions({ driver: 'sqlite', path: join(dir.path, 'settings.db') }), logger: reads, logging: ['query'] });
    await dataSource.initialize();
    serializeSqliteAccess(dataSource);
    store = new SettingsStore(dataSource, new SecretCipher(config));
    service = new AiSettingsService(config, dataSource, store, new AuditLogService(new AuditLogRepository(new DatabaseWork(dataSource))), new SettingsChanges(config, dataSource));
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await dataSource.destroy();
    dir.remove();
  });

  it('reads the database once for many uses (the outbox worker asks before every claim)', async () => {
    const before = reads.count;
    const all = await Promise.all(Array.from({ length: 20 }, () => service.current()));
    await service.current();
    expect(new Set(all.map((settings) => settings.model))).toEqual(new Set([config.ai.model]));
    // ai.config and ai.api_key, once.
    expect(reads.count - before).toBe(2);
  });

  it('applies a console change at the next read', async () => {
    await service.current();
    await service.update({ model: 'changed-model', enabled: true, api_key: 'sk-new-key' }, 'admin', '127.0.0.1');
    expect(await service.current()).toMatchObject({ model: 'changed-model', enabled: true, apiKey: 'sk-new-key' });
    await service.update({ enabled: false }, 'admin', '127.0.0.1');
    expect((await service.current()).enabled).toBe(false);
  });

  it('sees a change written by another replica once the cache time has passed', async () => {
    const seen = await service.current();
    await store.set('ai.config', { model: 'set-elsewhere' });
    expect((await service.current()).model).toBe(seen.model);
    const now = Date.now();
    jest.spyOn(Date, 'now').mockReturnValue(now + config.settings.refreshMs + 1);
    expect((await service.current()).model).toBe('set-elsewhere');
  });
});
