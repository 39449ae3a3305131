import { tempDir } from '@shared/testing';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { DataDirectory } from '../data-dir/data-directory';
import { SettingsService } from './settings.service';

describe('SettingsService.update', () => {
  let dir: ReturnType<typeof tempDir>;
  let dataDirectory: DataDirectory;
  let service: SettingsService;

  beforeEach(() => {
    dir = tempDir('settings-');
    dataDirectory = new DataDirectory(dir.path);
    service = new SettingsService(dataDirectory);
    service.onModuleInit();
  });

  afterEach(() => dir.remove());

  const files = () => [dataDirectory.globalSettingsFile, dataDirectory.aiSettingsFile, dataDirectory.telegramApiFile];

  it('writes every changed settings file', async () => {
    const change = await service.update({ timezone: 'Europe/Berlin', ai_model: 'gpt-test', telegram_api_id: 12345 });
    expect(change).toEqual({ global: true, ai: true, telegramApi: true });
    expect(JSON.parse(readFileSync(dataDirectory.globalSettingsFile, 'utf8')).timezone).toBe('Europe/Berlin');
    expect(JSON.parse(readFileSync(dataDirectory.aiSettingsFile, 'utf8')).model).toBe('gpt-test');
    expect(JSON.parse(readFileSync(dataDirectory.telegramApiFile, 'utf8')).api_id).toBe(12345);
  });

  it('changes no file and nothing in memory when the last file cannot be replaced', async () => {
    // A folder in place of the Telegram settings file, which comes last, makes the update fail after the others were prepared.
    rmSync(dataDirectory.telegramApiFile);
    mkdirSync(dataDirectory.telegramApiFile);
    const before = files().slice(0, 2).map((path) => readFileSync(path, 'utf8'));
    const notified: unknown[] = [];
    service.onChange((change) => notified.push(change));

    await expect(service.update({ timezone: 'Europe/Berlin', ai_model: 'gpt-test', telegram_api_id: 12345 })).rejects.toThrow();

    expect(files().slice(0, 2).map((path) => readFileSync(path, 'utf8'))).toEqual(before);
    expect(service.getGlobal().timezone).toBe('UTC');
    expect(service.getAi().model).toBeNull();
    expect(service.getTelegramApi().api_id).toBeNull();
    expect(notified).toEqual([]);
    expect(readdirSync(dir.path).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
