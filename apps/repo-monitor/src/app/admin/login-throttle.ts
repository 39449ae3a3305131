import { Injectable } from '@nestjs/common';

export const LOGIN_FAILURE_LIMIT = 10;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;
// Bounds memory when many addresses fail; the oldest client is forgotten first.
const MAX_TRACKED_CLIENTS = 10_000;

/**
 * Per-client login throttle: after LOGIN_FAILURE_LIMIT failures within the window, further
 * attempts are refused until the oldest failure leaves the window. A success clears the client.
 */
@Injectable()
export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Seconds the client must wait before another attempt, or 0 when it may try now. */
  retryAfterSeconds(client: string): number {
    const recent = this.recentFailures(client);
    if (recent.length < LOGIN_FAILURE_LIMIT) return 0;
    const waitMs = recent[recent.length - LOGIN_FAILURE_LIMIT] + LOGIN_FAILURE_WINDOW_MS - this.now();
    return Math.max(1, Math.ceil(waitMs / 1000));
  }

  recordFailure(client: string): void {
    const recent = this.recentFailures(client);
    recent.push(this.now());
    this.failures.delete(client);
    this.failures.set(client, recent);
    if (this.failures.size > MAX_TRACKED_CLIENTS) {
      const oldest = this.failures.keys().next().value;
      if (oldest !== undefined) this.failures.delete(oldest);
    }
  }

  recordSuccess(client: string): void {
    this.failures.delete(client);
  }

  private recentFailures(client: string): number[] {
    const cutoff = this.now() - LOGIN_FAILURE_WINDOW_MS;
    return (this.failures.get(client) ?? []).filter((at) => at > cutoff);
  }
}
