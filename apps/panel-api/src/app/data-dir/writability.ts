import { closeSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { temporaryNameFor } from './json-file-store';

export interface Writability {
  writable: boolean;
  /** The error code of the failed probe (EROFS, EACCES, ENOSPC …); never a path. */
  error: string | null;
  checked_at: string;
}

/** How long one probe result stands: /readyz is public and may be polled often. */
const PROBE_TTL_MS = 2_000;

/**
 * Whether the data directory takes writes right now: creates, writes and removes a small file in
 * it (named like an atomic-write temporary, so a crash in between leaves nothing a start does not
 * sweep). A file system remounted read-only, lost permissions or a full disk all show here.
 */
export class DataDirectoryWritability {
  private last?: { at: number; result: Writability };

  constructor(
    private readonly root: string,
    private readonly clock: () => number = Date.now,
  ) {}

  check(): Writability {
    const now = this.clock();
    if (this.last && now - this.last.at < PROBE_TTL_MS) return this.last.result;
    const result: Writability = {
      writable: true,
      error: null,
      checked_at: new Date(now).toISOString(),
    };
    const probe = temporaryNameFor(join(this.root, '.write_probe'));
    try {
      const fd = openSync(probe, 'wx', 0o600);
      try {
        writeSync(fd, 'ok');
      } finally {
        closeSync(fd);
        unlinkSync(probe);
      }
    } catch (error) {
      result.writable = false;
      result.error = (error as NodeJS.ErrnoException).code ?? 'UNKNOWN';
    }
    this.last = { at: now, result };
    return result;
  }
}
