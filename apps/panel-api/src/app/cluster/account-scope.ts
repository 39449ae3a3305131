import { crc32 } from 'node:zlib';
import type { MonitorShard } from '../config/panel-config';

/**
 * Why an account is not used on this instance (no listener, no lease), or undefined when it may be:
 * APP_MONITOR_ACCOUNT_ALLOWLIST and APP_MONITOR_SHARD pin accounts; with replicas, another replica may own it.
 */
export type ScopeExclusion = 'not_in_allowlist' | 'other_shard' | 'other_replica';

/** The shard of an account: crc32 (IEEE, of the UTF-8 name) mod n (panel-api-details.md, Scheduler). */
export function shardOf(accountName: string, count: number): number {
  return crc32(Buffer.from(accountName, 'utf8')) % count;
}

/**
 * APP_MONITOR_ACCOUNT_ALLOWLIST keeps only the named accounts; APP_MONITOR_SHARD=i/n keeps only
 * accounts whose shard is i. Both apply when both are set.
 */
export function listenerScopeExclusion(
  accountName: string,
  scope: { accountAllowlist?: readonly string[]; shard?: MonitorShard },
): ScopeExclusion | undefined {
  if (scope.accountAllowlist && scope.accountAllowlist.length > 0 && !scope.accountAllowlist.includes(accountName)) return 'not_in_allowlist';
  if (scope.shard && shardOf(accountName, scope.shard.count) !== scope.shard.index) return 'other_shard';
  return undefined;
}
