export const ALERT_KINDS = ['dependabot', 'code_scanning', 'secret_scanning'] as const;
/** The states GitHub reports across the three kinds (secret scanning says resolved, the others fixed or dismissed). */
export const ALERT_STATES = ['open', 'dismissed', 'auto_dismissed', 'fixed', 'resolved', 'closed'] as const;
/** Dependabot and code scanning security severities, then code scanning's rule severities. */
export const ALERT_SEVERITIES = ['critical', 'high', 'medium', 'low', 'error', 'warning', 'note'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
export type AlertState = (typeof ALERT_STATES)[number];
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];
export const ALERTS_PER_PAGE = 25;

/** The security alerts page's filters, as kept in the URL (a reload or a shared link shows the same list). */
export interface SecurityAlertFilter {
  page: number;
  /** Text in the summary, or an alert number. */
  q: string;
  kind: AlertKind | '';
  state: AlertState | '';
  severity: AlertSeverity | '';
  /** '' any, 'yes' only ignored alerts, 'no' only watched ones. */
  ignored: '' | 'yes' | 'no';
  repositoryId: number | null;
}

function oneOf<T extends string>(values: readonly T[], value: string | null): T | '' {
  return value && (values as readonly string[]).includes(value) ? (value as T) : '';
}

export function alertFilterFromParams(params: URLSearchParams): SecurityAlertFilter {
  const page = Number(params.get('page'));
  const repositoryId = Number(params.get('repository'));
  return {
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
    q: (params.get('q') ?? '').trim().slice(0, 200),
    kind: oneOf(ALERT_KINDS, params.get('kind')),
    state: oneOf(ALERT_STATES, params.get('state')),
    severity: oneOf(ALERT_SEVERITIES, params.get('severity')),
    ignored: oneOf(['yes', 'no'] as const, params.get('ignored')),
    repositoryId: Number.isInteger(repositoryId) && repositoryId >= 1 && repositoryId <= 2_147_483_647 ? repositoryId : null,
  };
}

export function alertFilterToParams(filter: SecurityAlertFilter): URLSearchParams {
  const params = new URLSearchParams();
  if (filter.q) params.set('q', filter.q);
  if (filter.kind) params.set('kind', filter.kind);
  if (filter.state) params.set('state', filter.state);
  if (filter.severity) params.set('severity', filter.severity);
  if (filter.ignored) params.set('ignored', filter.ignored);
  if (filter.repositoryId) params.set('repository', String(filter.repositoryId));
  if (filter.page > 1) params.set('page', String(filter.page));
  return params;
}

export function isAlertFiltered(filter: SecurityAlertFilter): boolean {
  return Boolean(filter.q || filter.kind || filter.state || filter.severity || filter.ignored || filter.repositoryId);
}

/** The API query of a filter. */
export function alertQuery(filter: SecurityAlertFilter) {
  return {
    page: filter.page,
    per_page: ALERTS_PER_PAGE,
    ...(filter.q ? { q: filter.q } : {}),
    ...(filter.kind ? { kind: filter.kind } : {}),
    ...(filter.state ? { state: filter.state } : {}),
    ...(filter.severity ? { severity: filter.severity } : {}),
    ...(filter.ignored ? { ignored: filter.ignored === 'yes' } : {}),
    ...(filter.repositoryId ? { repository_id: filter.repositoryId } : {}),
  };
}

/** A state or severity the page has a translation for (GitHub may add others: those show as "other"). */
export function known<T extends string>(values: readonly T[], value: string | null): value is T {
  return value !== null && (values as readonly string[]).includes(value);
}
