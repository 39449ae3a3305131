import { describe, expect, it } from 'vitest';
import { readOutboxFilters, writeOutboxFilters } from './outbox-filters';

describe('outbox filters in the URL', () => {
  it('reads known values and ignores the rest', () => {
    expect(readOutboxFilters(new URLSearchParams('state=dead&channel=abc&page=3&entry=7'))).toEqual({ state: 'dead', channel: 'abc', page: 3, entry: 7 });
    expect(readOutboxFilters(new URLSearchParams('state=gone&page=-2&entry=x'))).toEqual({ state: undefined, channel: undefined, page: 1, entry: undefined });
  });

  it('a new filter starts again at page 1; paging and opening an entry keep the filters', () => {
    const current = readOutboxFilters(new URLSearchParams('state=dead&page=4'));
    expect(writeOutboxFilters(current, { channel: 'c1' }).toString()).toBe('state=dead&channel=c1');
    expect(writeOutboxFilters(current, { page: 5 }).toString()).toBe('state=dead&page=5');
    expect(writeOutboxFilters(current, { entry: 9 }).toString()).toBe('state=dead&page=4&entry=9');
    expect(writeOutboxFilters({ ...current, entry: 9 }, { entry: undefined }).toString()).toBe('state=dead&page=4');
  });
});
