/** Calendar days in a time zone, as UTC instants (for counting "today" and per-day figures on the server). */

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function offsetMilliseconds(instant: number, timeZone: string): number {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const parts = Object.fromEntries(format.formatToParts(new Date(instant)).map((part) => [part.type, part.value]));
  const asUtc = Date.UTC(Number(parts['year']), Number(parts['month']) - 1, Number(parts['day']), Number(parts['hour']), Number(parts['minute']), Number(parts['second']));
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** The first instant of `day` (YYYY-MM-DD) in `timeZone` (DST-safe). */
export function startOfZonedDay(day: string, timeZone: string): Date {
  const match = DAY.exec(day);
  if (!match) throw new Error(`not a day: ${day}`);
  const wall = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  let instant = wall - offsetMilliseconds(wall, timeZone);
  const corrected = wall - offsetMilliseconds(instant, timeZone);
  if (corrected !== instant) instant = corrected;
  return new Date(instant);
}

/** The day (YYYY-MM-DD) an instant falls on in `timeZone`. */
export function zonedDay(instant: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(instant).map((part) => [part.type, part.value]),
  );
  return `${parts['year']}-${parts['month']}-${parts['day']}`;
}

/** The day before or after `day` (calendar arithmetic, no zone involved). */
export function addDays(day: string, delta: number): string {
  const match = DAY.exec(day);
  if (!match) throw new Error(`not a day: ${day}`);
  return new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + delta)).toISOString().slice(0, 10);
}

/** True for a real calendar day written YYYY-MM-DD. */
export function isDay(value: string): boolean {
  const match = DAY.exec(value);
  return !!match && addDays(value, 0) === value;
}
