export const REPOSITORY_SOURCES = ['installation', 'external'] as const;
export const REPOSITORY_STATUSES = ['active', 'archived', 'removed'] as const;
export type RepositorySource = (typeof REPOSITORY_SOURCES)[number];
export type RepositoryStatus = (typeof REPOSITORY_STATUSES)[number];
export const REPOSITORIES_PER_PAGE = 25;
/** The API refuses more external repositories than this (POST answers 409). */
export const MAX_EXTERNAL_REPOSITORIES = 20;
/** The per-kind notification switches PATCH /api/v1/repositories/{id} accepts, in the order shown. */
export const NOTIFY_KINDS = ['issues', 'pull_requests', 'workflow_runs', 'security_alerts', 'releases', 'stars'] as const;
export type NotifyKind = (typeof NOTIFY_KINDS)[number];

/** The repositories page's filters, as kept in the URL. */
export interface RepositoryFilter {
  page: number;
  q: string;
  source: RepositorySource | '';
  status: RepositoryStatus | '';
}

function oneOf<T extends string>(values: readonly T[], value: string | null): T | '' {
  return value !== null && (values as readonly string[]).includes(value) ? (value as T) : '';
}

export function repositoryFilterFromParams(params: URLSearchParams): RepositoryFilter {
  const page = Number(params.get('page'));
  return {
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
    q: (params.get('q') ?? '').trim().slice(0, 200),
    source: oneOf(REPOSITORY_SOURCES, params.get('source')),
    status: oneOf(REPOSITORY_STATUSES, params.get('status')),
  };
}

export function repositoryFilterToParams(filter: RepositoryFilter): URLSearchParams {
  const params = new URLSearchParams();
  if (filter.q) params.set('q', filter.q);
  if (filter.source) params.set('source', filter.source);
  if (filter.status) params.set('status', filter.status);
  if (filter.page > 1) params.set('page', String(filter.page));
  return params;
}

export function repositoryQuery(filter: RepositoryFilter) {
  return {
    page: filter.page,
    per_page: REPOSITORIES_PER_PAGE,
    ...(filter.q ? { q: filter.q } : {}),
    ...(filter.source ? { source: filter.source } : {}),
    ...(filter.status ? { status: filter.status } : {}),
  };
}

/** "owner/name" as GitHub allows it (also accepts a pasted https://github.com/owner/name URL); null when it is not one. */
export function parseFullName(input: string): string | null {
  const text = input
    .trim()
    .replace(/^https?:\/\/github\.com\//i, '')
    .replace(/\.git$/i, '')
    .replace(/\/+$/, '');
  return /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/[A-Za-z0-9._-]{1,100}$/.test(text) && !/\/\.\.?$/.test(text) ? text : null;
}
