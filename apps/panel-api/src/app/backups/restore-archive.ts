import { constantTimeEqual } from '@shared/crypto';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { createGunzip } from 'node:zlib';
import { extract, Header } from 'tar-stream';
import { temporaryNameFor } from '../data-dir/json-file-store';
import { ArchivedEntry, ARCHIVE_DIRECTORY_MODE, ARCHIVE_FILE_MODE, BackupIntegrity, INTEGRITY_ENTRY, integrityMac } from './backup-archive';

/** A backup archive that must not be restored; nothing was written. */
export class RestoreRefusedError extends Error {
  constructor(message: string) {
    super(`Restore refused, nothing was written: ${message}`);
    this.name = 'RestoreRefusedError';
  }
}

// An archive of this panel never holds more; anything beyond is not one of ours.
const MAX_ENTRIES = 1_000_000;
const MAX_INTEGRITY_BYTES = 256 * 1024 * 1024;

/**
 * Why an archive entry's name may not be extracted, or undefined when it may: names are relative
 * POSIX paths of plain segments — no absolute or drive names, no `..` or `.` segment, no backslash
 * or control character — so nothing lands outside the data directory.
 */
export function unsafeEntryName(name: string): string | undefined {
  const trimmed = name.endsWith('/') ? name.slice(0, -1) : name;
  if (!trimmed) return 'an empty name';
  if (trimmed.startsWith('/') || /^[A-Za-z]:/.test(trimmed)) return 'an absolute name';
  if (trimmed.includes('\\')) return 'a backslash in the name';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) return 'a control character in the name';
  for (const segment of trimmed.split('/')) {
    if (segment === '..') return 'a ".." name';
    if (segment === '' || segment === '.') return 'an empty or "." segment in the name';
  }
  return undefined;
}

interface ReadEntry {
  header: Header;
  sha256: string;
  size: number;
}

/** Reads every entry of the archive once: checks names and types, hashes the content, hands file content to `sink`. */
async function readArchive(archivePath: string, sink?: (header: Header, content: AsyncIterable<unknown>) => Promise<string>): Promise<{ entries: ReadEntry[]; integrityText?: string }> {
  const reader = extract();
  const source = createReadStream(archivePath).pipe(createGunzip());
  source.on('error', (error) => reader.destroy(error));
  source.pipe(reader);
  const entries: ReadEntry[] = [];
  let integrityText: string | undefined;
  for await (const entry of reader) {
    const header = entry.header;
    if (integrityText !== undefined) throw new RestoreRefusedError(`entry "${header.name}" comes after ${INTEGRITY_ENTRY}, which must be the last one`);
    if (entries.length >= MAX_ENTRIES) throw new RestoreRefusedError(`the archive has more than ${MAX_ENTRIES} entries`);
    const problem = unsafeEntryName(header.name);
    if (problem) throw new RestoreRefusedError(`entry "${header.name}" has ${problem}`);
    if (header.type !== 'file' && header.type !== 'directory') {
      const what = header.type === 'symlink' || header.type === 'link' ? `a ${header.type === 'symlink' ? 'symbolic' : 'hard'} link${header.linkname ? ` to ${header.linkname}` : ''}` : `of type ${header.type}`;
      throw new RestoreRefusedError(`entry "${header.name}" is ${what}; a backup of this panel holds only files and folders`);
    }
    if (header.name === INTEGRITY_ENTRY) {
      if ((header.size ?? 0) > MAX_INTEGRITY_BYTES) throw new RestoreRefusedError(`${INTEGRITY_ENTRY} is too large`);
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      integrityText = Buffer.concat(chunks).toString('utf8');
      continue;
    }
    let sha256: string;
    if (header.type === 'file' && sink) sha256 = await sink(header, entry);
    else {
      const hash = createHash('sha256');
      for await (const chunk of entry) hash.update(chunk as Buffer);
      sha256 = hash.digest('hex');
    }
    entries.push({ header, sha256, size: header.size ?? 0 });
  }
  return { entries, integrityText };
}

