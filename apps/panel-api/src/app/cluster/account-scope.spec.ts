import { ConfigValidationError } from '@shared/config';
import { loadPanelConfig } from '../config/panel-config';
import { listenerScopeExclusion, shardOf } from './account-scope';

describe('listener scope', () => {
  it('shards by crc32 of the account name (the reference values of zlib.crc32)', () => {
    // The standard CRC-32 check value: crc32("123456789") = 0xCBF43926, as Python's zlib.crc32 gives.
    expect(shardOf('123456789', 1000)).toBe(0xcbf43926 % 1000);
    expect(shardOf('123456789', 1000)).toBe(262);
    const names = Array.from({ length: 300 }, (_, i) => `account_${i}`);
    const counts = [0, 1, 2].map((index) => names.filter((name) => shardOf(name, 3) === index).length);
    // Every account lands in exactly one shard, and the hash spreads them.
    expect(counts.reduce((a, b) => a + b)).toBe(300);
    for (const count of counts) expect(count).toBeGreaterThan(60);
  });

  it('applies the allowlist and the shard together', () => {
    const shard = { index: shardOf('alice', 2), count: 2 };
    expect(listenerScopeExclusion('alice', {})).toBeUndefined();
    expect(listenerScopeExclusion('alice', { accountAllowlist: ['bob'] })).toBe('not_in_allowlist');
    expect(listenerScopeExclusion('alice', { accountAllowlist: ['alice'], shard })).toBeUndefined();
    expect(listenerScopeExclusion('alice', { shard: { index: 1 - shard.index, count: 2 } })).toBe('other_shard');
  });
});

describe('listener variables at startup', () => {
  const base = { APP_DATA_DIR: '/tmp/panel-listener-scope' };

  it('parses APP_MONITOR_ACCOUNT_ALLOWLIST and APP_MONITOR_SHARD', () => {
    const config = loadPanelConfig({ ...base, APP_MONITOR_ACCOUNT_ALLOWLIST: 'alice, bob', APP_MONITOR_SHARD: '1/3' });
    expect(config.listeners).toEqual({ accountAllowlist: ['alice', 'bob'], shard: { index: 1, count: 3 } });
  });

  it.each([
    ['APP_MONITOR_SHARD', '3/3'],
    ['APP_MONITOR_SHARD', '0/0'],
    ['APP_MONITOR_SHARD', '1-3'],
    ['APP_MONITOR_SHARD', 'a/b'],
    ['APP_MONITOR_SHARD', '-1/3'],
    ['APP_MONITOR_ACCOUNT_ALLOWLIST', 'alice;bob'],
    ['APP_MONITOR_ACCOUNT_ALLOWLIST', 'alice,,bob'],
  ])('refuses %s=%s with an error naming the variable', (variable, value) => {
    let caught: unknown;
    try {
      loadPanelConfig({ ...base, [variable]: value });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigValidationError);
    expect((caught as Error).message).toContain(variable);
  });
});
