import { MemoryMonitor } from './memory-monitor.service';
import { RuntimeStatusRegistry } from './runtime-status.registry';

/** Waits (bounded) until `done()` holds. */
async function until(done: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('MemoryMonitor', () => {
  afterEach(() => jest.restoreAllMocks());

  it('keeps sampling through EMFILE from process.memoryUsage instead of ending the process', async () => {
    const monitor = new MemoryMonitor(new RuntimeStatusRegistry());
    const real = process.memoryUsage.bind(process);
    let calls = 0;
    let failing = true;
    // What the process saw at its file-descriptor limit: reading /proc/self fails.
    jest.spyOn(process, 'memoryUsage').mockImplementation((() => {
      calls += 1;
      if (failing) throw Object.assign(new Error('EMFILE: too many open files, uv_resident_set_memory'), { code: 'EMFILE' });
      return real();
    }) as typeof process.memoryUsage);
    try {
      monitor.start(15);
      await until(() => calls >= 4);
      expect(monitor.isRunning()).toBe(true);
      expect((monitor as unknown as { samples: unknown[] }).samples).toHaveLength(0);
      failing = false;
      await until(() => (monitor as unknown as { samples: unknown[] }).samples.length >= 2);
    } finally {
      monitor.stop();
    }
  });

  it('answers undefined for a failed sample and the sample once reading works', () => {
    const monitor = new MemoryMonitor(new RuntimeStatusRegistry());
    expect(
      monitor.sample(() => {
        throw new Error('EMFILE');
      }),
    ).toBeUndefined();
    expect(monitor.sample()?.rss_bytes).toBeGreaterThan(0);
  });
});
