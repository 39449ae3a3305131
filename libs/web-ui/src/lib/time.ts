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
