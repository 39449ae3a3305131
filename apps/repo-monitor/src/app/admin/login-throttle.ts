import { Injectable } from '@nestjs/common';
import { MonitorError } from '../common/monitor-error';

export const LOGIN_FAILURE_LIMIT = 10;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;
// Bounds memory when many addresses fail; the oldest client is forgotten first.
const MAX_TRACKED_CLIENTS = 10_000;

/** One reserved password check; settle it exactly once (later calls do nothing). */
export interface PasswordAttempt {
  /** The password was wrong: counts a failure. */
  failed(): void;
  /** The password was right: throws rate_limited when the client got blocked meanwhile, else clears it. */
  succeeded(): void;
  /** The check ended without a verdict (an error): frees the slot without counting. */
  release(): void;
}

/**
 * Per-client throttle for password checks (sign-in and the current password of a password
 * change): after LOGIN_FAILURE_LIMIT failures within the window, further attempts are refused
 * until the oldest failure leaves the window. A check reserves a slot before the password is
 * verified, so a burst of parallel guesses cannot all be verified before the first failure is
 * recorded: failures plus checks in flight never exceed the limit. A success clears the client.
 */
@Injectable()
export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Seconds the client must wait before another attempt, or 0 when it may try now. */
  retryAfterSeconds(client: string): number {
    const recent = this.recentFailures(client);
    if (recent.length >= LOGIN_FAILURE_LIMIT) {
      const waitMs = recent[recent.length - LOGIN_FAILURE_LIMIT] + LOGIN_FAILURE_WINDOW_MS - this.now();
      return Math.max(1, Math.ceil(waitMs / 1000));
    }
    // Every slot is taken by checks still running: they settle within about a second.
    return recent.length + (this.inFlight.get(client) ?? 0) >= LOGIN_FAILURE_LIMIT ? 1 : 0;
  }

  /** Reserves a password check for the client, or throws rate_limited (with Retry-After) when blocked. */
  begin(client: string): PasswordAttempt {
    const retryAfter = this.retryAfterSeconds(client);
    if (retryAfter > 0) throw rateLimited(retryAfter);
    this.inFlight.set(client, (this.inFlight.get(client) ?? 0) + 1);
    let settled = false;
    const release = (): boolean => {
      if (settled) return false;
      settled = true;
      const left = (this.inFlight.get(client) ?? 1) - 1;
      if (left > 0) this.inFlight.set(client, left);
      else this.inFlight.delete(client);
      return true;
    };
    return {
      failed: () => {
        if (release()) this.recordFailure(client);
      },
      succeeded: () => {
        if (!release()) return;
        const recent = this.recentFailures(client);
        if (recent.length >= LOGIN_FAILURE_LIMIT) throw rateLimited(this.retryAfterSeconds(client));
        this.recordSuccess(client);
      },
      release: () => {
        release();
      },
    };
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

function rateLimited(retryAfterSeconds: number): MonitorError {
  return new MonitorError('rate_limited', 'too many failed password attempts; try again later', { retry_after_seconds: retryAfterSeconds }, {
    'Retry-After': String(retryAfterSeconds),
  });
}
