import { describe, expect, it } from 'vitest';
import { hitFilterFromParams, hitViewFromParams, isFiltered, withParams } from './hits-filter';
import { queryString } from './hits-api';

describe('keyword hits filter', () => {
  it('turns the URL into the API filter: trimmed text, days of the configured zone, until inclusive', () => {
    const params = new URLSearchParams({ account: 'alice', task: ' ', q: '  sale ', since: '2026-11-20', until: '2026-11-24', chat: '-100123' });
    expect(hitFilterFromParams(params, 'Asia/Shanghai')).toEqual({
      account: 'alice',
      task: undefined,
      chat: '-100123',
      q: 'sale',
      since: '2026-11-19T16:00:00.000Z',
      until: '2026-11-24T16:00:00.000Z',
    });
  });

  it('ignores a day that is not a day instead of asking the server for a 400', () => {
    expect(hitFilterFromParams(new URLSearchParams({ since: 'last week', until: '2026-13-01' }), 'UTC')).toMatchObject({ since: undefined, until: undefined });
  });

  it('knows the views and whether a filter is set', () => {
    expect(hitViewFromParams(new URLSearchParams('view=chat'))).toBe('chat');
    expect(hitViewFromParams(new URLSearchParams('view=evil'))).toBe('list');
    expect(isFiltered(new URLSearchParams('view=task&cursor=abc'))).toBe(false);
    expect(isFiltered(new URLSearchParams('q=x'))).toBe(true);
  });

  it('starts again at the first page when the filter changes, keeps the cursor when paging', () => {
    const params = new URLSearchParams('task=daily&cursor=abc');
    expect(withParams(params, { account: 'bob' }).toString()).toBe('task=daily&account=bob');
    expect(withParams(params, { task: undefined }).toString()).toBe('');
    expect(withParams(params, { cursor: 'def' }).toString()).toBe('task=daily&cursor=def');
  });

  it('downloads the same filter the list shows', () => {
    expect(queryString({ account: 'a b', q: 'x&y', task: undefined })).toBe('account=a+b&q=x%26y');
  });
});
