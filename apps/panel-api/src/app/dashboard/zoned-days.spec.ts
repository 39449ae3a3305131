import { addDays, isDay, startOfZonedDay, zonedDay } from './zoned-days';

describe('zoned days', () => {
  it('finds the first instant of a day in a zone, across DST changes', () => {
    expect(startOfZonedDay('2026-11-24', 'Asia/Shanghai').toISOString()).toBe('2026-11-23T16:00:00.000Z');
    expect(startOfZonedDay('2026-11-24', 'UTC').toISOString()).toBe('2026-11-24T00:00:00.000Z');
    expect(startOfZonedDay('2026-03-29', 'Europe/Berlin').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(startOfZonedDay('2026-03-30', 'Europe/Berlin').toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(startOfZonedDay('2026-11-02', 'America/New_York').toISOString()).toBe('2026-11-02T05:00:00.000Z');
  });

  it('names the day of an instant in a zone', () => {
    expect(zonedDay(new Date('2026-11-23T16:30:00Z'), 'Asia/Shanghai')).toBe('2026-11-24');
    expect(zonedDay(new Date('2026-11-23T16:30:00Z'), 'UTC')).toBe('2026-11-23');
  });

  it('adds days and validates them', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(isDay('2026-02-29')).toBe(false);
    expect(isDay('2028-02-29')).toBe(true);
    expect(isDay('2026-1-01')).toBe(false);
  });
});
