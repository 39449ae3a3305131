import { Dirent, lstatSync, readdirSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { readJsonObjectFile } from './json-file-store';

/** A temporary file of writeFileAtomic and friends: `.<name>.<pid>.<12 hex>.tmp`, renamed or removed within one call. */
const ATOMIC_WRITE_TEMPORARY = /^\..+\.\d+\.[0-9a-f]{12}\.tmp$/;
/** An archive being written (automatic backups): `<name>.tar.gz.partial`, renamed once complete. */
const PARTIAL_ARCHIVE = /\.tar\.gz\.partial$/;

/** Leftover work files that only an interrupted write leaves behind; never user data, never part of a backup. */
export function isLeftoverFileName(name: string): boolean {
  return ATOMIC_WRITE_TEMPORARY.test(name) || PARTIAL_ARCHIVE.test(name);
}

/** A leftover younger than this may belong to a write another live instance is doing right now. */
export const LEFTOVER_GRACE_MS = 60_000;

export interface LeftoverSweepOptions {
  now?: number;
  /** Whether another live instance shares this data directory (its writes may be in progress). */
  otherInstanceAlive?: boolean;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether `.scheduler.lock` names another instance that is alive: same host and its pid runs, or
 * another host whose heartbeat is fresh. Unreadable or absent lock: no other instance is known.
 */
export function otherInstanceHoldsLock(lockFile: string, now = Date.now()): boolean {
  let lock: Record<string, unknown> | undefined;
  try {
    lock = readJsonObjectFile(lockFile);
  } catch {
    return false;
  }
  if (!lock) return false;
  const pid = typeof lock['pid'] === 'number' ? lock['pid'] : undefined;
  const host = typeof lock['hostname'] === 'string' ? lock['hostname'] : undefined;
  if (host === hostname()) return pid !== undefined && pid !== process.pid && processAlive(pid);
  const heartbeat = typeof lock['heartbeat_at'] === 'string' ? Date.parse(lock['heartbeat_at']) : Number.NaN;
  return Number.isFinite(heartbeat) && now - heartbeat < LEFTOVER_GRACE_MS;
}

/**
 * Removes leftovers of interrupted writes (atomic-write temporaries, `*.tar.gz.partial`) anywhere
 * under `root`. A write of this process never spans an await, so at startup every such file is a
 * crash's leftover, unless another live instance shares the directory: then only files older than
 * LEFTOVER_GRACE_MS go. Symbolic links are not followed. Returns the paths removed.
 */
export function sweepLeftovers(root: string, options: LeftoverSweepOptions = {}): string[] {
  const now = options.now ?? Date.now();
  const removed: string[] = [];
  const visit = (folder: string) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        visit(path);
        continue;
      }
      if (!entry.isFile() || !isLeftoverFileName(entry.name)) continue;
      try {
        if (options.otherInstanceAlive && now - lstatSync(path).mtimeMs < LEFTOVER_GRACE_MS) continue;
        rmSync(path, { force: true });
        removed.push(path);
      } catch {
        /* gone already, or not ours to remove: the next start tries again */
      }
    }
  };
  visit(root);
  return removed;
}
