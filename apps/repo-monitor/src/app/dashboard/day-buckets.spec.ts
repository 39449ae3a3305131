import { BUCKET_SECONDS, bucketDay, lastLocalDays } from './day-buckets';

const bucketOf = (iso: string) => Math.floor(Date.parse(iso) / 1000 / BUCKET_SECONDS);

describe('dashboard day buckets', () => {
  it('lists the last days in the zone, today last, starting at local midnight', () => {
    const window = lastLocalDays(new Date('2026-03-02T03:00:00Z'), 'Asia/Shanghai', 3);
    expect(window.days).toEqual(['2026-02-28', '2026-03-01', '2026-03-02']);
    expect(window.start.toISOString()).toBe('2026-02-27T16:00:00.000Z');
  });

  it('is still yesterday in a zone behind UTC', () => {
    const window = lastLocalDays(new Date('2026-01-01T03:00:00Z'), 'America/New_York', 2);
    expect(window.days).toEqual(['2025-12-30', '2025-12-31']);
    expect(window.start.toISOString()).toBe('2025-12-30T05:00:00.000Z');
  });

  it('begins the first day at its own offset across a DST change', () => {
    // Europe/Berlin goes from +01:00 to +02:00 on 2026-03-29.
    const window = lastLocalDays(new Date('2026-03-30T12:00:00Z'), 'Europe/Berlin', 3);
    expect(window.days).toEqual(['2026-03-28', '2026-03-29', '2026-03-30']);
    expect(window.start.toISOString()).toBe('2026-03-27T23:00:00.000Z');
  });

  it('puts a quarter hour on the local day it falls in, half-hour zones included', () => {
    expect(bucketDay(bucketOf('2026-05-01T18:15:00Z'), 'Asia/Kolkata')).toBe('2026-05-01');
    expect(bucketDay(bucketOf('2026-05-01T18:30:00Z'), 'Asia/Kolkata')).toBe('2026-05-02');
    expect(bucketDay(bucketOf('2026-05-01T18:14:59Z'), 'Asia/Kathmandu')).toBe('2026-05-01');
    expect(bucketDay(bucketOf('2026-05-01T18:15:00Z'), 'Asia/Kathmandu')).toBe('2026-05-02');
    expect(bucketDay(bucketOf('2026-05-01T23:59:59Z'), 'UTC')).toBe('2026-05-01');
  });
});
