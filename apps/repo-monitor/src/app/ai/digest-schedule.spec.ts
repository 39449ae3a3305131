import { dueDigests, DigestSchedule, periodStart, zonedInstant } from './digest-schedule';

const base: DigestSchedule = { timeZone: 'UTC', digestTime: '09:00', weekly: { enabled: false, weekday: 'monday' }, monthly: { enabled: false, day: 1 } };

describe('dueDigests', () => {
  it('is due once when 09:00 local passes between two ticks', () => {
    const at = new Date('2026-03-10T09:00:00Z');
    expect(dueDigests(new Date('2026-03-10T08:59:30Z'), new Date('2026-03-10T09:00:30Z'), base)).toEqual([{ period: 'daily', key: 'daily:2026-03-10', at }]);
    expect(dueDigests(new Date('2026-03-10T09:00:30Z'), new Date('2026-03-10T09:01:30Z'), base)).toEqual([]);
    expect(dueDigests(new Date('2026-03-10T08:58:00Z'), new Date('2026-03-10T08:59:00Z'), base)).toEqual([]);
  });

  it('follows the time zone, across a daylight-saving change', () => {
    const berlin = { ...base, timeZone: 'Europe/Berlin' };
    // 29 March 2026: Berlin moves to UTC+2, so 09:00 local is 07:00 UTC (08:00 UTC the day before).
    expect(dueDigests(new Date('2026-03-29T06:59:00Z'), new Date('2026-03-29T07:00:00Z'), berlin).map((due) => due.key)).toEqual(['daily:2026-03-29']);
    expect(dueDigests(new Date('2026-03-28T07:59:00Z'), new Date('2026-03-28T08:00:00Z'), berlin).map((due) => due.key)).toEqual(['daily:2026-03-28']);
    const tokyo = { ...base, timeZone: 'Asia/Tokyo', digestTime: '00:30' };
    expect(dueDigests(new Date('2026-03-10T15:29:00Z'), new Date('2026-03-10T15:31:00Z'), tokyo).map((due) => due.key)).toEqual(['daily:2026-03-11']);
  });

  it('adds the weekly report on its weekday and the monthly report on its day, when switched on', () => {
    const schedule = { ...base, weekly: { enabled: true, weekday: 'monday' }, monthly: { enabled: true, day: 2 } };
    // 2 March 2026 is a Monday.
    const due = dueDigests(new Date('2026-03-02T08:59:00Z'), new Date('2026-03-02T09:00:00Z'), schedule);
    expect(due.map((entry) => entry.key)).toEqual(['daily:2026-03-02', 'weekly:2026-03-02', 'monthly:2026-03-02']);
    const tuesday = dueDigests(new Date('2026-03-03T08:59:00Z'), new Date('2026-03-03T09:00:00Z'), schedule);
    expect(tuesday.map((entry) => entry.period)).toEqual(['daily']);
    const off = dueDigests(new Date('2026-03-02T08:59:00Z'), new Date('2026-03-02T09:00:00Z'), base);
    expect(off.map((entry) => entry.period)).toEqual(['daily']);
  });
});

describe('zonedInstant and periodStart', () => {
  it('converts local wall time to UTC', () => {
    expect(zonedInstant({ year: 2026, month: 7, day: 1 }, 9, 0, 'America/New_York').toISOString()).toBe('2026-07-01T13:00:00.000Z');
  });

  it('covers a day, a week or a calendar month', () => {
    const end = new Date('2026-03-31T09:00:00Z');
    expect(periodStart('daily', end).toISOString()).toBe('2026-03-30T09:00:00.000Z');
    expect(periodStart('weekly', end).toISOString()).toBe('2026-03-24T09:00:00.000Z');
    expect(periodStart('monthly', new Date('2026-03-15T09:00:00Z')).toISOString()).toBe('2026-02-15T09:00:00.000Z');
  });
});
