import { Dirent, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** An entry of the data directory that leads out of it (a symbolic link, possibly dangling). */
export class DataDirectoryEscapeError extends Error {
  constructor(
    readonly entry: string,
    readonly target: string,
  ) {
    super(
      `The data directory entry "${entry}" is a symbolic link to ${target}, outside the data directory; panel-api would write through it. ` +
        'Remove the link (or replace it with the folder or file itself) and start again.',
    );
    this.name = 'DataDirectoryEscapeError';
  }
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** Where a link leads: its real path, or for a dangling link the path it names (where a write would create a file). */
function linkTarget(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(dirname(path), readlinkSync(path));
  }
}

/**
 * The first entry under `root` (depth-first, links not followed) that leads outside it, or undefined.
 * A restored archive could otherwise plant `sessions -> /somewhere` and have the service write there.
 * Links that stay inside the data directory are allowed.
 */
export function findEscapingEntry(root: string): { entry: string; target: string } | undefined {
  const realRoot = realpathSync(root);
  const visit = (folder: string): { entry: string; target: string } | undefined => {
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return undefined;
    }
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isSymbolicLink()) {
        const target = linkTarget(path);
        if (!isInside(realRoot, target)) return { entry: relative(root, path).split(sep).join('/'), target };
      } else if (entry.isDirectory()) {
        const found = visit(path);
        if (found) return found;
      }
    }
    return undefined;
  };
  return visit(root);
}

/** Throws DataDirectoryEscapeError, naming the entry, when anything under `root` leads outside it. */
export function assertDataDirectoryContained(root: string): void {
  const escaping = findEscapingEntry(root);
  if (escaping) throw new DataDirectoryEscapeError(escaping.entry, escaping.target);
}
