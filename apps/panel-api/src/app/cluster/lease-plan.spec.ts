import { planLeases, shareOf } from './lease-plan';

const accounts = Array.from({ length: 20 }, (_, index) => `acct-${String(index).padStart(2, '0')}`);
const base = { eligible: () => true, orphaned: () => false, busy: () => false };

describe('shareOf', () => {
  it('divides the accounts so shares add up and differ by at most one', () => {
    const live = ['c', 'a', 'b'];
    const shares = live.map((id) => shareOf(id, live, 20));
    expect(shares.reduce((sum, share) => sum + share, 0)).toBe(20);
    expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
    expect(shareOf('a', live, 20)).toBe(7);
    expect(shareOf('c', live, 20)).toBe(6);
    expect(shareOf('zzz', live, 20)).toBe(0);
  });
});

describe('planLeases', () => {
  it('alone: takes every free account', () => {
    const plan = planLeases({ ...base, me: 'a', live: ['a'], accounts, held: [], free: accounts, ownerCounts: new Map([['a', 0]]) });
    expect(plan.acquire.sort()).toEqual(accounts);
    expect(plan.release).toEqual([]);
  });

  it('a replica joins: the holder releases its surplus only while the newcomer is short, and takes nothing', () => {
    const counts = new Map([
      ['a', 20],
      ['b', 0],
    ]);
    const plan = planLeases({ ...base, me: 'a', live: ['a', 'b'], accounts, held: accounts, free: [], ownerCounts: counts });
    expect(plan.quota).toBe(10);
    expect(plan.release).toHaveLength(10);
    expect(plan.acquire).toEqual([]);
    // Once the newcomer has its share, nothing more moves.
    const settled = planLeases({ ...base, me: 'a', live: ['a', 'b'], accounts, held: accounts.slice(0, 10), free: [], ownerCounts: new Map([['a', 10], ['b', 10]]) });
    expect(settled).toMatchObject({ release: [], acquire: [] });
  });

  it('never hands over an account with a run in progress', () => {
    const plan = planLeases({ ...base, busy: (account) => account !== 'acct-00', me: 'a', live: ['a', 'b'], accounts, held: accounts, free: [], ownerCounts: new Map([['a', 20], ['b', 0]]) });
    expect(plan.release).toEqual(['acct-00']);
  });

  it('takes free accounts up to its share, and an orphan above it; never an account it may not own', () => {
    const free = accounts.slice(10);
    const plan = planLeases({
      ...base,
      eligible: (account) => account !== 'acct-19',
      orphaned: (account) => account === 'acct-18',
      me: 'b',
      live: ['a', 'b'],
      accounts,
      held: accounts.slice(0, 9),
      free,
      ownerCounts: new Map([['a', 0], ['b', 9]]),
    });
    expect(plan.acquire).toContain('acct-18');
    expect(plan.acquire).not.toContain('acct-19');
    // One up to the share of 10, plus the orphan when the one picked was another.
    expect(plan.acquire.length).toBeLessThanOrEqual(2);
    expect(plan.acquire.length).toBeGreaterThanOrEqual(1);
  });
});
