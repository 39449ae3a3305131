export const EVENT_CATEGORIES = ['security', 'actions', 'issue', 'pr', 'other'] as const;
export type EventCategory = (typeof EVENT_CATEGORIES)[number];
export const EVENTS_PER_PAGE = 25;

/** The events page's filters, as kept in the URL (so a reload or a shared link shows the same list). */
export interface EventFilter {
  page: number;
  q: string;
  category: EventCategory | '';
  kind: string;
  repositoryId: number | null;
  /** Days (YYYY-MM-DD) in the configured time zone, both included. */
  from: string;
  to: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function eventFilterFromParams(params: URLSearchParams): EventFilter {
  const page = Number(params.get('page'));
  const repositoryId = Number(params.get('repository'));
  const category = params.get('category') ?? '';
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  return {
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
    q: (params.get('q') ?? '').slice(0, 200),
    category: (EVENT_CATEGORIES as readonly string[]).includes(category) ? (category as EventCategory) : '',
    kind: (params.get('kind') ?? '').slice(0, 64),
    repositoryId: Number.isInteger(repositoryId) && repositoryId >= 1 ? repositoryId : null,
    from: DAY.test(from) ? from : '',
    to: DAY.test(to) ? to : '',
  };
}

export function eventFilterToParams(filter: EventFilter): URLSearchParams {
  const params = new URLSearchParams();
  if (filter.q) params.set('q', filter.q);
  if (filter.category) params.set('category', filter.category);
  if (filter.kind) params.set('kind', filter.kind);
  if (filter.repositoryId) params.set('repository', String(filter.repositoryId));
  if (filter.from) params.set('from', filter.from);
  if (filter.to) params.set('to', filter.to);
  if (filter.page > 1) params.set('page', String(filter.page));
  return params;
}

/** Milliseconds the zone is ahead of UTC at `instant`. */
function zoneOffsetMs(instant: number, timeZone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
      .formatToParts(new Date(instant))
      .map((part) => [part.type, part.value]),
  );
  const asUtc = Date.UTC(Number(parts['year']), Number(parts['month']) - 1, Number(parts['day']), Number(parts['hour']), Number(parts['minute']), Number(parts['second']));
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** The instant a day (YYYY-MM-DD) starts in `timeZone`, as an ISO string. */
export function startOfDayIn(day: string, timeZone: string): string {
  const [year, month, date] = day.split('-').map(Number);
  const wall = Date.UTC(year, month - 1, date);
  // Two passes: the offset at the guess, then at the corrected instant (a DST change that day).
  let instant = wall - zoneOffsetMs(wall, timeZone);
  instant = wall - zoneOffsetMs(instant, timeZone);
  return new Date(instant).toISOString();
}

/** The day after a YYYY-MM-DD. */
export function nextDay(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, date + 1)).toISOString().slice(0, 10);
}

/** The API query of a filter: days become the instants they start and end at in the configured zone. */
export function eventQuery(filter: EventFilter, timeZone: string) {
  return {
    page: filter.page,
    per_page: EVENTS_PER_PAGE,
    ...(filter.q ? { q: filter.q } : {}),
    ...(filter.category ? { category: filter.category } : {}),
    ...(filter.kind ? { kind: filter.kind } : {}),
    ...(filter.repositoryId ? { repository_id: filter.repositoryId } : {}),
    ...(filter.from ? { since: startOfDayIn(filter.from, timeZone) } : {}),
    ...(filter.to ? { until: startOfDayIn(nextDay(filter.to), timeZone) } : {}),
  };
}
