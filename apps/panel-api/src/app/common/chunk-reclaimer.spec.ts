import { constants, PerformanceObserver } from 'node:perf_hooks';
import { ChunkReclaimer } from './chunk-reclaimer';

const MB = 1024 * 1024;

/** Counts the young-generation collections that were asked for (gc flagged forced), as V8 reports them. */
async function forcedScavengesDuring(work: () => void): Promise<number> {
  let count = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const detail = (entry as unknown as { detail: { kind: number; flags: number } }).detail;
      if (detail.kind === constants.NODE_PERFORMANCE_GC_MINOR && detail.flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) count += 1;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  work();
  // GC entries are delivered on a later turn of the event loop.
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
  return count;
}

describe('ChunkReclaimer', () => {
  it('is active on this Node.js without exposing gc on the global object', () => {
    expect(new ChunkReclaimer().active).toBe(true);
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });

  it('asks for one young-generation collection per everyBytes noted, and none before', async () => {
    const reclaimer = new ChunkReclaimer(4 * MB);
    expect(await forcedScavengesDuring(() => reclaimer.note(4 * MB - 1))).toBe(0);
    expect(await forcedScavengesDuring(() => reclaimer.note(1))).toBe(1);
    expect(
      await forcedScavengesDuring(() => {
        for (let chunk = 0; chunk < 48; chunk += 1) reclaimer.note(256 * 1024);
      }),
    ).toBe(3);
  });
});
