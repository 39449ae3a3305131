import { createTestPostgresDatabase, requestJson, tempDir, testDatabaseDriver, TestPostgresDatabase } from '@shared/testing';
import { once } from 'node:events';
import { createWriteStream, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createBackupArchive } from '../src/app/backups/backup-archive';
import { loadOrCreateBackupKey } from '../src/app/backups/backup-key';
import { restoreBackupArchive } from '../src/app/backups/restore-archive';
import { DataDirectory } from '../src/app/data-dir/data-directory';
import { SettingsService } from '../src/app/settings/settings.service';
import { SettingsChange } from '../src/app/settings/settings.types';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';
import { storedSettings } from './stored-settings';

type SettingsBody = Record<string, unknown>;

/** What an earlier version kept in its settings files, secrets in the clear. */
const EARLIER_FILES = {
  '.global_settings.json': { timezone: 'Europe/Berlin', auto_backup_keep: 4, bot_token: '123456:EarlierBotToken', bot_chat_id: '-100777', webdav_password: 'earlier-dav-password', sign_interval: 5 },
  '.openai_config.json': { base_url: 'http://127.0.0.1:9/v1', model: 'gpt-earlier', api_key: 'sk-earlier-key' },
  '.telegram_api.json': { api_id: '611335', api_hash: 'ab'.repeat(16) },
};
const EARLIER_SECRETS = ['123456:EarlierBotToken', 'earlier-dav-password', 'sk-earlier-key', 'ab'.repeat(16)];

/**
 * Issue 31: the settings are rows of the database (secrets sealed with APP_ENCRYPTION_KEY), an
 * earlier version's files are imported once, and replicas with their own empty data directories
 * serve the same settings, a change through one holding on the next request to any.
 */
