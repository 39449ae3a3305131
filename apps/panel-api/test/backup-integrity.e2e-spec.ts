import { requestJson, tempDir } from '@shared/testing';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gunzipSync, gzipSync } from 'node:zlib';
import { extract, pack } from 'tar-stream';
import { restoreBackupArchive } from '../src/app/backups/restore-archive';
import { readBackupKey } from '../src/app/backups/backup-key';
import { DataDirectory } from '../src/app/data-dir/data-directory';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';

interface TarEntry {
  name: string;
  type: 'file' | 'directory' | 'symlink';
  content?: Buffer;
  linkname?: string;
}

async function readTar(archive: Buffer): Promise<TarEntry[]> {
  const reader = extract();
  Readable.from([gunzipSync(archive)]).pipe(reader);
  const entries: TarEntry[] = [];
  for await (const entry of reader) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    entries.push({ name: entry.header.name, type: entry.header.type as TarEntry['type'], content: Buffer.concat(chunks), linkname: entry.header.linkname ?? undefined });
  }
  return entries;
}

async function writeTar(entries: TarEntry[]): Promise<Buffer> {
  const writer = pack();
  const chunks: Buffer[] = [];
  writer.on('data', (chunk: unknown) => chunks.push(chunk as Buffer));
  const ended = new Promise<void>((resolve) => writer.on('end', () => resolve()));
  for (const entry of entries) {
    if (entry.type === 'file') writer.entry({ name: entry.name, type: 'file', mode: 0o600 }, entry.content ?? Buffer.alloc(0));
    else if (entry.type === 'symlink') writer.entry({ name: entry.name, type: 'symlink', linkname: entry.linkname });
    else writer.entry({ name: entry.name, type: 'directory', mode: 0o700 });
  }
  writer.finalize();
  await ended;
  return gzipSync(Buffer.concat(chunks));
}

