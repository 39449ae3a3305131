import { readdirSync, renameSync } from 'node:fs';
import type { Dirent } from 'node:fs';

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

/**
 * Sets a file or folder of an earlier version aside once it was imported into the database: renames
 * it to `to`. False when it is gone already: replicas sharing one data directory start together, and
 * another replica imported and moved it first (the import is idempotent, so nothing is lost).
 */
export function moveAsideImported(from: string, to: string): boolean {
  try {
    renameSync(from, to);
    return true;
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}

/** The entries of a folder to import, or none when it is gone (another replica moved it aside). */
export function entriesToImport(folder: string): Dirent[] {
  try {
    return readdirSync(folder, { withFileTypes: true });
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
}
