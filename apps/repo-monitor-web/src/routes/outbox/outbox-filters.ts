/** The outbox's filters as they live in the URL, so a reload or a shared link keeps them. */
export const OUTBOX_STATES = ['pending', 'sending', 'sent', 'dead', 'suppressed'] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

export interface OutboxFilters {
  state?: OutboxState;
  channel?: string;
  /** Only the entries of this event (a link from the events page). */
  event?: number;
  page: number;
  /** The entry whose detail is open. */
  entry?: number;
}

export function readOutboxFilters(params: URLSearchParams): OutboxFilters {
  const state = params.get('state');
  const channel = params.get('channel');
  const page = Number(params.get('page'));
  const entry = Number(params.get('entry'));
  const event = Number(params.get('event'));
  return {
    event: Number.isInteger(event) && event >= 1 && event <= 2_147_483_647 ? event : undefined,
    state: (OUTBOX_STATES as readonly string[]).includes(state ?? '') ? (state as OutboxState) : undefined,
    channel: channel && channel.length <= 64 ? channel : undefined,
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
    entry: Number.isInteger(entry) && entry >= 1 ? entry : undefined,
  };
}

/** The next URL query: a changed filter starts again at page 1. */
export function writeOutboxFilters(current: OutboxFilters, change: Partial<OutboxFilters>): URLSearchParams {
  const filterChanged =
    ('state' in change && change.state !== current.state) || ('channel' in change && change.channel !== current.channel) || ('event' in change && change.event !== current.event);
  const next: OutboxFilters = { ...current, ...change, ...(filterChanged ? { page: 1 } : {}) };
  const params = new URLSearchParams();
  if (next.state) params.set('state', next.state);
  if (next.channel) params.set('channel', next.channel);
  if (next.event) params.set('event', String(next.event));
  if (next.page > 1) params.set('page', String(next.page));
  if (next.entry) params.set('entry', String(next.entry));
  return params;
}
