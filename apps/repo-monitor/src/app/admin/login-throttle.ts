import { Injectable } from '@nestjs/common';
import { ACCOUNT_PASSWORD_DELAY, accountGuessDelayMs, addressGroup } from '@shared/http-service';
import { MonitorError } from '../common/monitor-error';

export const LOGIN_FAILURE_LIMIT = 10;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;
/** Failures of the account (from anywhere) before each further guess at it must wait (the policy panel-api shares). */
export const ACCOUNT_FREE_FAILURES = ACCOUNT_PASSWORD_DELAY.freeFailures;
/** The longest wait between guesses at the account: it slows guessing, never locks the owner out for long. */
export const ACCOUNT_MAX_DELAY_MS = ACCOUNT_PASSWORD_DELAY.maxDelayMs;
// Bounds memory when many addresses fail; blocked clients are the last to be forgotten.
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

/** Who is guessing, and at what. */
export interface AttemptSource {
  /** The client address; IPv6 addresses count by their /64. */
  client: string;
  /** The admin account the attempt names, when it names the real one: its guesses are slowed. */
  account?: string;
  /**
   * Set when the request proves it comes from a browser the admin signed in on before (a known-device
   * cookie or a live session). It then has a budget of its own, untouched by failures elsewhere, and
   * no account delay: a stranger can slow guessing at the account but never lock the owner out.
   */
  knownDevice?: string;
}

interface AccountRecord {
  failures: number;
  lastFailureAt: number;
  inFlight: number;
}

/**
 * Throttle for password checks (sign-in and the current password of a password change).
 *
 * - Per client (the address, IPv6 by /64; or the known device): after LOGIN_FAILURE_LIMIT failures
 *   within the window, further attempts are refused until the oldest failure leaves the window. A
 *   check reserves a slot before the password is verified, so a burst of parallel guesses cannot
 *   all be verified before the first failure is recorded. A success clears the client.
 * - Per account: after ACCOUNT_FREE_FAILURES failures from anywhere, each further guess waits
 *   twice as long as the one before (1 s, 2 s, 4 s … up to ACCOUNT_MAX_DELAY_MS), one at a time;
 *   a success or a quiet window resets it. Known devices skip this delay.
 */
