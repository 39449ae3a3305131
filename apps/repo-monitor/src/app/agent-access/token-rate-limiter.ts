/** Fixed-window attempt counter per key (client id, client address), kept in memory per instance. */
export class TokenRateLimiter {
  private readonly windows = new Map<string, { startedAt: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Counts an attempt; answers the seconds to wait when the key is over its limit, else 0. */
  hit(key: string, now = Date.now()): number {
    let window = this.windows.get(key);
    if (!window || now - window.startedAt >= this.windowMs) {
      window = { startedAt: now, count: 0 };
      this.windows.set(key, window);
      if (this.windows.size > 10_000) this.prune(now);
    }
    window.count++;
    return window.count > this.limit ? Math.max(1, Math.ceil((window.startedAt + this.windowMs - now) / 1000)) : 0;
  }

  /** The seconds `key` still has to wait, without counting an attempt. */
  wait(key: string, now = Date.now()): number {
    const window = this.windows.get(key);
    if (!window || now - window.startedAt >= this.windowMs || window.count < this.limit) return 0;
    return Math.max(1, Math.ceil((window.startedAt + this.windowMs - now) / 1000));
  }

  private prune(now: number): void {
    for (const [key, window] of this.windows) if (now - window.startedAt >= this.windowMs) this.windows.delete(key);
  }
}
