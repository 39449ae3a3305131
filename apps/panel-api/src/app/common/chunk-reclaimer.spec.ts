import { constants, performance, PerformanceObserver } from 'node:perf_hooks';
import { ChunkReclaimer } from './chunk-reclaimer';

const MB = 1024 * 1024;

/**
 * Runs `work`, then waits (at most 5 s) until V8 has reported `expected` young-generation
 * collections flagged forced; answers their start times. V8 reports collections in order, so once
 * the last expected one has arrived, any earlier one has too.
 */
async function forcedScavenges(expected: number, work: () => void): Promise<number[]> {
  const starts: number[] = [];
  let allArrived: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (allArrived = resolve));
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const detail = (entry as unknown as { detail: { kind: number; flags: number } }).detail;
      if (detail.kind === constants.NODE_PERFORMANCE_GC_MINOR && detail.flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) starts.push(entry.startTime);
    }
    if (starts.length >= expected) allArrived();
  });
  observer.observe({ entryTypes: ['gc'] });
  work();
  let bound: NodeJS.Timeout | undefined;
  await Promise.race([arrived, new Promise((resolve) => (bound = setTimeout(resolve, 5000)))]);
  clearTimeout(bound);
  observer.disconnect();
  return starts;
}

describe('ChunkReclaimer', () => {
  it('is active on this Node.js without exposing gc on the global object', () => {
    expect(new ChunkReclaimer().active).toBe(true);
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });

  it('asks for one young-generation collection per everyBytes noted, and none before', async () => {
    const reclaimer = new ChunkReclaimer(4 * MB);
    // One byte short of everyBytes asks for nothing: the one collection comes from the byte after.
    let shortNoted = 0;
    const first = await forcedScavenges(1, () => {
      reclaimer.note(4 * MB - 1);
      shortNoted = performance.now();
      reclaimer.note(1);
    });
    expect(first).toHaveLength(1);
    expect(first[0]).toBeGreaterThanOrEqual(shortNoted);

    // 12 MB in 256 KB chunks asks for three; the fourth, from a last 4 MB, is the known end to wait for.
    let chunksNoted = 0;
    const next = await forcedScavenges(4, () => {
      for (let chunk = 0; chunk < 48; chunk += 1) reclaimer.note(256 * 1024);
      chunksNoted = performance.now();
      reclaimer.note(4 * MB);
    });
    expect(next).toHaveLength(4);
    expect(next.filter((start) => start < chunksNoted)).toHaveLength(3);
  });
});
