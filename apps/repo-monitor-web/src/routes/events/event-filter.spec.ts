import { describe, expect, it } from 'vitest';
import { eventFilterFromParams, eventFilterToParams, eventQuery, nextDay, startOfDayIn } from './event-filter';

describe('event filter', () => {
  it('reads the URL, dropping what the API would refuse, and writes it back', () => {
    const filter = eventFilterFromParams(new URLSearchParams('q=crash&category=pr&kind=issues&repository=3&from=2026-11-01&to=2026-11-25&page=2'));
    expect(filter).toEqual({ page: 2, q: 'crash', category: 'pr', kind: 'issues', repositoryId: 3, from: '2026-11-01', to: '2026-11-25' });
    expect(eventFilterToParams(filter).toString()).toBe('q=crash&category=pr&kind=issues&repository=3&from=2026-11-01&to=2026-11-25&page=2');
    expect(eventFilterFromParams(new URLSearchParams('category=nope&page=-1&repository=x&from=yesterday'))).toEqual({ page: 1, q: '', category: '', kind: '', repositoryId: null, from: '', to: '' });
  });

  it('turns days into the instants they start in the configured zone, DST included', () => {
    expect(startOfDayIn('2026-11-25', 'Asia/Shanghai')).toBe('2026-11-24T16:00:00.000Z');
    expect(startOfDayIn('2026-11-25', 'UTC')).toBe('2026-11-25T00:00:00.000Z');
    expect(startOfDayIn('2026-03-08', 'America/New_York')).toBe('2026-03-08T05:00:00.000Z');
    expect(startOfDayIn('2026-03-09', 'America/New_York')).toBe('2026-03-09T04:00:00.000Z');
    expect(startOfDayIn('2026-11-25', 'Asia/Kolkata')).toBe('2026-11-24T18:30:00.000Z');
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
  });

  it('asks the API for the whole last day', () => {
    const filter = eventFilterFromParams(new URLSearchParams('from=2026-11-25&to=2026-11-25'));
    expect(eventQuery(filter, 'Asia/Shanghai')).toEqual({ page: 1, per_page: 25, since: '2026-11-24T16:00:00.000Z', until: '2026-11-25T16:00:00.000Z' });
  });
});