describe('settings in the database', () => {
  const dirs: Array<ReturnType<typeof tempDir>> = [];
  const panels: RunningPanel[] = [];
  let database: TestPostgresDatabase | undefined;

  const newDir = () => {
    const dir = tempDir('panel-settings-db-');
    dirs.push(dir);
    return dir.path;
  };
  const start = async (dataDir: string, env: Record<string, string> = {}) => {
    const panel = await startPanel({
      reuse: { dataDir, databaseUrl: database?.url },
      env: { APP_JWT_SECRET: 'settings-in-database-shared-jwt-secret-0123456789', ...env },
    });
    panels.push(panel);
    return panel;
  };
  const getSettings = (panel: RunningPanel, token: string) => requestJson<SettingsBody>(panel.url, '/api/config/settings', { token });
  const putSettings = (panel: RunningPanel, token: string, body: SettingsBody) => requestJson<SettingsBody>(panel.url, '/api/config/settings', { method: 'PUT', token, body });
  const writeEarlierFiles = (dataDir: string) => {
    for (const [file, content] of Object.entries(EARLIER_FILES)) writeFileSync(join(dataDir, file), JSON.stringify(content), { mode: 0o600 });
  };

  beforeEach(async () => {
    if (testDatabaseDriver() === 'postgres') database = await createTestPostgresDatabase('h1_settings_db');
  });

  afterEach(async () => {
    for (const panel of panels.splice(0)) await panel.stop();
    await database?.drop();
    database = undefined;
    for (const dir of dirs.splice(0)) dir.remove();
  });

  it('imports the settings files of an earlier version once, secrets sealed in the database, and the database wins afterwards', async () => {
    const dataDir = newDir();
    writeEarlierFiles(dataDir);
    const first = await start(dataDir);
    const token = await loginAsAdmin(first);
    const read = await getSettings(first, token);
    expect(read.body).toMatchObject({ timezone: 'Europe/Berlin', auto_backup_keep: 4, bot_token_set: true, bot_chat_id: '-100777', webdav_password_set: true, ai_model: 'gpt-earlier', ai_api_key_set: true, telegram_api_id: 611335, telegram_api_hash_set: true });
    for (const file of Object.keys(EARLIER_FILES)) expect(existsSync(join(dataDir, file))).toBe(false);
    const setAside = readdirSync(dataDir).filter((name) => name.includes('.json.imported-')).sort();
    expect(setAside).toEqual([expect.stringMatching(/^\.global_settings\.json\.imported-/), expect.stringMatching(/^\.openai_config\.json\.imported-/), expect.stringMatching(/^\.telegram_api\.json\.imported-/)]);
    expect(first.app.get(SettingsService).lastFileImport?.imported).toHaveLength(3);

    // No secret readable in the database without the key; the unknown key is kept (sealed too).
    const stored = await storedSettings(first);
    for (const secret of EARLIER_SECRETS) expect(stored.text).not.toContain(secret);
    expect(stored.text).not.toContain('sign_interval');
    expect(stored.global).toMatchObject({ sign_interval: 5, bot_token: '123456:EarlierBotToken' });

    expect((await putSettings(first, token, { timezone: 'Asia/Tokyo' })).status).toBe(200);
    await first.stop();

    // A file that turns up again (a copy put back by hand) does not overwrite what the database holds.
    writeFileSync(join(dataDir, '.global_settings.json'), JSON.stringify({ timezone: 'America/New_York' }));
    const second = await start(dataDir);
    const again = await getSettings(second, await loginAsAdmin(second));
    expect(again.body).toMatchObject({ timezone: 'Asia/Tokyo', auto_backup_keep: 4, bot_token_set: true });
    expect(second.app.get(SettingsService).lastFileImport).toMatchObject({ imported: [], already_stored: [join(dataDir, '.global_settings.json')] });
    await second.stop();

    // Another key opens none of the sealed settings: the start stops and says why.
    await expect(start(dataDir, { APP_ENCRYPTION_KEY: 'cd'.repeat(32) })).rejects.toThrow(/stored setting global\.\w+ cannot be opened with this APP_ENCRYPTION_KEY/);
  });

  it('restores a backup archive of an earlier version that carries the settings files', async () => {
    const earlier = newDir();
    writeEarlierFiles(earlier);
    mkdirSync(join(earlier, 'sessions'));
    mkdirSync(join(earlier, '.signer'));
    const key = loadOrCreateBackupKey(join(earlier, '.backup_key'));
    const archive = createBackupArchive({
      manifest: { format: 'tg-signpulse-backup', version: 1, created_at: new Date().toISOString(), app_version: '0.9.0', database: 'not-included-postgres', contents: [...Object.keys(EARLIER_FILES), 'sessions/', '.signer/'], excluded: [], restore: '' },
      sources: [
        ...Object.keys(EARLIER_FILES).map((name) => ({ name, path: join(earlier, name), kind: 'file' as const })),
        { name: 'sessions', path: join(earlier, 'sessions'), kind: 'directory' },
        { name: '.signer', path: join(earlier, '.signer'), kind: 'directory' },
      ],
      integrityKey: key,
    });
    const file = join(newDir(), 'earlier.tar.gz');
    const output = createWriteStream(file);
    await Promise.all([pipeline(archive.stream, output), archive.done]);
    if (!output.closed) await once(output, 'close');

    const target = newDir();
    writeFileSync(join(target, '.backup_key'), `${key}\n`, { mode: 0o600 });
    await restoreBackupArchive(file, target, { key, keep: new DataDirectory(target).excludedFromBackup });
    expect(existsSync(join(target, '.global_settings.json'))).toBe(true);

    const restored = await start(target);
    const read = await getSettings(restored, await loginAsAdmin(restored));
    expect(read.body).toMatchObject({ timezone: 'Europe/Berlin', ai_model: 'gpt-earlier', telegram_api_id: 611335, bot_token_set: true });
    expect(existsSync(join(target, '.global_settings.json'))).toBe(false);
  });

  /**
   * Two replicas: on PostgreSQL each with its own empty data directory; on SQLite (one file, so one
   * host) two instances on one data directory, which share the database the same way.
   */
  const startTwo = async () => {
    const shared = database ? undefined : newDir();
    return [await start(shared ?? newDir()), await start(shared ?? newDir())];
  };

  it('serves a change made through one replica from the other on its next request, and calls its listeners', async () => {
    const [one, two] = await startTwo();
    const oneToken = await loginAsAdmin(one);
    const twoToken = await loginAsAdmin(two);
    const heard: SettingsChange[] = [];
    two.app.get(SettingsService).onChange((change) => heard.push(change));

    expect((await putSettings(one, oneToken, { timezone: 'Europe/Paris', bot_token: '123456:ReplicaToken', bot_chat_id: '42', ai_model: 'gpt-replica' })).status).toBe(200);
    expect((await getSettings(two, twoToken)).body).toMatchObject({ timezone: 'Europe/Paris', bot_token_set: true, bot_chat_id: '42', ai_model: 'gpt-replica' });
    // The other replica's features read it too: the notifier's bot target, for one.
    expect(two.app.get(SettingsService).getGlobal().bot_token).toBe('123456:ReplicaToken');
    expect(heard).toEqual([{ global: true, ai: true, telegramApi: false }]);

    // A rule one replica checks against what another stored: the stored WebDAV password stays with its host.
    expect((await putSettings(two, twoToken, { webdav_url: 'https://dav.example.test/', webdav_password: 'dav-one' })).status).toBe(200);
    const moved = await putSettings(one, oneToken, { webdav_url: 'https://elsewhere.example.test/' });
    expect(moved.status).toBe(400);
    expect(JSON.stringify(moved.body)).toMatch(/webdav_password must be given again/);
  });

  it('keeps both of two updates sent at once to two replicas', async () => {
    const [one, two] = await startTwo();
    const oneToken = await loginAsAdmin(one);
    const twoToken = await loginAsAdmin(two);
    const sent = await Promise.all([
      putSettings(one, oneToken, { timezone: 'Asia/Shanghai', auto_backup_keep: 11 }),
      putSettings(two, twoToken, { ai_model: 'gpt-both', telegram_api_id: 4242 }),
    ]);
    expect(sent.map((response) => response.status)).toEqual([200, 200]);
    for (const [panel, token] of [[one, oneToken], [two, twoToken]] as const) {
      expect((await getSettings(panel, token)).body).toMatchObject({ timezone: 'Asia/Shanghai', auto_backup_keep: 11, ai_model: 'gpt-both', telegram_api_id: 4242 });
    }
  });
});