/** Backups carry a keyed integrity check; the offline restore verifies it and refuses links and unsafe names; the service refuses a data directory that links outside. */
describe('backup integrity and the checked restore', () => {
  let panel: (RunningPanel & { databaseUrl?: string }) | undefined;
  const work = tempDir('restore-check-');
  let archive: Buffer;
  let key: string;

  beforeAll(async () => {
    panel = await startPanel();
    const token = await loginAsAdmin(panel);
    expect((await requestJson(panel.url, '/api/config/settings', { method: 'PUT', token, body: { timezone: 'Europe/Berlin' } })).status).toBe(200);
    writeFileSync(join(panel.dataDir, 'sessions', 'alice.session'), 'alice-session');
    const response = await fetch(`${panel.url}/api/ops/backup/export`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    archive = Buffer.from(await response.arrayBuffer());
    key = readBackupKey(new DataDirectory(panel.dataDir).backupKeyFile);
  });

  afterAll(async () => {
    await panel?.close();
    work.remove();
  });

  /** A fresh, empty data directory holding only the backup key. */
  function freshTarget(name: string): string {
    const target = join(work.path, name);
    mkdirSync(target, { mode: 0o700 });
    copyFileSync(new DataDirectory((panel as RunningPanel).dataDir).backupKeyFile, join(target, '.backup_key'));
    return target;
  }

  async function restoreInto(target: string, content: Buffer): Promise<unknown> {
    const file = join(work.path, `${Math.random().toString(36).slice(2)}.tar.gz`);
    writeFileSync(file, content);
    return restoreBackupArchive(file, target, { key, keep: new DataDirectory(target).excludedFromBackup }).then(
      () => undefined,
      (error: unknown) => error,
    );
  }

  it('ends every backup with backup-integrity.json (SHA-256 of each entry and an HMAC), and restores an untouched one', async () => {
    const entries = await readTar(archive);
    const last = entries[entries.length - 1];
    expect(last.name).toBe('backup-integrity.json');
    const integrity = JSON.parse((last.content as Buffer).toString('utf8')) as { algorithm: string; entries: Array<{ name: string }>; mac: string };
    expect(integrity.algorithm).toBe('HMAC-SHA256');
    expect(integrity.mac).toMatch(/^[0-9a-f]{64}$/);
    expect(integrity.entries.map((entry) => entry.name)).toEqual(entries.slice(0, -1).map((entry) => entry.name));
    expect(entries.map((entry) => entry.name)).not.toContain('.backup_key');

    const target = freshTarget('good');
    expect(await restoreInto(target, archive)).toBeUndefined();
    expect(readFileSync(join(target, 'sessions', 'alice.session'), 'utf8')).toBe('alice-session');
    // The settings are rows of the database: on SQLite they come back with its snapshot (backup-restore.e2e-spec.ts starts on one).
    if (panel?.config.database.driver === 'sqlite') expect(existsSync(join(target, 'db.sqlite'))).toBe(true);
  });

  it('refuses a tampered archive, and one checked under another key, writing nothing', async () => {
    const entries = await readTar(archive);
    const session = entries.find((entry) => entry.name === 'sessions/alice.session') as TarEntry;
    session.content = Buffer.from('attacker-session');
    const target = freshTarget('tampered');
    const refused = await restoreInto(target, await writeTar(entries));
    expect(String(refused)).toMatch(/Restore refused, nothing was written: the archive does not match its integrity check/);
    expect(readdirSync(target)).toEqual(['.backup_key']);

    const otherKey = freshTarget('other-key');
    writeFileSync(join(otherKey, '.backup_key'), 'x'.repeat(64));
    const file = join(work.path, 'other-key.tar.gz');
    writeFileSync(file, archive);
    const error = await restoreBackupArchive(file, otherKey, { key: 'x'.repeat(64), keep: ['.backup_key'] }).catch((failure: unknown) => failure);
    expect(String(error)).toMatch(/does not match its integrity check/);
    expect(readdirSync(otherKey)).toEqual(['.backup_key']);

    const withoutCheck = (await readTar(archive)).slice(0, -1);
    expect(String(await restoreInto(freshTarget('no-check'), await writeTar(withoutCheck)))).toMatch(/has no backup-integrity\.json/);
  });

  it('refuses links, absolute names and .. names, naming the entry, before anything is written', async () => {
    const outside = join(work.path, 'outside');
    mkdirSync(outside);
    const cases: Array<[TarEntry[], RegExp]> = [
      [[{ name: 'sessions', type: 'symlink', linkname: outside }], /entry "sessions" is a symbolic link to .*outside/],
      [[{ name: '../escape.txt', type: 'file', content: Buffer.from('x') }], /entry "\.\.\/escape\.txt" has a "\.\." name/],
      [[{ name: 'sessions/../../escape.txt', type: 'file', content: Buffer.from('x') }], /has a "\.\." name/],
      [[{ name: `${outside}/abs.txt`, type: 'file', content: Buffer.from('x') }], /has an absolute name/],
    ];
    for (const [entries, message] of cases) {
      const target = freshTarget(`unsafe-${Math.random().toString(36).slice(2)}`);
      expect(String(await restoreInto(target, await writeTar(entries)))).toMatch(message);
      expect(readdirSync(target)).toEqual(['.backup_key']);
    }
    expect(readdirSync(outside)).toEqual([]);
    expect(existsSync(join(work.path, 'escape.txt'))).toBe(false);
  });

  it('refuses to restore into a data directory that is not empty', async () => {
    const target = freshTarget('busy');
    writeFileSync(join(target, '.global_settings.json'), '{}');
    expect(String(await restoreInto(target, archive))).toMatch(/is not empty \(\.global_settings\.json\): move its contents aside first/);
  });

  it('refuses to start when a data directory entry links outside it, naming the entry', async () => {
    const running = panel as RunningPanel & { databaseUrl?: string };
    await running.stop();
    const outside = join(work.path, 'planted');
    mkdirSync(outside);
    const sessions = join(running.dataDir, 'sessions');
    const aside = join(work.path, 'sessions-aside');
    renameSync(sessions, aside);
    symlinkSync(outside, sessions);
    try {
      await expect(startPanel({ reuse: { dataDir: running.dataDir, databaseUrl: running.databaseUrl } })).rejects.toThrow(
        /data directory entry "sessions" is a symbolic link to .*planted, outside the data directory/,
      );
      expect(readdirSync(outside)).toEqual([]);
    } finally {
      rmSync(sessions);
      renameSync(aside, sessions);
    }
    // A link that stays inside the data directory is fine.
    symlinkSync(join(running.dataDir, 'sessions'), join(running.dataDir, 'sessions-link'));
    panel = await startPanel({ reuse: { dataDir: running.dataDir, databaseUrl: running.databaseUrl } });
    expect((await requestJson(panel.url, '/readyz')).status).toBe(200);
  });
});
