import { createTestPostgresDatabase, tempDir, testDatabaseDriver, TestPostgresDatabase } from '@shared/testing';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../database/data-source-options';
import { PanelConfig } from '../config/panel-config';
import { DataDirectory } from '../data-dir/data-directory';
import { CorruptDataFileError } from '../data-dir/json-file-store';
import { SettingsRow } from './entities/settings-row.entity';
import { SealedSettingError, SettingsCipher } from './settings-cipher';
import { InvalidSettingsError, SettingsService } from './settings.service';
import { SettingsChange } from './settings.types';

const KEY = 'ab'.repeat(32);

/** Replicas of the settings: each its own data directory (unless given one) and connection, one database. */
describe('SettingsService: settings in the database', () => {
  let shared: ReturnType<typeof tempDir>;
  let postgres: TestPostgresDatabase | undefined;
  const dirs: Array<ReturnType<typeof tempDir>> = [];
  const sources: DataSource[] = [];
  const services: SettingsService[] = [];

  const directory = (): DataDirectory => {
    const dir = tempDir('settings-replica-');
    dirs.push(dir);
    return new DataDirectory(dir.path);
  };

  const startService = async (options: { key?: string; dataDirectory?: DataDirectory } = {}): Promise<SettingsService> => {
    const dataDirectory = options.dataDirectory ?? directory();
    const target = postgres ? ({ driver: 'postgres', url: postgres.url } as const) : ({ driver: 'sqlite', path: join(shared.path, 'db.sqlite') } as const);
    const source = new DataSource(dataSourceOptions(target));
    await source.initialize();
    sources.push(source);
    const service = new SettingsService(dataDirectory, new SettingsCipher(dataDirectory, { auth: { encryptionKey: options.key ?? KEY } } as PanelConfig), source);
    await service.load();
    services.push(service);
    return service;
  };

  const rows = async (): Promise<SettingsRow[]> => sources[0].getRepository(SettingsRow).find({ order: { name: 'ASC' } });

  beforeEach(async () => {
    shared = tempDir('settings-db-');
    if (testDatabaseDriver() === 'postgres') postgres = await createTestPostgresDatabase('h1_settings');
  });

  afterEach(async () => {
    for (const service of services.splice(0)) service.onModuleDestroy();
    for (const source of sources.splice(0)) await source.destroy();
    await postgres?.drop();
    postgres = undefined;
    for (const dir of dirs.splice(0)) dir.remove();
    shared.remove();
  });

  it('stores every changed group in one write, and a new start reads them back', async () => {
    const first = await startService();
    expect(first.getGlobal().timezone).toBe('UTC');
    const change = await first.update({ timezone: 'Europe/Berlin', ai_model: 'gpt-test', telegram_api_id: 12345 });
    expect(change).toEqual({ global: true, ai: true, telegramApi: true });
    expect((await rows()).map((row) => row.name)).toEqual(['ai', 'global', 'telegram_api']);

    const again = await startService();
    expect(again.getGlobal().timezone).toBe('Europe/Berlin');
    expect(again.getAi().model).toBe('gpt-test');
    expect(again.getTelegramApi().api_id).toBe(12345);
  });

  it('changes nothing, in the table or in memory, when an update breaks a rule', async () => {
    const service = await startService();
    await service.update({ webdav_url: 'https://dav.example.com/remote.php', webdav_password: 'dav-secret' });
    const before = await rows();
    const notified: SettingsChange[] = [];
    service.onChange((change) => notified.push(change));

    // A new WebDAV host without its password again: the stored password must not travel there.
    await expect(service.update({ timezone: 'Europe/Berlin', webdav_url: 'https://elsewhere.example.com/dav' })).rejects.toThrow(InvalidSettingsError);
    await expect(service.update({ timezone: 'Not/AZone' })).rejects.toThrow(InvalidSettingsError);

    expect(await rows()).toEqual(before);
    expect(service.getGlobal().timezone).toBe('UTC');
    expect(notified).toEqual([]);
  });

  it('keeps the secret fields and unknown keys sealed in the row, opened only with the key', async () => {
    const service = await startService();
    const secrets = { webdav_password: 'dav-password-123', ai_api_key: 'sk-live-abcdef', telegram_api_hash: '0123456789abcdef0123456789abcdef', bot_token: '123456:AAbbCCddEEff' };
    await service.update({ webdav_url: 'https://dav.example.com/', ...secrets });
    const stored = JSON.stringify(await rows());
    for (const secret of Object.values(secrets)) expect(stored).not.toContain(secret);
    expect(stored).toContain('https://dav.example.com/');

    const again = await startService();
    expect(again.stored('webdav_password')).toBe(secrets.webdav_password);
    expect(again.getAi().api_key).toBe(secrets.ai_api_key);
    expect(again.getTelegramApi().api_hash).toBe(secrets.telegram_api_hash);

    // Another key cannot open them: the start says which setting and why.
    await expect(startService({ key: 'cd'.repeat(32) })).rejects.toThrow(SealedSettingError);
  });

  it('shows another replica a change at its next refresh and tells its listeners', async () => {
    const first = await startService();
    const second = await startService();
    const seen: SettingsChange[] = [];
    second.onChange((change) => seen.push(change));

    await first.update({ bot_token: '123456:AAbbCCddEEff', bot_chat_id: '42' });
    expect(second.getGlobal().bot_token).toBeNull();
    await second.refresh();
    expect(second.getGlobal()).toMatchObject({ bot_token: '123456:AAbbCCddEEff', bot_chat_id: '42' });
    expect(seen).toEqual([{ global: true, ai: false, telegramApi: false }]);

    // Nothing changed since: no call.
    await second.refresh();
    expect(seen).toHaveLength(1);
  });

  it('keeps both of two updates made at once on two replicas', async () => {
    const first = await startService();
    const second = await startService();
    await Promise.all([first.update({ timezone: 'Asia/Shanghai' }), second.update({ ai_model: 'gpt-both', auto_backup_keep: 9 })]);
    await first.update({ telegram_api_id: 777 });
    await second.refresh();
    for (const service of [first, second]) {
      await service.refresh();
      expect(service.getGlobal()).toMatchObject({ timezone: 'Asia/Shanghai', auto_backup_keep: 9 });
      expect(service.getAi().model).toBe('gpt-both');
      expect(service.getTelegramApi().api_id).toBe(777);
    }
  });

  it('imports the files of an earlier version once, keeps their unknown keys and sets them aside', async () => {
    const dataDirectory = directory();
    dataDirectory.prepare();
    writeFileSync(dataDirectory.globalSettingsFile, JSON.stringify({ timezone: 'Europe/Paris', webdav_password: 'from-file', a_later_key: { keep: true } }));
    writeFileSync(dataDirectory.telegramApiFile, JSON.stringify({ api_id: '611335', api_hash: 'a'.repeat(32) }));
    const service = await startService({ dataDirectory });
    expect(service.lastFileImport).toMatchObject({ imported: [dataDirectory.globalSettingsFile, dataDirectory.telegramApiFile], already_stored: [] });
    expect(service.getGlobal().timezone).toBe('Europe/Paris');
    expect(service.getTelegramApi().api_id).toBe(611335);
    expect(existsSync(dataDirectory.globalSettingsFile)).toBe(false);
    expect(readdirSync(dataDirectory.root).filter((name) => name.includes('.imported-')).sort()).toEqual([
      expect.stringMatching(/^\.global_settings\.json\.imported-/),
      expect.stringMatching(/^\.telegram_api\.json\.imported-/),
    ]);
    const stored = JSON.stringify(await rows());
    expect(stored).not.toContain('from-file');
    expect(stored).not.toContain('a_later_key');

    // The unknown key is written back with the next update, and another start finds nothing to import.
    await service.update({ timezone: 'UTC' });
    const again = await startService({ dataDirectory });
    expect(again.lastFileImport).toBeUndefined();
    expect(again.getGlobal()).toMatchObject({ timezone: 'UTC', webdav_password: 'from-file' });
    const document = JSON.parse((await rows()).find((row) => row.name === 'global')?.document ?? '') as { unknown: string };
    const cipher = new SettingsCipher(dataDirectory, { auth: { encryptionKey: KEY } } as PanelConfig);
    expect(JSON.parse(cipher.open('global.unknown', document.unknown))).toEqual({ a_later_key: { keep: true } });
  });

  it('leaves the stored settings as they are when a file of a group the database holds turns up', async () => {
    const first = await startService();
    await first.update({ timezone: 'Asia/Tokyo' });
    const dataDirectory = directory();
    dataDirectory.prepare();
    writeFileSync(dataDirectory.globalSettingsFile, JSON.stringify({ timezone: 'Europe/Paris' }));
    writeFileSync(dataDirectory.aiSettingsFile, JSON.stringify({ model: 'from-file' }));
    const second = await startService({ dataDirectory });
    expect(second.lastFileImport).toMatchObject({ imported: [dataDirectory.aiSettingsFile], already_stored: [dataDirectory.globalSettingsFile] });
    expect(second.getGlobal().timezone).toBe('Asia/Tokyo');
    expect(second.getAi().model).toBe('from-file');
  });

  it('imports once when two replicas start at once on one shared data directory', async () => {
    const dataDirectory = directory();
    dataDirectory.prepare();
    writeFileSync(dataDirectory.aiSettingsFile, JSON.stringify({ model: 'shared', api_key: 'sk-shared' }));
    // The schema first (its migrations are not what is raced here).
    await startService();
    const [one, two] = await Promise.all([startService({ dataDirectory: new DataDirectory(dataDirectory.root) }), startService({ dataDirectory: new DataDirectory(dataDirectory.root) })]);
    const imports = [one.lastFileImport, two.lastFileImport].filter((report) => report !== undefined);
    expect(imports.flatMap((report) => report.imported)).toEqual([dataDirectory.aiSettingsFile]);
    expect(imports.flatMap((report) => report.moved_to)).toHaveLength(1);
    for (const service of [one, two]) {
      await service.refresh();
      expect(service.getAi()).toMatchObject({ model: 'shared', api_key: 'sk-shared' });
    }
  });

  it('stops the start on a corrupt settings file and leaves the file where it is', async () => {
    const dataDirectory = directory();
    dataDirectory.prepare();
    writeFileSync(dataDirectory.globalSettingsFile, '{"device_keepalive_interval_days": 400}');
    await expect(startService({ dataDirectory })).rejects.toThrow(CorruptDataFileError);
    expect(existsSync(dataDirectory.globalSettingsFile)).toBe(true);
    expect(await rows()).toEqual([]);
  });
});
