import { closeSync, fsyncSync, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

/** Owner read/write only: settings files and secrets in the data directory are never group- or world-readable. */
export const PRIVATE_FILE_MODE = 0o600;

/** A file in the data directory exists but cannot be used; it is reported and left exactly as it is. */
export class CorruptDataFileError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`Data file ${path} is corrupt: ${reason}. It was left untouched; fix or remove it, then start again.`);
    this.name = 'CorruptDataFileError';
  }
}

/** The name writeFileAtomic writes `path` to first (see isLeftoverFileName, which must recognise it). */
export function temporaryNameFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}

function writeTemporaryFile(path: string, data: string | Buffer, mode: number): string {
  const temporary = temporaryNameFor(path);
  const fd = openSync(temporary, 'wx', mode);
  try {
    writeSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return temporary;
}

function syncDirectory(path: string): void {
  // Makes the rename itself durable; some file systems refuse fsync on a directory, which is harmless.
  try {
    const fd = openSync(dirname(path), 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    /* best effort */
  }
}

/** Writes `data` to a temporary file in the same folder, then renames it over `path`: readers see the old or the new file, never half of one. */
export function writeFileAtomic(path: string, data: string | Buffer, mode = PRIVATE_FILE_MODE): void {
  const temporary = writeTemporaryFile(path, data, mode);
  try {
    renameSync(temporary, path);
  } catch (error) {
    unlinkSync(temporary);
    throw error;
  }
  syncDirectory(path);
}

export interface FileReplacement {
  path: string;
  data: string | Buffer;
}

/**
 * Replaces several files as one change: every temporary file is written first, then all are
 * renamed. A failure while writing removes the temporaries and leaves every file as it was; a
 * failure while renaming puts the files already replaced back to their previous contents.
 */
export function replaceFilesAtomically(
  files: FileReplacement[],
  options: { mode?: number; rename?: (from: string, to: string) => void } = {},
): void {
  const mode = options.mode ?? PRIVATE_FILE_MODE;
  // Injectable so a test can make one rename fail; the file system rarely does on demand.
  const rename = options.rename ?? renameSync;
  const previous = files.map((file) => readFileOrUndefined(file.path));
  const temporaries: string[] = [];
  try {
    for (const file of files) temporaries.push(writeTemporaryFile(file.path, file.data, mode));
  } catch (error) {
    temporaries.forEach((temporary) => unlinkSync(temporary));
    throw error;
  }
  let renamed = 0;
  try {
    for (; renamed < files.length; renamed += 1) rename(temporaries[renamed], files[renamed].path);
  } catch (error) {
    temporaries.slice(renamed).forEach((temporary) => unlinkSync(temporary));
    for (let index = 0; index < renamed; index += 1) {
      const before = previous[index];
      if (before === undefined) unlinkSync(files[index].path);
      else writeFileAtomic(files[index].path, before, mode);
    }
    throw error;
  }
  const folders = new Map(files.map((file) => [dirname(file.path), file.path]));
  folders.forEach((path) => syncDirectory(path));
}

function readFileOrUndefined(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Creates `path` with `data` only if it does not exist yet, atomically (a hard link of a complete
 * temporary file). Returns false when the file was already there, e.g. written by another instance.
 */
export function createFileExclusive(path: string, data: string | Buffer, mode = PRIVATE_FILE_MODE): boolean {
  const temporary = writeTemporaryFile(path, data, mode);
  try {
    linkSync(temporary, path);
    syncDirectory(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkSync(temporary);
  }
}

/** The text a JSON data file is stored as. */
export function jsonFileText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

export function writeJsonFileAtomic(path: string, value: unknown): void {
  writeFileAtomic(path, jsonFileText(value));
}

/** The text of `path`, or undefined when it does not exist. */
export function readTextFile(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The JSON object stored in `path`, or undefined when the file does not exist; anything but a JSON object is corrupt. */
export function readJsonObjectFile(path: string): Record<string, unknown> | undefined {
  const text = readTextFile(path);
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CorruptDataFileError(path, `not valid JSON (${(error as Error).message})`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new CorruptDataFileError(path, 'expected a JSON object');
  }
  return parsed as Record<string, unknown>;
}
