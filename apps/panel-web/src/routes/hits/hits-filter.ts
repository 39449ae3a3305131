import { nextDay, startOfDayInZone } from '@shared/web-ui';

/** The filters kept in the URL; `since`/`until` are calendar days of the configured time zone. */
export const HIT_FILTER_KEYS = ['account', 'task', 'chat', 'q', 'since', 'until'] as const;
export type HitFilterKey = (typeof HIT_FILTER_KEYS)[number];

export const HIT_VIEWS = ['list', 'task', 'account', 'chat'] as const;
export type HitView = (typeof HIT_VIEWS)[number];
export type HitGroupBy = Exclude<HitView, 'list'>;

/** The filter as every keyword-hits route takes it (list, groups, export, delete). */
export interface HitFilter {
  account?: string;
  task?: string;
  chat?: string;
  q?: string;
  since?: string;
  until?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The API filter for the URL's parameters: text values trimmed (empty means no filter), days turned
 * into the instants they begin at in the configured zone, `until` inclusive of its whole day.
 * A day that is not a day is ignored rather than sent for a 400.
 */
export function hitFilterFromParams(params: URLSearchParams, timeZone: string): HitFilter {
  const text = (key: HitFilterKey) => params.get(key)?.trim() || undefined;
  const since = text('since');
  const until = text('until');
  return {
    account: text('account'),
    task: text('task'),
    chat: text('chat'),
    q: text('q'),
    since: since && DAY.test(since) ? startOfDayInZone(since, timeZone) : undefined,
    until: until && DAY.test(until) && startOfDayInZone(until, timeZone) ? startOfDayInZone(nextDay(until), timeZone) : undefined,
  };
}

export function hitViewFromParams(params: URLSearchParams): HitView {
  const view = params.get('view');
  return (HIT_VIEWS as readonly string[]).includes(view ?? '') ? (view as HitView) : 'list';
}

/** True when any filter is set (deleting then deletes only the matching hits, not all of them). */
export function isFiltered(params: URLSearchParams): boolean {
  return HIT_FILTER_KEYS.some((key) => !!params.get(key)?.trim());
}

/**
 * The URL after changing some parameters: an empty value removes one, and any change of the
 * filter or the view starts again at the first page (a cursor belongs to the filter it came from).
 */
export function withParams(params: URLSearchParams, changes: Record<string, string | undefined>): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(changes)) {
    if (value) next.set(key, value);
    else next.delete(key);
  }
  if (!('cursor' in changes)) next.delete('cursor');
  return next;
}
