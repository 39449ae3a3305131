/** Formats an instant in the service's configured time zone (not the browser's), e.g. `2026-11-23 14:05:09`. */
export function formatDateTime(value: string | number | Date | null | undefined, timeZone: string | undefined, withSeconds = true): string {
  if (value === null || value === undefined || value === '') return '—';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  const parts = zoneParts(date, timeZone);
  const base = `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
  return withSeconds ? `${base}:${parts.second}` : base;
}

/** The calendar day (YYYY-MM-DD) of an instant in a time zone. */
export function dayInZone(value: string | number | Date, timeZone: string | undefined): string {
  const parts = zoneParts(value instanceof Date ? value : new Date(value), timeZone);
  return `${parts.year}-${parts.month}-${parts.day}`;
}

function zoneParts(date: Date, timeZone: string | undefined): Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', string> {
  let format: Intl.DateTimeFormat;
  const options: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' };
  try {
    format = new Intl.DateTimeFormat('en-CA', { ...options, timeZone });
  } catch {
    format = new Intl.DateTimeFormat('en-CA', { ...options, timeZone: 'UTC' });
  }
  const parts = Object.fromEntries(format.formatToParts(date).map((part) => [part.type, part.value]));
  return { year: parts['year'], month: parts['month'], day: parts['day'], hour: parts['hour'], minute: parts['minute'], second: parts['second'] };
}

/**
 * The instant (ISO 8601, UTC) at which a calendar day (YYYY-MM-DD) begins in a time zone, so a
 * day picked in the page means the configured zone's day. Undefined for anything that is not a day.
 */
export function startOfDayInZone(day: string, timeZone: string | undefined): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return undefined;
  const wall = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  if (Number.isNaN(wall) || new Date(wall).toISOString().slice(0, 10) !== day) return undefined;
  // The zone's offset at the guess, then again at the corrected instant (a DST change that day).
  let instant = wall - offsetAt(wall, timeZone);
  instant = wall - offsetAt(instant, timeZone);
  return new Date(instant).toISOString();
}

/** The day after a calendar day (YYYY-MM-DD). */
export function nextDay(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, date + 1)).toISOString().slice(0, 10);
}

/** How far the zone's wall clock is ahead of UTC at an instant, in milliseconds. */
function offsetAt(instant: number, timeZone: string | undefined): number {
  const parts = zoneParts(new Date(instant), timeZone);
  const wall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return wall - Math.floor(instant / 1000) * 1000;
}
