import { dateKey, localDate, LocalDate, zonedInstant } from '../ai/digest-schedule';

/**
 * Rows are counted by the database per quarter hour of UTC (every time zone in use today is offset
 * from UTC by a whole number of quarter hours, so no quarter hour straddles a local midnight), and
 * the quarter hours are then assigned to local days here, in the configured zone.
 */
export const BUCKET_SECONDS = 900;

export interface DayWindow {
  /** Local dates `YYYY-MM-DD`, oldest first, the last one today. */
  days: string[];
  /** The instant the first day begins in the zone. */
  start: Date;
}

/** The last `count` local days in `timeZone` up to and including the day of `now`. */
export function lastLocalDays(now: Date, timeZone: string, count: number): DayWindow {
  const today = localDate(now, timeZone);
  const days: LocalDate[] = [];
  for (let back = count - 1; back >= 0; back--) {
    const noon = new Date(Date.UTC(today.year, today.month - 1, today.day - back, 12));
    days.push({ year: noon.getUTCFullYear(), month: noon.getUTCMonth() + 1, day: noon.getUTCDate() });
  }
  return { days: days.map(dateKey), start: zonedInstant(days[0], 0, 0, timeZone) };
}

/** The local date of a quarter-hour bucket (its number since the epoch). */
export function bucketDay(bucket: number, timeZone: string): string {
  return dateKey(localDate(new Date(bucket * BUCKET_SECONDS * 1000), timeZone));
}
