import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type MinorCollection = () => void;

let minorCollection: MinorCollection | null | undefined;

/**
 * V8's young-generation collection (a scavenge), or null when this V8 does not expose it. The flag
 * is switched on only long enough to take the function out of a fresh context, so `gc` never
 * appears on the service's own global object.
 */
function scavenger(): MinorCollection | null {
  if (minorCollection !== undefined) return minorCollection;
  minorCollection = null;
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('typeof gc === "function" ? gc : undefined') as ((options?: { type: 'minor' | 'major' }) => void) | undefined;
    if (gc) minorCollection = () => gc({ type: 'minor' });
  } catch {
    // Left at null: streams then run exactly as before, only without the early reclaim.
  } finally {
    try {
      setFlagsFromString('--no-expose-gc');
    } catch {
      // ignore
    }
  }
  return minorCollection;
}

/**
 * Bounds the memory a long stream of large chunks leaves behind. Every chunk of a file read, a
 * gzip output or a socket write is a fresh Buffer whose bytes live outside the JavaScript heap; V8
 * frees them only when it collects their small wrapper objects, and a stream that allocates little
 * else gives it no reason to collect for 30 to 60 MB of dead chunks. Calling `note` with every
 * chunk's size runs a young-generation collection (about a millisecond: it only visits live
 * young objects) each `everyBytes`, so dead chunks never add up to much more than that.
 * tools/bench/panel-backup.mjs shows the effect on a 1.2 GB backup.
 */
export class ChunkReclaimer {
  private pending = 0;
  private readonly collect = scavenger();

  constructor(private readonly everyBytes = 1024 * 1024) {}

  note(bytes: number): void {
    if (!this.collect) return;
    this.pending += bytes;
    if (this.pending < this.everyBytes) return;
    this.pending = 0;
    this.collect();
  }

  /** Whether this runtime exposes the collection (false: `note` does nothing). */
  get active(): boolean {
    return this.collect !== null;
  }
}
