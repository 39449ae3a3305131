import { createHash } from 'node:crypto';

export interface LeasePlanInput {
  me: string;
  /** Ids of the live replicas (this one included). */
  live: string[];
  /** Every account name. */
  accounts: string[];
  /** Accounts whose lease this replica holds. */
  held: string[];
  /** Accounts without a live lease (none yet, released, or expired). */
  free: string[];
  /** Whether this replica may own the account (APP_MONITOR_SHARD and the allowlist pin accounts). */
  eligible: (account: string) => boolean;
  /** Accounts with a run in progress here: never handed over by a rebalance. */
  busy: (account: string) => boolean;
  /** Whether a free account has been free for a whole lease period (nobody whose share it is took it). */
  orphaned: (account: string) => boolean;
  /** How many live leases each live replica holds now. */
  ownerCounts: Map<string, number>;
}

export interface LeasePlan {
  /** This replica's share of the accounts. */
  quota: number;
  release: string[];
  acquire: string[];
}

/**
 * A replica's share: the accounts divided over the live replicas, the remainder going one each to
 * the first replicas by id, so the shares add up to the number of accounts and differ by at most one.
 */
export function shareOf(replica: string, live: readonly string[], accountCount: number): number {
  const sorted = [...new Set(live)].sort();
  const index = sorted.indexOf(replica);
  if (index < 0 || sorted.length === 0) return 0;
  const base = Math.floor(accountCount / sorted.length);
  return base + (index < accountCount % sorted.length ? 1 : 0);
}

/** Rendezvous weight: replicas prefer different free accounts, so two seldom race for one. */
function weight(replica: string, account: string): string {
  return createHash('sha256').update(`${replica}\u0000${account}`).digest('hex');
}

/**
 * What one heartbeat does with the leases: release the surplus above this replica's share while
 * another live replica is below its own (release first, the others acquire on their next beat, so
 * an account never has two owners), and acquire free accounts up to the share. A free account that
 * nobody took for a lease period (the replica whose share it is may not own it, through a pin) is
 * taken by any replica allowed to, above its share.
 */
export function planLeases(input: LeasePlanInput): LeasePlan {
  const live = [...new Set([...input.live, input.me])].sort();
  const quota = shareOf(input.me, live, input.accounts.length);
  const held = [...input.held].sort();
  const shortfall = live.filter((id) => id !== input.me).reduce((sum, id) => sum + Math.max(0, shareOf(id, live, input.accounts.length) - (input.ownerCounts.get(id) ?? 0)), 0);
  const surplus = Math.max(0, held.length - quota);
  const releaseCount = Math.min(surplus, shortfall);
  // The accounts this replica would be least likely to pick first go first.
  const release = held.filter((account) => !input.busy(account)).sort((a, b) => weight(input.me, a).localeCompare(weight(input.me, b))).slice(0, releaseCount);
  const keep = held.length - release.length;
  const candidates = input.free.filter((account) => input.eligible(account) && !held.includes(account));
  candidates.sort((a, b) => weight(input.me, b).localeCompare(weight(input.me, a)));
  const acquire = candidates.slice(0, Math.max(0, quota - keep));
  for (const account of candidates) {
    if (!acquire.includes(account) && input.orphaned(account)) acquire.push(account);
  }
  return { quota, release, acquire };
}
