import { localDate, zonedInstant } from '../common/zoned-time';
import type { ZonedClock } from './rule-matcher';

/** The wall clock of an IANA time zone (the general settings' time zone), for quiet hours. */
export function zonedClock(timeZone: string): ZonedClock {
  const format = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', hour: 'numeric', minute: 'numeric' });
  return {
    localMinutes(instant: Date): number {
      const parts = format.formatToParts(instant);
      const value = (type: string) => Number(parts.find((part) => part.type === type)?.value);
      return value('hour') * 60 + value('minute');
    },
    nextLocal(instant: Date, minutes: number): Date {
      const today = localDate(instant, timeZone);
      const hour = Math.floor(minutes / 60);
      const minute = minutes % 60;
      const sameDay = zonedInstant(today, hour, minute, timeZone);
      if (sameDay.getTime() > instant.getTime()) return sameDay;
      const next = new Date(Date.UTC(today.year, today.month - 1, today.day + 1));
      return zonedInstant({ year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate() }, hour, minute, timeZone);
    },
  };
}