function checkIntegrity(entries: ReadEntry[], integrityText: string | undefined, key: string): void {
  if (integrityText === undefined) throw new RestoreRefusedError(`the archive has no ${INTEGRITY_ENTRY} (it was made by an older version, or cut short)`);
  let integrity: Partial<BackupIntegrity>;
  try {
    integrity = JSON.parse(integrityText) as Partial<BackupIntegrity>;
  } catch {
    throw new RestoreRefusedError(`${INTEGRITY_ENTRY} is not valid JSON`);
  }
  if (integrity.format !== 'tg-signpulse-backup-integrity' || integrity.version !== 1 || !Array.isArray(integrity.entries) || typeof integrity.mac !== 'string') {
    throw new RestoreRefusedError(`${INTEGRITY_ENTRY} is not an integrity record of this panel`);
  }
  const actual: ArchivedEntry[] = entries.map(({ header, sha256, size }) => ({ name: header.name, type: header.type === 'directory' ? 'directory' : 'file', size, sha256 }));
  if (!constantTimeEqual(integrity.mac, integrityMac(key, actual))) {
    throw new RestoreRefusedError(
      'the archive does not match its integrity check under this data directory\'s .backup_key: it was changed after the backup, or made by an instance with another key (copy that instance\'s .backup_key)',
    );
  }
}

async function writeVerifiedFile(target: string, content: AsyncIterable<unknown>): Promise<{ temporary: string; sha256: string }> {
  const temporary = temporaryNameFor(target);
  const hash = createHash('sha256');
  const handle = await open(temporary, 'wx', ARCHIVE_FILE_MODE);
  try {
    for await (const chunk of content) {
      hash.update(chunk as Buffer);
      await handle.write(chunk as Buffer);
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
  return { temporary, sha256: hash.digest('hex') };
}

/**
 * The offline restore (`node main.js restore <archive>`): checks the whole archive first — every
 * entry a file or folder with a safe relative name, and the HMAC of its integrity record under
 * `key` — and only then extracts it into `dataDir`, which must hold nothing but files a backup
 * leaves out (`keep`, e.g. .backup_key). A second read writes each file under a temporary name and
 * renames it only when its content still matches what was checked.
 */
export async function restoreBackupArchive(archivePath: string, dataDir: string, options: { key: string; keep: string[] }): Promise<{ files: number }> {
  if (!existsSync(dataDir)) mkdirSync(dataDir, { recursive: true, mode: ARCHIVE_DIRECTORY_MODE });
  const keep = new Set(options.keep.map((path) => basename(path)));
  const present = readdirSync(dataDir).filter((name) => !keep.has(name));
  if (present.length > 0) {
    throw new RestoreRefusedError(`the data directory ${dataDir} is not empty (${present.slice(0, 5).join(', ')}${present.length > 5 ? ', …' : ''}): move its contents aside first`);
  }
  const checked = await readArchive(archivePath);
  checkIntegrity(checked.entries, checked.integrityText, options.key);
  const expected = new Map(checked.entries.map((entry) => [entry.header.name, entry.sha256]));

  const written: Array<{ temporary: string; target: string }> = [];
  try {
    await readArchive(archivePath, async (header, content) => {
      const target = join(dataDir, ...header.name.split('/'));
      mkdirSync(dirname(target), { recursive: true, mode: ARCHIVE_DIRECTORY_MODE });
      const { temporary, sha256 } = await writeVerifiedFile(target, content);
      written.push({ temporary, target });
      if (expected.get(header.name) !== sha256) throw new RestoreRefusedError(`entry "${header.name}" changed between the check and the extraction`);
      return sha256;
    });
    for (const entry of checked.entries) {
      if (entry.header.type === 'directory') mkdirSync(join(dataDir, ...entry.header.name.split('/')), { recursive: true, mode: ARCHIVE_DIRECTORY_MODE });
    }
    // Every file is complete and checked: move them into place.
    for (const { temporary, target } of written) renameSync(temporary, target);
  } catch (error) {
    for (const { temporary } of written) rmSync(temporary, { force: true });
    throw error;
  }
  return { files: checked.entries.filter((entry) => entry.header.type === 'file').length };
}
