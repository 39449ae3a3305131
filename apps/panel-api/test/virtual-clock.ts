import { GovernorClock } from '../src/app/governor/governor-clock';

/**
 * A clock for the safety governor in tests: `sleep` moves virtual time forward at once, so spacing,
 * caps and FloodWaits are decided as in production without waiting real minutes. `sleeps` records
 * every imposed wait.
 */
export class VirtualClock implements GovernorClock {
  readonly sleeps: number[] = [];
  private offset = 0;

  now(): number {
    return Date.now() + this.offset;
  }

  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw signal.reason;
    this.sleeps.push(ms);
    this.offset += Math.max(0, ms);
  }

  advance(ms: number): void {
    this.offset += ms;
  }
}
