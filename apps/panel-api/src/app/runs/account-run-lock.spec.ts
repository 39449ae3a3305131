import { AccountRunLock } from './account-run-lock';
import { RunInterrupted } from './failure-category';

describe('AccountRunLock', () => {
  it('lets one run per account hold it, hands it on in arrival order, and tracks the cooldown', async () => {
    const lock = new AccountRunLock();
    const order: string[] = [];
    const first = await lock.acquire('a', new AbortController().signal);
    const second = lock.acquire('a', new AbortController().signal).then((release) => {
      order.push('second');
      return release;
    });
    const third = lock.acquire('a', new AbortController().signal).then((release) => {
      order.push('third');
      return release;
    });
    const other = await lock.acquire('b', new AbortController().signal);
    expect(lock.isBusy('a')).toBe(true);
    first();
    (await second)();
    (await third)();
    other();
    expect(order).toEqual(['second', 'third']);
    expect(lock.isBusy('a')).toBe(false);
    expect(lock.cooldownRemaining('a', 5_000)).toBeGreaterThan(4_000);
    expect(lock.cooldownRemaining('never', 5_000)).toBe(0);
  });

  it('rejects a waiter whose run is cancelled and leaves the queue consistent', async () => {
    const lock = new AccountRunLock();
    const holder = await lock.acquire('a', new AbortController().signal);
    const cancelled = new AbortController();
    const waiting = lock.acquire('a', cancelled.signal);
    const afterIt = lock.acquire('a', new AbortController().signal);
    cancelled.abort(new RunInterrupted('cancelled'));
    await expect(waiting).rejects.toBeInstanceOf(RunInterrupted);
    holder();
    const release = await afterIt;
    release();
    expect(lock.isBusy('a')).toBe(false);
  });
});
