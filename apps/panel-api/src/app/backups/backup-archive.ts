import { createHash, createHmac } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, Dirent, Stats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { pack, Pack } from 'tar-stream';
import { ChunkReclaimer } from '../common/chunk-reclaimer';
import { isLeftoverFileName } from '../data-dir/leftovers';

/** Written first into every archive, so a reader knows what it holds before extracting. */
export interface BackupManifest {
  format: 'tg-signpulse-backup';
  version: 1;
  created_at: string;
  app_version: string;
  /** `included`: db.sqlite is a consistent snapshot; `not-included-postgres`: dump PostgreSQL separately. */
  database: 'included' | 'not-included-postgres';
  contents: string[];
  excluded: string[];
  restore: string;
}

/** One file or folder of the data directory that goes into the archive under `name`. */
export interface ArchiveSource {
  /** Path inside the archive, POSIX separators, relative to the data directory. */
  name: string;
  path: string;
  kind: 'file' | 'directory';
}

export interface BackupArchiveInput {
  manifest: BackupManifest;
  /** The consistent SQLite snapshot written under the name `db.sqlite`; absent on PostgreSQL. */
  sqliteSnapshotPath?: string;
  sources: ArchiveSource[];
  /** Key of the integrity check (HMAC-SHA256) written as the archive's last entry. */
  integrityKey: string;
}

/** The last entry of every archive: each entry before it with its SHA-256, and an HMAC over that list. */
export const INTEGRITY_ENTRY = 'backup-integrity.json';

export interface ArchivedEntry {
  name: string;
  type: 'file' | 'directory';
  size: number;
  sha256: string;
}

export interface BackupIntegrity {
  format: 'tg-signpulse-backup-integrity';
  version: 1;
  algorithm: 'HMAC-SHA256';
  entries: ArchivedEntry[];
  /** HMAC-SHA256 (hex) of integrityPayload(entries) under the data directory's `.backup_key`. */
  mac: string;
}

/** What the MAC covers: the entries in archive order, as canonical JSON. */
export function integrityPayload(entries: ArchivedEntry[]): string {
  return JSON.stringify(entries.map(({ name, type, size, sha256 }) => [name, type, size, sha256]));
}

export function integrityMac(key: string, entries: ArchivedEntry[]): string {
  return createHmac('sha256', key).update(integrityPayload(entries)).digest('hex');
}

export interface BackupArchiveSummary {
  files: number;
  uncompressedBytes: number;
}

export interface BackupArchive {
  /** The gzip-compressed tar stream; read it (pipe it) or nothing happens. */
  stream: Readable;
  /** Settles when every entry has been packed; rejects (and the stream errors) on the first failure. */
  done: Promise<BackupArchiveSummary>;
}

/** Names of the SQLite side files that every archive with a database carries empty. */
export const SQLITE_DATABASE_ENTRY = 'db.sqlite';
export const SQLITE_SIDE_FILE_ENTRIES = ['db.sqlite-wal', 'db.sqlite-shm'] as const;

const GZIP_LEVEL = 6;

/** Shared by every step of one archive: the pack, and a signal raised when the reader went away. */
interface PackContext {
  archive: Pack;
  aborted: Promise<never>;
  summary: BackupArchiveSummary;
  /** Frees the read and gzip chunks already passed on, after every MB read (see ChunkReclaimer). */
  reclaimer: ChunkReclaimer;
  /** Every entry written so far, with the SHA-256 of its content. */
  written: ArchivedEntry[];
}

async function writeEntry(context: PackContext, header: Parameters<Pack['entry']>[0], content: Readable | undefined): Promise<void> {
  const { archive, aborted } = context;
  let settle!: (error?: Error | null) => void;
  const finished = new Promise<void>((resolve, reject) => {
    settle = (error) => (error ? reject(error) : resolve());
  });
  // Awaited below only when the content was written; when the reader went away first, the entry
  // fails later with nobody waiting, and an unobserved rejection would stop the service.
  finished.catch(() => undefined);
  const sink = archive.entry(header, (error) => settle(error));
  const hash = createHash('sha256');
  if (content) {
    for await (const chunk of content) {
      hash.update(chunk as Buffer);
      if (!sink.write(chunk as Buffer)) await Promise.race([once(sink as unknown as NodeJS.EventEmitter, 'drain'), aborted]);
    }
  }
  context.written.push({ name: header.name, type: header.type === 'directory' ? 'directory' : 'file', size: header.size ?? 0, sha256: hash.digest('hex') });
  // streamx types demand an argument that its implementation treats as optional.
  (sink as unknown as { end: () => void }).end();
  await Promise.race([finished, aborted]);
}

/**
 * Every entry is owner-only whatever the mode on disk (a umask of 022 leaves 0644 files behind):
 * the archive holds sessions and the database, and `tar -x` restores these modes.
 */
export const ARCHIVE_FILE_MODE = 0o600;
export const ARCHIVE_DIRECTORY_MODE = 0o700;

function fileHeader(name: string, stats: Stats, size: number): Parameters<Pack['entry']>[0] {
  return { name, type: 'file', size, mode: ARCHIVE_FILE_MODE, mtime: stats.mtime, uid: stats.uid, gid: stats.gid };
}

/**
 * Streams one regular file, exactly the size it had when it was stat'ed: a file that grows while it
 * is read is cut at that size (the tar header already promised it), one that shrinks fails loudly.
 */