@Injectable()
export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();
  private readonly inFlight = new Map<string, number>();
  private readonly accounts = new Map<string, AccountRecord>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Seconds the client must wait before another attempt, or 0 when it may try now. */
  retryAfterSeconds(client: string): number {
    return this.clientWait(this.keyOf({ client }));
  }

  /** Reserves a password check, or throws rate_limited (with Retry-After) when the client or the account must wait. */
  begin(source: AttemptSource | string): PasswordAttempt {
    const { key, account } = this.normalise(source);
    const clientWait = this.clientWait(key);
    if (clientWait > 0) throw rateLimited(clientWait);
    const accountWait = account ? this.accountWait(account) : 0;
    if (accountWait > 0) throw rateLimited(accountWait);
    this.inFlight.set(key, (this.inFlight.get(key) ?? 0) + 1);
    const accountRecord = account ? this.accountRecord(account) : undefined;
    if (accountRecord) accountRecord.inFlight++;
    let settled = false;
    const release = (): boolean => {
      if (settled) return false;
      settled = true;
      const left = (this.inFlight.get(key) ?? 1) - 1;
      if (left > 0) this.inFlight.set(key, left);
      else this.inFlight.delete(key);
      if (accountRecord) accountRecord.inFlight = Math.max(0, accountRecord.inFlight - 1);
      return true;
    };
    return {
      failed: () => {
        if (!release()) return;
        this.recordFailure(key);
        if (accountRecord) {
          accountRecord.failures++;
          accountRecord.lastFailureAt = this.now();
        }
      },
      succeeded: () => {
        if (!release()) return;
        if (this.recentFailures(key).length >= LOGIN_FAILURE_LIMIT) throw rateLimited(this.clientWait(key));
        this.failures.delete(key);
        if (account) this.accounts.delete(account);
      },
      release: () => {
        release();
      },
    };
  }

  /** Counts a failure for a client address (tests and callers without a reservation). */
  recordFailure(client: string): void {
    const key = addressGroup(client);
    const recent = this.recentFailures(key);
    recent.push(this.now());
    this.failures.delete(key);
    this.failures.set(key, recent);
    if (this.failures.size > MAX_TRACKED_CLIENTS) this.forgetOne();
  }

  recordSuccess(client: string): void {
    this.failures.delete(addressGroup(client));
  }

  private normalise(source: AttemptSource | string): { key: string; account?: string } {
    if (typeof source === 'string') return { key: this.keyOf({ client: source }) };
    // A known device neither waits for the account nor counts against it.
    return { key: this.keyOf(source), account: source.knownDevice ? undefined : source.account };
  }

  private keyOf(source: AttemptSource): string {
    return source.knownDevice ? `device:${source.knownDevice}` : addressGroup(source.client);
  }

  private clientWait(key: string): number {
    const recent = this.recentFailures(key);
    if (recent.length >= LOGIN_FAILURE_LIMIT) {
      const waitMs = recent[recent.length - LOGIN_FAILURE_LIMIT] + LOGIN_FAILURE_WINDOW_MS - this.now();
      return Math.max(1, Math.ceil(waitMs / 1000));
    }
    // Every slot is taken by checks still running: they settle within about a second.
    return recent.length + (this.inFlight.get(key) ?? 0) >= LOGIN_FAILURE_LIMIT ? 1 : 0;
  }

  private accountRecord(account: string): AccountRecord {
    let record = this.accounts.get(account);
    if (!record) {
      record = { failures: 0, lastFailureAt: 0, inFlight: 0 };
      this.accounts.set(account, record);
      // Only the real admin account is ever passed in; the bound is a safety net.
      if (this.accounts.size > MAX_TRACKED_CLIENTS) this.accounts.delete(this.accounts.keys().next().value as string);
    }
    return record;
  }

  private accountWait(account: string): number {
    const record = this.accounts.get(account);
    if (!record) return 0;
    if (record.failures > 0 && this.now() - record.lastFailureAt > LOGIN_FAILURE_WINDOW_MS) {
      record.failures = 0;
    }
    if (record.failures < ACCOUNT_FREE_FAILURES) {
      // Below the free budget, a parallel burst still may not take more than what is left of it.
      return record.failures + record.inFlight >= ACCOUNT_FREE_FAILURES ? 1 : 0;
    }
    if (record.inFlight > 0) return 1;
    const delayMs = accountGuessDelayMs(ACCOUNT_PASSWORD_DELAY, record.failures);
    const waitMs = record.lastFailureAt + delayMs - this.now();
    return waitMs > 0 ? Math.ceil(waitMs / 1000) : 0;
  }

  private recentFailures(key: string): number[] {
    const cutoff = this.now() - LOGIN_FAILURE_WINDOW_MS;
    return (this.failures.get(key) ?? []).filter((at) => at > cutoff);
  }

  /**
   * Forgets one client to stay within MAX_TRACKED_CLIENTS: the least recently failed one that is
   * not blocked; only when every tracked client is blocked, the least recently failed of them.
   */
  private forgetOne(): void {
    const cutoff = this.now() - LOGIN_FAILURE_WINDOW_MS;
    for (const [key, times] of this.failures) {
      if (times.filter((at) => at > cutoff).length < LOGIN_FAILURE_LIMIT) {
        this.failures.delete(key);
        return;
      }
    }
    const oldest = this.failures.keys().next().value;
    if (oldest !== undefined) this.failures.delete(oldest);
  }
}

function rateLimited(retryAfterSeconds: number): MonitorError {
  return new MonitorError('rate_limited', 'too many failed password attempts; try again later', { retry_after_seconds: retryAfterSeconds }, {
    'Retry-After': String(retryAfterSeconds),
  });
}
