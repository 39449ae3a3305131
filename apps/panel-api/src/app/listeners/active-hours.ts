const HH_MM = /^([01]?\d|2[0-3]):([0-5]\d)$/;

/** Minutes after midnight of `HH:MM`, or undefined when the text is not a valid time of day. */
export function parseTimeOfDay(text: string | undefined | null): number | undefined {
  if (!text) return undefined;
  const match = HH_MM.exec(text.trim());
  return match ? Number(match[1]) * 60 + Number(match[2]) : undefined;
}

/** The wall-clock minute of the day of `at` in `timeZone` (an IANA name). */
export function minuteOfDay(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(at);
  const hour = Number(parts.find((p) => p.type === 'hour')?.value ?? 0);
  const minute = Number(parts.find((p) => p.type === 'minute')?.value ?? 0);
  return hour * 60 + minute;
}

/**
 * A daily window `[start, end)` in minutes; `start > end` crosses midnight (22:00-06:00), and
 * `start == end` means the whole day. Without a window every time is active.
 */
export interface ActiveHours {
  start: number;
  end: number;
}

export function activeHoursOf(start: string | undefined, end: string | undefined): ActiveHours | undefined {
  const from = parseTimeOfDay(start);
  const to = parseTimeOfDay(end);
  return from === undefined || to === undefined ? undefined : { start: from, end: to };
}

export function isWithinActiveHours(window: ActiveHours | undefined, at: Date, timeZone: string): boolean {
  if (!window || window.start === window.end) return true;
  const minute = minuteOfDay(at, timeZone);
  return window.start < window.end ? minute >= window.start && minute < window.end : minute >= window.start || minute < window.end;
}