async function packFile(context: PackContext, name: string, path: string, stats: Stats): Promise<number> {
  const size = stats.size;
  const content = size > 0 ? createReadStream(path, { start: 0, end: size - 1, highWaterMark: 256 * 1024 }) : undefined;
  let read = 0;
  let ended = false;
  const counted = content?.pipe(
    new PassThrough({
      transform(chunk: Buffer, _encoding, callback) {
        read += chunk.length;
        context.reclaimer.note(chunk.length);
        callback(null, chunk);
      },
      flush(callback) {
        ended = true;
        callback();
      },
    }),
  );
  try {
    await writeEntry(context, fileHeader(name, stats, size), counted);
  } catch (error) {
    if (ended && read < size) throw new Error(`${name} shrank from ${size} to ${read} bytes while it was archived`);
    throw error;
  }
  if (counted && read < size) throw new Error(`${name} shrank from ${size} to ${read} bytes while it was archived`);
  return size;
}

/**
 * Walks a folder depth-first in name order; symbolic links, special files and leftovers of
 * interrupted writes (see isLeftoverFileName) are left out on purpose.
 */
async function packDirectory(context: PackContext, name: string, path: string): Promise<void> {
  let stats: Stats;
  try {
    stats = await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (!stats.isDirectory()) return;
  await writeEntry(context, { name: `${name}/`, type: 'directory', mode: ARCHIVE_DIRECTORY_MODE, mtime: stats.mtime, uid: stats.uid, gid: stats.gid }, undefined);
  let entries: Dirent[];
  try {
    entries = await readdir(path, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const childName = `${name}/${entry.name}`;
    const childPath = join(path, entry.name);
    if (isLeftoverFileName(entry.name)) continue;
    if (entry.isDirectory()) {
      await packDirectory(context, childName, childPath);
    } else if (entry.isFile()) {
      await packExistingFile(context, childName, childPath);
    }
  }
}

async function packExistingFile(context: PackContext, name: string, path: string): Promise<void> {
  let stats: Stats;
  try {
    stats = await lstat(path);
  } catch (error) {
    // A file removed between listing and reading (a finished run's temp file) is simply not part of this backup.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (!stats.isFile()) return;
  context.summary.uncompressedBytes += await packFile(context, name, path, stats);
  context.summary.files += 1;
}

async function packAll(context: PackContext, input: BackupArchiveInput): Promise<BackupArchiveSummary> {
  const now = new Date(input.manifest.created_at);
  const manifest = Buffer.from(`${JSON.stringify(input.manifest, null, 2)}\n`, 'utf8');
  await writeEntry(context, { name: 'manifest.json', type: 'file', size: manifest.length, mode: ARCHIVE_FILE_MODE, mtime: now }, Readable.from([manifest]));
  if (input.sqliteSnapshotPath) {
    await packExistingFile(context, SQLITE_DATABASE_ENTRY, input.sqliteSnapshotPath);
    // The snapshot is self-contained. Empty side files overwrite any -wal/-shm left in the data
    // directory on extraction; SQLite would otherwise replay that old log onto the restored database.
    for (const name of SQLITE_SIDE_FILE_ENTRIES) {
      await writeEntry(context, { name, type: 'file', size: 0, mode: ARCHIVE_FILE_MODE, mtime: now }, undefined);
    }
  }
  for (const source of input.sources) {
    if (source.kind === 'directory') await packDirectory(context, source.name, source.path);
    else await packExistingFile(context, source.name, source.path);
  }
  const integrity: BackupIntegrity = {
    format: 'tg-signpulse-backup-integrity',
    version: 1,
    algorithm: 'HMAC-SHA256',
    entries: context.written,
    mac: integrityMac(input.integrityKey, context.written),
  };
  const integrityText = Buffer.from(`${JSON.stringify(integrity)}\n`, 'utf8');
  await writeEntry(context, { name: INTEGRITY_ENTRY, type: 'file', size: integrityText.length, mode: ARCHIVE_FILE_MODE, mtime: now }, Readable.from([integrityText]));
  context.archive.finalize();
  return context.summary;
}

/**
 * A tar.gz of the backup, produced while it is read: memory use stays at a few stream buffers
 * whatever the size of the data directory. When the reader goes away early (a client aborts the
 * download), packing stops and `done` rejects.
 */
export function createBackupArchive(input: BackupArchiveInput): BackupArchive {
  const archive = pack();
  const gzip = createGzip({ level: GZIP_LEVEL });
  let abortReason: Error | undefined;
  let rejectAborted!: (error: Error) => void;
  const aborted = new Promise<never>((_resolve, reject) => {
    rejectAborted = reject;
  });
  const abort = (error: Error) => {
    abortReason ??= error;
    rejectAborted(error);
  };
  aborted.catch(() => undefined);
  let complete = false;
  archive.pipe(gzip);
  archive.on('error', (error: Error) => gzip.destroy(error));
  gzip.on('close', () => {
    if (!complete) abort(new Error('the archive stream was closed before the archive was complete'));
  });
  const context: PackContext = { archive, aborted, summary: { files: 0, uncompressedBytes: 0 }, reclaimer: new ChunkReclaimer(), written: [] };
  const done = packAll(context, input).then(
    (summary) => {
      complete = true;
      return summary;
    },
    (error: unknown) => {
      // Once the reader has gone, later failures (a destroyed pack) are consequences, not the cause.
      const failure = abortReason ?? (error instanceof Error ? error : new Error(String(error)));
      abort(failure);
      archive.destroy(failure);
      gzip.destroy(failure);
      throw failure;
    },
  );
  // The caller observes failures through the stream; this keeps an unread rejection from crashing the process.
  done.catch(() => undefined);
  return { stream: gzip, done };
}
