import { addressGroup } from '@shared/http-service';
import { Clock } from './clock';

export interface LoginThrottleLimits {
  maxFailures: number;
  windowSeconds: number;
  blockSeconds: number;
}

interface ClientRecord {
  failures: number[];
  blockedUntil: number;
}

// Bounds the memory an attacker with many addresses can make us hold.
const MAX_TRACKED_CLIENTS = 10_000;

/**
 * Failed logins per client address: `maxFailures` within `windowSeconds` block that client for
 * `blockSeconds`, during which every attempt is refused, even with the right password. IPv6
 * addresses count by their /64 (one subscriber's network), so fresh addresses bring no fresh budget.
 */
export class LoginThrottle {
  private readonly clients = new Map<string, ClientRecord>();

  constructor(
    private readonly limits: LoginThrottleLimits,
    private readonly clock: Clock,
  ) {}

  /** Seconds the client still has to wait (rounded up), or 0 when it may try. */
  retryAfterSeconds(client: string): number {
    const record = this.clients.get(addressGroup(client));
    if (!record) return 0;
    const remaining = record.blockedUntil - this.clock.now();
    return remaining > 0 ? Math.ceil(remaining / 1000) : 0;
  }

  recordFailure(address: string): void {
    const client = addressGroup(address);
    const now = this.clock.now();
    const windowStart = now - this.limits.windowSeconds * 1000;
    const record = this.clients.get(client) ?? { failures: [], blockedUntil: 0 };
    record.failures = record.failures.filter((time) => time > windowStart);
    record.failures.push(now);
    if (record.failures.length >= this.limits.maxFailures) {
      record.blockedUntil = now + this.limits.blockSeconds * 1000;
      record.failures = [];
    }
    this.clients.delete(client);
    this.clients.set(client, record);
    if (this.clients.size > MAX_TRACKED_CLIENTS) this.forgetIdle(now);
  }

  recordSuccess(client: string): void {
    this.clients.delete(addressGroup(client));
  }

  private forgetIdle(now: number): void {
    const windowStart = now - this.limits.windowSeconds * 1000;
    for (const [client, record] of this.clients) {
      if (record.blockedUntil <= now && record.failures.every((time) => time <= windowStart)) this.clients.delete(client);
    }
    // Still too many: drop the least recently failed clients that are not blocked.
    for (const [client, record] of this.clients) {
      if (this.clients.size <= MAX_TRACKED_CLIENTS) break;
      if (record.blockedUntil <= now) this.clients.delete(client);
    }
  }
}

/**
 * Wrong secrets given by a holder of a valid token (current_password, TOTP codes), counted per
 * admin account rather than per address: a stolen token must not become unlimited guessing of the
 * password or of the code that turns TOTP off. Same limits as the login throttle.
 */
export class CredentialCheckThrottle extends LoginThrottle {}
