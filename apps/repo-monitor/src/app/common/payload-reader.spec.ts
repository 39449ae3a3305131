import { clip, PayloadReader } from './payload-reader';

describe('PayloadReader', () => {
  const payload = PayloadReader.of({
    action: 'opened',
    issue: { number: 7, title: 'Crash', draft: false, updated_at: '2024-05-01T10:00:00Z', labels: [{ name: 'bug' }, { name: 'p1' }] },
    bad_date: 'yesterday',
    list: 'not a list',
    nan: Number.NaN,
  });

  it('reads typed values along a path', () => {
    expect(payload.get('action').string()).toBe('opened');
    expect(payload.path('issue', 'number').number()).toBe(7);
    expect(payload.path('issue', 'draft').boolean()).toBe(false);
    expect(payload.path('issue', 'updated_at').date()).toEqual(new Date('2024-05-01T10:00:00Z'));
    expect(payload.path('issue', 'labels').list().map((label) => label.get('name').string())).toEqual(['bug', 'p1']);
  });

  it('answers undefined for a missing or mistyped field instead of throwing', () => {
    expect(payload.path('issue', 'number').string()).toBeUndefined();
    expect(payload.path('missing', 'deeper', 'still').number()).toBeUndefined();
    expect(payload.get('bad_date').date()).toBeUndefined();
    expect(payload.get('nan').number()).toBeUndefined();
    expect(payload.get('list').list()).toEqual([]);
    expect(payload.path('issue', 'labels').get('name').exists).toBe(false);
    expect(PayloadReader.of(null).get('x').exists).toBe(false);
  });
});

describe('clip', () => {
  it('keeps text within a column length, marking the cut', () => {
    expect(clip('short', 10)).toBe('short');
    expect(clip('0123456789abc', 10)).toBe('012345678…');
    expect(clip('0123456789abc', 10)).toHaveLength(10);
    expect(clip(undefined, 10)).toBe('');
  });
});
