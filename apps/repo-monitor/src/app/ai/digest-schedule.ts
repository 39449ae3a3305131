import { DigestPeriod } from './digest.entity';

export interface DigestSchedule {
  timeZone: string;
  /** HH:MM local time. */
  digestTime: string;
  weekly: { enabled: boolean; weekday: string };
  monthly: { enabled: boolean; day: number };
}

export interface DueDigest {
  period: DigestPeriod;
  /** Unique per scheduled occurrence: `daily:2026-01-31`. */
  key: string;
  at: Date;
}

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

export function localDate(instant: Date, timeZone: string): LocalDate {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric' }).formatToParts(instant);
  const value = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  return { year: value('year'), month: value('month'), day: value('day') };
}

/** Milliseconds the zone is ahead of UTC at `instant`. */
function zoneOffset(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(instant));
  const value = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  const asUtc = Date.UTC(value('year'), value('month') - 1, value('day'), value('hour'), value('minute'), value('second'));
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** The instant a local wall-clock time happens in a zone (the later one across a DST gap). */
export function zonedInstant(date: LocalDate, hour: number, minute: number, timeZone: string): Date {
  const wall = Date.UTC(date.year, date.month - 1, date.day, hour, minute);
  let instant = wall - zoneOffset(wall, timeZone);
  instant = wall - zoneOffset(instant, timeZone);
  return new Date(instant);
}

export function dateKey(date: LocalDate): string {
  return `${date.year}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
}

/**
 * The digests whose scheduled local time falls in (previous, now]: the daily digest every day,
 * the weekly report on its weekday, the monthly report on its day of the month.
 */
export function dueDigests(previous: Date, now: Date, schedule: DigestSchedule): DueDigest[] {
  const [hour, minute] = schedule.digestTime.split(':').map(Number);
  const dates = new Map<string, LocalDate>();
  for (const instant of [previous, now]) {
    const date = localDate(instant, schedule.timeZone);
    dates.set(dateKey(date), date);
  }
  const due: DueDigest[] = [];
  for (const [key, date] of dates) {
    const at = zonedInstant(date, hour, minute, schedule.timeZone);
    if (at.getTime() <= previous.getTime() || at.getTime() > now.getTime()) continue;
    due.push({ period: 'daily', key: `daily:${key}`, at });
    const weekday = WEEKDAYS[new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay()];
    if (schedule.weekly.enabled && weekday === schedule.weekly.weekday.toLowerCase()) due.push({ period: 'weekly', key: `weekly:${key}`, at });
    if (schedule.monthly.enabled && date.day === schedule.monthly.day) due.push({ period: 'monthly', key: `monthly:${key}`, at });
  }
  return due;
}

/** The start of the window a digest covers, ending at `end`. */
export function periodStart(period: DigestPeriod, end: Date): Date {
  const start = new Date(end);
  if (period === 'daily') start.setTime(end.getTime() - 24 * 3600_000);
  else if (period === 'weekly') start.setTime(end.getTime() - 7 * 24 * 3600_000);
  else start.setUTCMonth(start.getUTCMonth() - 1);
  return start;
}
