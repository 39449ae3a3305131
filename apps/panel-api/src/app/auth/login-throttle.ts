import { addressGroup } from '@shared/http-service';
import { Clock } from './clock';

export interface LoginThrottleLimits {
  maxFailures: number;
  windowSeconds: number;
  blockSeconds: number;
}

/** One client's failures within the window (ms since the epoch) and the end of its block (0: none). */
export interface ThrottleRecord {
  failures: number[];
  blockedUntil: number;
}

/**
 * Where the throttle keeps its records: in memory for one instance (SQLite), in the database when
 * replicas share it (PostgreSQL), so failures spread over replicas count as on one.
 */
export interface ThrottleStore {
  get(client: string): Promise<ThrottleRecord | undefined>;
  /** Replaces the client's record with what `change` makes of it (undefined forgets it), atomically across replicas. */
  update(client: string, now: number, change: (record: ThrottleRecord | undefined) => ThrottleRecord | undefined): Promise<void>;
}

// Bounds the memory an attacker with many addresses can make us hold.
const MAX_TRACKED_CLIENTS = 10_000;

/** The records of one instance, in a Map. */
export class MemoryThrottleStore implements ThrottleStore {
  private readonly clients = new Map<string, ThrottleRecord>();

  constructor(private readonly windowSeconds: number) {}

  async get(client: string): Promise<ThrottleRecord | undefined> {
    return this.clients.get(client);
  }

  async update(client: string, now: number, change: (record: ThrottleRecord | undefined) => ThrottleRecord | undefined): Promise<void> {
    const record = change(this.clients.get(client));
    // Re-inserted last, so the Map's order is the order of the last failure.
    this.clients.delete(client);
    if (!record) return;
    this.clients.set(client, record);
    if (this.clients.size > MAX_TRACKED_CLIENTS) this.forgetIdle(now);
  }

  private forgetIdle(now: number): void {
    const windowStart = now - this.windowSeconds * 1000;
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
 * Failed logins per client address: `maxFailures` within `windowSeconds` block that client for
 * `blockSeconds`, during which every attempt is refused, even with the right password. IPv6
 * addresses count by their /64 (one subscriber's network), so fresh addresses bring no fresh budget.
 */
export class LoginThrottle {
  constructor(
    private readonly limits: LoginThrottleLimits,
    private readonly clock: Clock,
    private readonly store: ThrottleStore = new MemoryThrottleStore(limits.windowSeconds),
  ) {}

  /** Seconds the client still has to wait (rounded up), or 0 when it may try. */
  async retryAfterSeconds(client: string): Promise<number> {
    const record = await this.store.get(this.keyOf(client));
    if (!record) return 0;
    const remaining = record.blockedUntil - this.clock.now();
    return remaining > 0 ? Math.ceil(remaining / 1000) : 0;
  }

  async recordFailure(address: string): Promise<void> {
    const now = this.clock.now();
    const windowStart = now - this.limits.windowSeconds * 1000;
    await this.store.update(this.keyOf(address), now, (previous) => {
      const record = { failures: (previous?.failures ?? []).filter((time) => time > windowStart), blockedUntil: previous?.blockedUntil ?? 0 };
      record.failures.push(now);
      if (record.failures.length >= this.limits.maxFailures) {
        record.blockedUntil = now + this.limits.blockSeconds * 1000;
        record.failures = [];
      }
      return record;
    });
  }

  async recordSuccess(client: string): Promise<void> {
    await this.store.update(this.keyOf(client), this.clock.now(), () => undefined);
  }

  /** The key a client counts under. */
  private keyOf(address: string): string {
    return addressGroup(address);
  }
}

/**
 * Wrong secrets given by a holder of a valid token (current_password, TOTP codes), counted per
 * admin account rather than per address: a stolen token must not become unlimited guessing of the
 * password or of the code that turns TOTP off. Same limits as the login throttle.
 */
export class CredentialCheckThrottle extends LoginThrottle {}
