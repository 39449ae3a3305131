import { ShortCache } from './short-cache';

describe('ShortCache', () => {
  it('shares one load between callers within the time to live, then loads again', async () => {
    let loads = 0;
    let now = 1_000;
    const spy = jest.spyOn(Date, 'now').mockImplementation(() => now);
    try {
      const cache = new ShortCache(async () => ++loads, 2000);
      expect(await Promise.all([cache.get(), cache.get()])).toEqual([1, 1]);
      now += 1500;
      expect(await cache.get()).toBe(1);
      now += 1000;
      expect(await cache.get()).toBe(2);
    } finally {
      spy.mockRestore();
    }
  });

  it('forgets a failed load so the next call tries again', async () => {
    let calls = 0;
    const cache = new ShortCache(async () => {
      calls++;
      if (calls === 1) throw new Error('database busy');
      return 'ok';
    });
    await expect(cache.get()).rejects.toThrow('database busy');
    expect(await cache.get()).toBe('ok');
  });

  it('lets a flow that holds the connection load for itself instead of waiting for a load queued behind it', async () => {
    let holding = false;
    let releaseOutsideLoad: (value: string) => void = () => undefined;
    let loads = 0;
    const cache = new ShortCache(
      () => {
        loads++;
        // The first load (started outside a transaction) cannot finish while the transaction runs.
        return loads === 1 ? new Promise<string>((resolve) => (releaseOutsideLoad = resolve)) : Promise.resolve('fresh');
      },
      2000,
      () => holding,
    );
    const outside = cache.get();
    holding = true;
    // Waiting for `outside` here would deadlock: it needs the connection this flow holds.
    expect(await cache.get()).toBe('fresh');
    holding = false;
    releaseOutsideLoad('shared');
    expect(await outside).toBe('shared');
    expect(await cache.get()).toBe('shared');
  });

  it('shares a settled value with a holding flow', async () => {
    let loads = 0;
    let holding = false;
    const cache = new ShortCache(async () => ++loads, 2000, () => holding);
    expect(await cache.get()).toBe(1);
    holding = true;
    expect(await cache.get()).toBe(1);
    expect(loads).toBe(1);
  });
});
