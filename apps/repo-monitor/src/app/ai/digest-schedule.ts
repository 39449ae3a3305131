import { DigestPeriod } from './digest.entity';
import { LocalDate, localDate, zonedInstant } from '../common/zoned-time';

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

export { localDate, zonedInstant } from '../common/zoned-time';
export type { LocalDate } from '../common/zoned-time';

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
