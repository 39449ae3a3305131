import type { TFunction } from 'i18next';

/** What a schedule says, in a shape a sentence can be made of; `raw` when it is not one of the common shapes. */
export type ScheduleShape =
  | { kind: 'daily' | 'weekdays' | 'weekends'; time: string }
  | { kind: 'days'; days: number[]; time: string }
  | { kind: 'raw'; text: string };

const DAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

function whole(field: string, max: number): number | undefined {
  if (!/^\d{1,2}$/.test(field)) return undefined;
  const value = Number(field);
  return value <= max ? value : undefined;
}

/** A day-of-week field as the days it names (0 = Sunday), or undefined when it is not a plain list or range. */
function daysOf(field: string): number[] | undefined {
  if (field === '*' || field === '?') return [0, 1, 2, 3, 4, 5, 6];
  const days = new Set<number>();
  const day = (part: string): number | undefined => {
    const named = DAY_NAMES.indexOf(part.toUpperCase());
    if (named >= 0) return named;
    const value = whole(part, 7);
    return value === undefined ? undefined : value % 7;
  };
  for (const part of field.split(',')) {
    const range = part.split('-');
    if (range.length > 2) return undefined;
    const from = day(range[0] ?? '');
    const to = range.length === 2 ? day(range[1] ?? '') : from;
    if (from === undefined || to === undefined) return undefined;
    // 7 as the end of a range is Sunday after Saturday (5-7 is Friday to Sunday).
    const end = range.length === 2 && (range[1] === '7' || to < from) ? to + 7 : to;
    for (let value = from; value <= end; value++) days.add(value % 7);
  }
  return [...days].sort((a, b) => a - b);
}

/** Reads `HH:MM[:SS]` or a 5/6-field cron expression of one time a day on some weekdays. */
export function scheduleShape(schedule: string): ScheduleShape {
  const text = schedule.trim();
  const clock = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (clock) {
    const seconds = clock[3] && clock[3] !== '00' ? `:${clock[3]}` : '';
    return { kind: 'daily', time: `${pad(Number(clock[1]))}:${clock[2]}${seconds}` };
  }
  const fields = text.split(/\s+/);
  if (fields.length !== 5 && fields.length !== 6) return { kind: 'raw', text };
  const [second, minute, hour, dom, month, dow] = fields.length === 6 ? fields : ['0', ...fields];
  const s = whole(second ?? '', 59);
  const m = whole(minute ?? '', 59);
  const h = whole(hour ?? '', 23);
  const days = daysOf(dow ?? '');
  if (s === undefined || m === undefined || h === undefined || dom !== '*' && dom !== '?' || month !== '*' || !days) return { kind: 'raw', text };
  const time = `${pad(h)}:${pad(m)}${s ? `:${pad(s)}` : ''}`;
  const key = days.join(',');
  if (key === '0,1,2,3,4,5,6') return { kind: 'daily', time };
  if (key === '1,2,3,4,5') return { kind: 'weekdays', time };
  if (key === '0,6') return { kind: 'weekends', time };
  return { kind: 'days', days, time };
}

/** A task's schedule as a sentence: "Weekdays at 08:00", "工作日 08:00". */
export function describeSchedule(t: TFunction, task: { execution_mode: string; sign_at?: string | null; range_start?: string | null; range_end?: string | null }): string {
  if (task.execution_mode === 'listen') return t('tasks.listening');
  if (task.execution_mode === 'range') return t('tasks.scheduleText.range', { start: task.range_start ?? '', end: task.range_end ?? '' });
  const shape = scheduleShape(task.sign_at ?? '');
  if (shape.kind === 'raw') return shape.text;
  if (shape.kind === 'days') {
    // Monday first, Sunday last, as a week is read.
    const ordered = [...shape.days].sort((a, b) => ((a + 6) % 7) - ((b + 6) % 7));
    return t('tasks.scheduleText.days', { days: ordered.map((day) => t(`tasks.scheduleText.dayNames.${day}`)).join(t('tasks.scheduleText.daySeparator')), time: shape.time });
  }
  return t(`tasks.scheduleText.${shape.kind}`, { time: shape.time });
}
