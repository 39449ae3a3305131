import { Injectable } from '@nestjs/common';
import { isIP } from 'node:net';

/** Bad signatures an address may send within the window before it is answered 429. */
export const SIGNATURE_FAILURE_LIMIT = 20;
export const SIGNATURE_FAILURE_WINDOW_MS = 60_000;
const MAX_TRACKED_ADDRESSES = 10_000;

interface Window {
  startedAt: number;
  failures: number;
}

/** IPv4 as is; IPv6 by its /64 (one host usually holds a whole /64, so single addresses are free to rotate). */
export function signatureFailureKey(address: string): string {
  if (isIP(address) !== 6) return address;
  const groups = address.toLowerCase().split('::');
  const head = (groups[0] ?? '').split(':').filter(Boolean);
  const tail = groups.length > 1 ? (groups[1] ?? '').split(':').filter(Boolean) : [];
  const full = [...head, ...Array<string>(Math.max(0, 8 - head.length - tail.length)).fill('0'), ...tail];
  if (full.slice(0, 6).join(':') === '0:0:0:0:0:ffff') return address; // IPv4-mapped: the IPv4 address
  return `${full.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/**
 * Counts deliveries with a missing or wrong signature per client address. Past the limit in one
 * window, further bad deliveries from that address are answered 429 (with Retry-After) instead of
 * 401. A correctly signed delivery is never refused by this: GitHub sends every app's deliveries
 * from the same addresses, so a stranger's misconfigured app must not be able to block ours.
 */
@Injectable()
export class SignatureFailureLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Records a bad signature; answers the seconds to wait when the address is over its limit, else 0. */
  fail(address: string): number {
    const key = signatureFailureKey(address);
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || now - window.startedAt >= SIGNATURE_FAILURE_WINDOW_MS) {
      this.windows.delete(key);
      this.evictIfFull(now);
      window = { startedAt: now, failures: 0 };
      this.windows.set(key, window);
    }
    window.failures += 1;
    if (window.failures <= SIGNATURE_FAILURE_LIMIT) return 0;
    return Math.max(1, Math.ceil((window.startedAt + SIGNATURE_FAILURE_WINDOW_MS - now) / 1000));
  }

  /** Forgets expired windows first; when every window is live, the one that started first. */
  private evictIfFull(now: number): void {
    if (this.windows.size < MAX_TRACKED_ADDRESSES) return;
    for (const [key, window] of this.windows) if (now - window.startedAt >= SIGNATURE_FAILURE_WINDOW_MS) this.windows.delete(key);
    if (this.windows.size >= MAX_TRACKED_ADDRESSES) {
      const oldest = this.windows.keys().next().value;
      if (oldest !== undefined) this.windows.delete(oldest);
    }
  }
}
