import { SchedulerRegistry } from '@nestjs/schedule';
import { LocalTelegramBotApi, LocalWebDavServer, requestJson, tempDir } from '@shared/testing';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AUTO_BACKUP_JOB } from '../src/app/backups/auto-backup.scheduler';
import { BackupService } from '../src/app/backups/backup.service';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';

const BOT_TOKEN = '777001:backup-test-token';
const BOT_CHAT = '-1001234';

function listArchive(archive: Buffer): string[] {
  const dir = tempDir('backup-e2e-list-');
  try {
    const file = join(dir.path, 'a.tar.gz');
    writeFileSync(file, archive);
    return execFileSync('tar', ['-tzf', file], { encoding: 'utf8' }).trim().split('\n');
  } finally {
    dir.remove();
  }
}

function manifestOf(archive: Buffer): Record<string, unknown> {
  const dir = tempDir('backup-e2e-manifest-');
  try {
    const file = join(dir.path, 'a.tar.gz');
    writeFileSync(file, archive);
    return JSON.parse(execFileSync('tar', ['-xzOf', file, 'manifest.json'], { encoding: 'utf8' })) as Record<string, unknown>;
  } finally {
    dir.remove();
  }
}

describe('backups', () => {
  let panel: RunningPanel & { databaseUrl?: string };
  let webdav: LocalWebDavServer;
  let bot: LocalTelegramBotApi;
  let token: string;
  const sqlite = () => panel.config.database.driver === 'sqlite';

  const settings = (body: Record<string, unknown>) => requestJson(panel.url, '/api/config/settings', { method: 'PUT', token, body });

  beforeAll(async () => {
    webdav = await new LocalWebDavServer().start();
    bot = await new LocalTelegramBotApi({ token: BOT_TOKEN }).start();
    panel = await startPanel({ env: { APP_BOT_API_BASE_URL: bot.apiBaseUrl } });
    token = await loginAsAdmin(panel);
    mkdirSync(join(panel.dataDir, 'sessions'), { recursive: true });
    writeFileSync(join(panel.dataDir, 'sessions', 'alice.session'), 'alice-session');
    writeFileSync(join(panel.dataDir, '.signer', 'daily.json'), '{"name":"daily"}');
  });

  afterAll(async () => {
    await panel?.close();
    await webdav?.close();
    await bot?.close();
  });

  it('answers 401 on every backup route without a token', async () => {
    for (const [method, path] of [
      ['GET', '/api/ops/backup/status'],
      ['POST', '/api/ops/backup/export'],
      ['POST', '/api/ops/backup/webdav/test'],
      ['GET', '/api/ops/backup/webdav/files'],
      ['GET', '/api/ops/backup/webdav/download?name=a.tar.gz'],
    ]) {
      expect({ path, status: (await requestJson(panel.url, path, { method })).status }).toEqual({ path, status: 401 });
    }
  });

  it('answers 400 on a bad export target and on WebDAV calls before a target is saved', async () => {
    expect((await requestJson(panel.url, '/api/ops/backup/export?target=ftp', { method: 'POST', token })).status).toBe(400);
    const test = await requestJson<{ message: string }>(panel.url, '/api/ops/backup/webdav/test', { method: 'POST', token });
    expect(test.status).toBe(400);
    expect(test.body.message).toMatch(/webdav_url/);
    expect((await requestJson(panel.url, '/api/ops/backup/webdav/files', { token })).status).toBe(400);
    expect((await requestJson(panel.url, '/api/ops/backup/export?target=webdav', { method: 'POST', token })).status).toBe(409);
  });

  it('downloads a streamed tar.gz with a file name when no WebDAV target is saved', async () => {
    const response = await fetch(`${panel.url}/api/ops/backup/export`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/gzip');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="backup-\d{8}-\d{6}\.tar\.gz"$/);
    const archive = Buffer.from(await response.arrayBuffer());
    const names = listArchive(archive);
    expect(names[0]).toBe('manifest.json');
    expect(names).toEqual(expect.arrayContaining(['sessions/alice.session', '.signer/daily.json']));
    expect(names).not.toContain('.admin_bootstrap_password');
    expect(names).not.toContain('.scheduler.lock');
    expect(names).not.toContain('.jwt_secret');
    if (sqlite()) {
      expect(names).toEqual(expect.arrayContaining(['db.sqlite', 'db.sqlite-wal', 'db.sqlite-shm']));
      expect(manifestOf(archive)).toMatchObject({ database: 'included' });
    } else {
      expect(names.some((name) => name.startsWith('db.sqlite'))).toBe(false);
      expect(manifestOf(archive)).toMatchObject({ database: 'not-included-postgres', restore: expect.stringContaining('pg_dump') });
    }
  });

  it('uploads to the saved WebDAV target and says where; lists only .tar.gz; streams one back by safe name', async () => {
    expect((await settings({ webdav_url: webdav.url, webdav_username: webdav.username, webdav_password: webdav.password })).status).toBe(200);
    const test = await requestJson(panel.url, '/api/ops/backup/webdav/test', { method: 'POST', token });
    expect(test.body).toEqual({ ok: true, folder: 'tg-signpulse-backups', folder_exists: false });

    const exported = await requestJson<{ destination: string; file_name: string; remote_path: string; url: string; size_bytes: number }>(
      panel.url,
      '/api/ops/backup/export',
      { method: 'POST', token },
    );
    expect(exported.status).toBe(200);
    expect(exported.body).toMatchObject({ destination: 'webdav', remote_path: `/tg-signpulse-backups/${exported.body.file_name}` });
    expect(exported.body.url).toBe(`${webdav.url}/tg-signpulse-backups/${exported.body.file_name}`);
    const onServer = readFileSync(webdav.pathOnDisk(`tg-signpulse-backups/${exported.body.file_name}`));
    expect(onServer.length).toBe(exported.body.size_bytes);
    expect(listArchive(onServer)).toContain('sessions/alice.session');

    writeFileSync(webdav.pathOnDisk('tg-signpulse-backups/readme.txt'), 'not a backup');
    const files = await requestJson<{ folder: string; files: Array<{ name: string; size_bytes: number; modified_at: string }> }>(
      panel.url,
      '/api/ops/backup/webdav/files',
      { token },
    );
    expect(files.status).toBe(200);
    expect(files.body.files).toEqual([{ name: exported.body.file_name, size_bytes: onServer.length, modified_at: expect.any(String) }]);

    const download = await fetch(`${panel.url}/api/ops/backup/webdav/download?name=${exported.body.file_name}`, { headers: { authorization: `Bearer ${token}` } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename="${exported.body.file_name}"`);
    expect(Buffer.from(await download.arrayBuffer()).equals(onServer)).toBe(true);

    expect((await requestJson(panel.url, '/api/ops/backup/webdav/download?name=missing.tar.gz', { token })).status).toBe(404);
    for (const name of ['../etc.tar.gz', 'a/b.tar.gz', 'readme.txt', '.hidden.tar.gz', 'x..tar.gz', '']) {
      const refused = await requestJson(panel.url, `/api/ops/backup/webdav/download?name=${encodeURIComponent(name)}`, { token });
      expect({ name, status: refused.status }).toEqual({ name, status: 400 });
    }
    expect((await requestJson(panel.url, '/api/ops/backup/webdav/download', { token })).status).toBe(400);

    // target=download still downloads while WebDAV is saved.
    const forced = await fetch(`${panel.url}/api/ops/backup/export?target=download`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(forced.headers.get('content-type')).toBe('application/gzip');
    await forced.arrayBuffer();
  });

  it('runs the automatic backup on its interval: uploads, deletes the local file, prunes the remote to auto_backup_keep', async () => {
    const registry = panel.app.get(SchedulerRegistry);
    expect(registry.doesExist('interval', AUTO_BACKUP_JOB)).toBe(false);
    expect((await settings({ auto_backup_enabled: true, auto_backup_interval_hours: 6, auto_backup_keep: 2 })).status).toBe(200);
    expect(registry.doesExist('interval', AUTO_BACKUP_JOB)).toBe(true);

    const backups = panel.app.get(BackupService);
    const runs = [];
    for (const at of ['2024-01-01T00:00:00Z', '2024-01-02T00:00:00Z', '2024-01-03T00:00:00Z']) runs.push(await backups.runAutomaticBackup(new Date(at)));
    expect(runs.map((run) => run.ok)).toEqual([true, true, true]);
    expect(runs[2]).toMatchObject({ destination: 'webdav', remote_path: '/tg-signpulse-backups/auto-20240103-000000.tar.gz', pruned_remote: ['auto-20240101-000000.tar.gz'] });
    const remote = readdirSync(webdav.pathOnDisk('tg-signpulse-backups')).sort();
    expect(remote.filter((name) => name.startsWith('auto-'))).toEqual(['auto-20240102-000000.tar.gz', 'auto-20240103-000000.tar.gz']);
    // The manual backup of the previous test is never pruned.
    expect(remote.some((name) => name.startsWith('backup-'))).toBe(true);
    const localFolder = join(panel.dataDir, 'backups');
    expect(existsSync(localFolder) ? readdirSync(localFolder) : []).toEqual([]);

    const status = await requestJson<Record<string, unknown>>(panel.url, '/api/ops/backup/status', { token });
    expect(status.body).toMatchObject({
      webdav_configured: true,
      auto_backup_enabled: true,
      auto_backup_interval_hours: 6,
      auto_backup_keep: 2,
      next_auto_backup_at: expect.any(String),
      last_auto_backup: { ok: true, destination: 'webdav', file_name: 'auto-20240103-000000.tar.gz' },
      local_backups: [],
      database_driver: panel.config.database.driver,
    });
    const sizes = status.body['sizes'] as Record<string, number>;
    expect(sizes['sessions_bytes']).toBe('alice-session'.length);
    expect(sizes['database_bytes'] > 0).toBe(sqlite());

    expect((await settings({ auto_backup_enabled: false })).status).toBe(200);
    expect(registry.doesExist('interval', AUTO_BACKUP_JOB)).toBe(false);
  });

  it('keeps the local file and notifies the bot (master switch only) when the upload fails', async () => {
    const backups = panel.app.get(BackupService);
    await settings({ webdav_password: 'wrong-password', bot_token: BOT_TOKEN, bot_chat_id: BOT_CHAT, bot_notify_enabled: false });
    const silent = await backups.runAutomaticBackup(new Date('2024-02-01T00:00:00Z'));
    expect(silent).toMatchObject({ ok: false, destination: 'local', notified: false, error: expect.stringContaining('HTTP 401') });
    expect(bot.messagesTo(BOT_CHAT)).toHaveLength(0);

    await settings({ bot_notify_enabled: true, bot_notify_task_failure: false });
    const failed = await backups.runAutomaticBackup(new Date('2024-02-02T00:00:00Z'));
    expect(failed).toMatchObject({ ok: false, destination: 'local', notified: true });
    const messages = bot.messagesTo(BOT_CHAT);
    expect(messages).toHaveLength(1);
    expect(messages[0].plainText).toContain('Automatic backup failed');
    expect(messages[0].plainText).toContain('auto-20240202-000000.tar.gz');
    expect(messages[0].plainText).not.toContain('wrong-password');

    const local = readdirSync(join(panel.dataDir, 'backups')).sort();
    expect(local).toEqual(['auto-20240201-000000.tar.gz', 'auto-20240202-000000.tar.gz']);
    expect(listArchive(readFileSync(join(panel.dataDir, 'backups', local[1])))).toContain('sessions/alice.session');
    const status = await requestJson<{ local_backups: Array<{ name: string }>; last_auto_backup: { ok: boolean } }>(panel.url, '/api/ops/backup/status', { token });
    expect(status.body.local_backups.map((file) => file.name)).toEqual(['auto-20240202-000000.tar.gz', 'auto-20240201-000000.tar.gz']);
    expect(status.body.last_auto_backup.ok).toBe(false);

    const test = await requestJson<{ ok: boolean; error: string }>(panel.url, '/api/ops/backup/webdav/test', { method: 'POST', token });
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ ok: false, error: expect.stringContaining('refused the credentials') });
    expect((await requestJson(panel.url, '/api/ops/backup/webdav/files', { token })).status).toBe(502);
  });
});
