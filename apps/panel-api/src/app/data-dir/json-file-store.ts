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

function temporaryNameFor(path: string): string {
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

export function writeJsonFileAtomic(path: string, value: unknown): void {
  writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
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
