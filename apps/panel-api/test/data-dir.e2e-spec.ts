import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporaryNameFor } from '../src/app/data-dir/json-file-store';
import { SettingsService } from '../src/app/settings/settings.service';
import { RunningPanel, startPanel } from './harness';
import { storedSettings } from './stored-settings';

describe('data directory', () => {
  let panel: RunningPanel & { databaseUrl?: string };

  beforeAll(async () => {
    panel = await startPanel();
  });

  afterAll(async () => {
    await panel?.close();
  });

  it('creates the layout at startup, with db.sqlite only on SQLite', () => {
    for (const folder of ['sessions', '.signer', join('.signer', 'history')]) {
      expect(statSync(join(panel.dataDir, folder)).isDirectory()).toBe(true);
    }
    // The generated token key, on SQLite only: PostgreSQL requires APP_JWT_SECRET.
    if (panel.config.database.driver === 'sqlite') {
      const stat = statSync(join(panel.dataDir, '.jwt_secret'));
      expect(stat.isFile()).toBe(true);
      expect(stat.mode & 0o777).toBe(0o600);
    } else expect(existsSync(join(panel.dataDir, '.jwt_secret'))).toBe(false);
    // The settings are in the database: no settings file is written.
    for (const file of ['.global_settings.json', '.openai_config.json', '.telegram_api.json']) expect(existsSync(join(panel.dataDir, file))).toBe(false);
    expect(existsSync(join(panel.dataDir, 'db.sqlite'))).toBe(panel.config.database.driver === 'sqlite');
  });

  it.each([
    ['.global_settings.json', '{"device_keepalive_enabled": tru', /\.global_settings\.json is corrupt: not valid JSON/],
    ['.openai_config.json', '["not", "an", "object"]', /\.openai_config\.json is corrupt: expected a JSON object/],
    ['.global_settings.json', '{"device_keepalive_interval_days": 400}', /\.global_settings\.json is corrupt: field device_keepalive_interval_days must be between 1 and 170/],
    ['.telegram_api.json', '{"api_hash": 42}', /\.telegram_api\.json is corrupt: field api_hash must be a string/],
  ])('refuses to start when %s of an earlier version is corrupt (%s) and leaves it untouched', async (file, content, message) => {
    await panel.stop();
    const path = join(panel.dataDir, file);
    writeFileSync(path, content);
    try {
      await expect(startPanel({ reuse: { dataDir: panel.dataDir, databaseUrl: panel.databaseUrl } })).rejects.toThrow(message);
      expect(readFileSync(path, 'utf8')).toBe(content);
    } finally {
      rmSync(path);
    }
  });

  it('keeps settings keys it does not know, from an imported file through later updates', async () => {
    const path = join(panel.dataDir, '.global_settings.json');
    writeFileSync(path, JSON.stringify({ timezone: 'Europe/Berlin', sign_interval: 5 }));
    const restarted = await startPanel({ reuse: { dataDir: panel.dataDir, databaseUrl: panel.databaseUrl } });
    try {
      expect(existsSync(path)).toBe(false);
      await restarted.app.get(SettingsService).update({ auto_backup_keep: 9 });
      expect((await storedSettings(restarted)).global).toMatchObject({ sign_interval: 5, timezone: 'Europe/Berlin', auto_backup_keep: 9 });
    } finally {
      await restarted.stop();
    }
  });

  it('removes leftovers of a crash at startup (atomic-write temporaries, partial archives) and keeps real files', async () => {
    await panel.stop();
    mkdirSync(join(panel.dataDir, 'backups'), { recursive: true });
    const leftovers = [
      temporaryNameFor(join(panel.dataDir, '.global_settings.json')),
      temporaryNameFor(join(panel.dataDir, 'sessions', 'alice.session')),
      temporaryNameFor(join(panel.dataDir, '.signer', 'daily.json')),
      join(panel.dataDir, 'backups', 'auto-20240101-000000.tar.gz.partial'),
    ];
    for (const path of leftovers) writeFileSync(path, 'half written');
    const kept = join(panel.dataDir, 'backups', 'auto-20231231-000000.tar.gz');
    writeFileSync(kept, 'a finished archive');
    const restarted = await startPanel({ reuse: { dataDir: panel.dataDir, databaseUrl: panel.databaseUrl } });
    try {
      for (const path of leftovers) expect([path, existsSync(path)]).toEqual([path, false]);
      expect(readFileSync(kept, 'utf8')).toBe('a finished archive');
    } finally {
      await restarted.stop();
    }
  });
});
