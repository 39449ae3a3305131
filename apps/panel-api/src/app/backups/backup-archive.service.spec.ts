import { randomBytes } from 'node:crypto';
import { tempDir, waitFor } from '@shared/testing';
import { execFileSync } from 'node:child_process';
import { chmodSync, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { extract } from 'tar-stream';
import * as sqlite3 from 'sqlite3';
import { loadPanelConfig } from '../config/panel-config';
import { DataDirectory } from '../data-dir/data-directory';
import { HttpReleaseFeed } from '../ops/release-feed';
import { VersionService } from '../ops/version.service';
import { temporaryNameFor } from '../data-dir/json-file-store';
import { BackupKeyService } from './backup-key.service';
import { SharedSecretStore } from '../shared-secrets/shared-secret.store';
import { BackupArchiveService } from './backup-archive.service';

/** Name and permission bits of every entry of a tar.gz stream, as tar would restore them. */
async function entryModes(stream: Readable): Promise<Map<string, number>> {
  const modes = new Map<string, number>();
  const reader = extract();
  reader.on('entry', (header, content, next) => {
    modes.set(header.name, (header.mode ?? 0) & 0o7777);
    content.on('end', next);
    content.resume();
  });
  await pipeline(stream, createGunzip(), reader);
  return modes;
}

function exec(database: sqlite3.Database, sql: string): Promise<void> {
  return new Promise((resolve, reject) => database.exec(sql, (error) => (error ? reject(error) : resolve())));
}

function rows(path: string, sql: string): Promise<Array<Record<string, unknown>>> {
  return new Promise((resolve, reject) => {
    const database = new sqlite3.Database(path, sqlite3.OPEN_READONLY, (openError) => {
      if (openError) return reject(openError);
      database.all(sql, (error, result) => database.close(() => (error ? reject(error) : resolve(result as Array<Record<string, unknown>>))));
    });
  });
}

describe('BackupArchiveService', () => {
  let dir: { path: string; remove: () => void };
  let live: sqlite3.Database;

  beforeEach(async () => {
    dir = tempDir('backup-archive-');
    const data = new DataDirectory(dir.path);
    data.prepare();
    live = new sqlite3.Database(data.sqliteDatabase);
    // Rows committed to the WAL only (no checkpoint): a plain file copy of db.sqlite would miss them.
    await exec(live, "PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0; CREATE TABLE notes(text TEXT); INSERT INTO notes VALUES ('kept in the wal');");
    writeFileSync(join(data.sessions, 'alice.session'), 'session-bytes');
    mkdirSync(join(data.signerHistory, 'daily'), { recursive: true });
    writeFileSync(join(data.signer, 'daily.json'), '{"name":"daily"}');
    writeFileSync(join(data.signerHistory, 'daily', 'run-1.log'), 'x'.repeat(300_000));
    writeFileSync(data.globalSettingsFile, '{"timezone":"UTC"}');
    writeFileSync(data.aiSettingsFile, '{}');
    writeFileSync(data.telegramApiFile, '{}');
    writeFileSync(join(dir.path, '.discord_api.json'), '{}');
    writeFileSync(data.adminBootstrapPasswordFile, 'secret-password');
    writeFileSync(data.schedulerLockFile, '123');
    writeFileSync(data.jwtSecretFile, 'jwt-secret');
    writeFileSync(join(dir.path, 'unrelated.txt'), 'not data');
  });

  afterEach(async () => {
    await new Promise((resolve) => live.close(resolve));
    dir.remove();
  });

  function service(): BackupArchiveService {
    const config = loadPanelConfig({ APP_DATA_DIR: dir.path, APP_VERSION: '1.2.3' });
    const data = new DataDirectory(dir.path);
    // SQLite keeps the key in the data directory: the database's shared secrets are never asked.
    const noSharedSecrets = Object.create(SharedSecretStore.prototype) as SharedSecretStore;
    return new BackupArchiveService(data, config, new VersionService(config, new HttpReleaseFeed('https://127.0.0.1/', 'test')), new BackupKeyService(config, data, noSharedSecrets));
  }

  it('streams a tar.gz with a consistent database snapshot, sessions, .signer and settings, and no instance secrets', async () => {
    const backups = service();
    const opened = await backups.open(new Date('2024-01-02T03:04:05Z'));
    const file = join(dir.path, '..', `${dir.path.split('/').pop()}-archive.tar.gz`);
    await pipeline(opened.stream, createWriteStream(file));
    const summary = await opened.done;
    expect(summary.files).toBeGreaterThanOrEqual(7);

    const listing = execFileSync('tar', ['-tzf', file], { encoding: 'utf8' }).trim().split('\n');
    expect(listing[0]).toBe('manifest.json');
    expect(listing).toEqual(
      expect.arrayContaining(['db.sqlite', 'db.sqlite-wal', 'db.sqlite-shm', '.global_settings.json', '.openai_config.json', '.telegram_api.json', '.discord_api.json', 'sessions/alice.session', '.signer/daily.json', '.signer/history/daily/run-1.log']),
    );
    for (const forbidden of ['.admin_bootstrap_password', '.scheduler.lock', '.jwt_secret', 'unrelated.txt']) expect(listing).not.toContain(forbidden);
    expect(listing.some((name) => name.startsWith('.backup_tmp'))).toBe(false);

    const out = tempDir('backup-extract-');
    try {
      execFileSync('tar', ['-xzf', file, '-C', out.path]);
      const manifest = JSON.parse(readFileSync(join(out.path, 'manifest.json'), 'utf8'));
      expect(manifest).toMatchObject({ format: 'tg-signpulse-backup', database: 'included', app_version: '1.2.3', created_at: '2024-01-02T03:04:05.000Z' });
      expect(statSync(join(out.path, 'db.sqlite-wal')).size).toBe(0);
      expect(await rows(join(out.path, 'db.sqlite'), 'SELECT text FROM notes')).toEqual([{ text: 'kept in the wal' }]);
      expect(readFileSync(join(out.path, '.signer/history/daily/run-1.log'), 'utf8')).toHaveLength(300_000);
    } finally {
      out.remove();
    }
    // The snapshot work file is gone once the archive is complete.
    expect(readdirSync(backups.workDirectory)).toEqual([]);
  });

  it('makes every entry owner-only (files 0600, folders 0700), the database snapshot included, whatever the umask', async () => {
    // 0644 and 0755 on disk, as a umask of 022 leaves them.
    chmodSync(join(dir.path, 'sessions', 'alice.session'), 0o644);
    chmodSync(join(dir.path, '.signer'), 0o755);
    const opened = await service().open();
    const modes = await entryModes(opened.stream);
    await opened.done;
    expect(modes.get('db.sqlite')).toBe(0o600);
    expect(modes.size).toBeGreaterThanOrEqual(10);
    for (const [name, mode] of modes) expect([name, mode]).toEqual([name, name.endsWith('/') ? 0o700 : 0o600]);
  });

  it('leaves out leftovers of interrupted writes, also ones that appear while it packs', async () => {
    const data = new DataDirectory(dir.path);
    const early = temporaryNameFor(join(data.sessions, 'alice.session'));
    writeFileSync(early, 'half a session');
    writeFileSync(join(data.signer, 'auto-20240101-000000.tar.gz.partial'), 'half an archive');
    const opened = await service().open();
    // Planted while the archive is being built: after the snapshot, before .signer/ is walked.
    const late = temporaryNameFor(join(data.signerHistory, 'daily', 'run-2.json'));
    writeFileSync(late, '{');
    const names = [...(await entryModes(opened.stream)).keys()];
    await opened.done;
    expect(names).toEqual(expect.arrayContaining(['sessions/alice.session', '.signer/daily.json']));
    expect(names.filter((name) => /\.tmp$|\.partial$/.test(name))).toEqual([]);
  });

  it('stops packing and removes the snapshot when the reader goes away in the middle of a file', async () => {
    // Incompressible, so the archive is well past its first megabyte while big.bin is being packed.
    writeFileSync(join(dir.path, 'sessions', 'big.bin'), randomBytes(8 * 1024 * 1024));
    const backups = service();
    const opened = await backups.open();
    let received = 0;
    opened.stream.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > 1024 * 1024 && !opened.stream.destroyed) opened.stream.destroy();
    });
    await expect(opened.done).rejects.toThrow(/closed before the archive was complete/);
    // The snapshot goes once `done` has settled: wait for the state itself (a bounded wait that fails if it never comes).
    const left = () => (existsSync(backups.workDirectory) ? readdirSync(backups.workDirectory) : []);
    await waitFor(() => left().length === 0, 5_000);
    expect(left()).toEqual([]);
  });
});
