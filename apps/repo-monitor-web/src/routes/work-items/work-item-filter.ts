export const WORK_ITEM_KINDS = ['issue', 'pull_request'] as const;
export const WORK_ITEM_STATES = ['open', 'closed'] as const;
export type WorkItemKind = (typeof WORK_ITEM_KINDS)[number];
export type WorkItemState = (typeof WORK_ITEM_STATES)[number];
export const WORK_ITEMS_PER_PAGE = 25;

/** The issues and pull requests page's filters, as kept in the URL (a reload or a shared link shows the same list). */
export interface WorkItemFilter {
  page: number;
  /** Text in the title or author, or a number (`42` or `#42`). */
  q: string;
  kind: WorkItemKind | '';
  state: WorkItemState | '';
  repositoryId: number | null;
}

function oneOf<T extends string>(values: readonly T[], value: string | null): T | '' {
  return value && (values as readonly string[]).includes(value) ? (value as T) : '';
}

export function workItemFilterFromParams(params: URLSearchParams): WorkItemFilter {
  const page = Number(params.get('page'));
  const repositoryId = Number(params.get('repository'));
  return {
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
    q: (params.get('q') ?? '').trim().slice(0, 200),
    kind: oneOf(WORK_ITEM_KINDS, params.get('kind')),
    state: oneOf(WORK_ITEM_STATES, params.get('state')),
    repositoryId: Number.isInteger(repositoryId) && repositoryId >= 1 && repositoryId <= 2_147_483_647 ? repositoryId : null,
  };
}

export function workItemFilterToParams(filter: WorkItemFilter): URLSearchParams {
  const params = new URLSearchParams();
  if (filter.q) params.set('q', filter.q);
  if (filter.kind) params.set('kind', filter.kind);
  if (filter.state) params.set('state', filter.state);
  if (filter.repositoryId) params.set('repository', String(filter.repositoryId));
  if (filter.page > 1) params.set('page', String(filter.page));
  return params;
}

export function isWorkItemFiltered(filter: WorkItemFilter): boolean {
  return Boolean(filter.q || filter.kind || filter.state || filter.repositoryId);
}

/** The API query of a filter. */
export function workItemQuery(filter: WorkItemFilter) {
  return {
    page: filter.page,
    per_page: WORK_ITEMS_PER_PAGE,
    ...(filter.q ? { q: filter.q } : {}),
    ...(filter.kind ? { kind: filter.kind } : {}),
    ...(filter.state ? { state: filter.state } : {}),
    ...(filter.repositoryId ? { repository_id: filter.repositoryId } : {}),
  };
}

/** What a row's state badge says: a closed pull request that was merged shows as merged, an open draft as a draft. */
export function workItemStatus(item: { kind: string; state: string; merged: boolean; draft: boolean }): 'open' | 'draft' | 'merged' | 'closed' {
  if (item.kind === 'pull_request' && item.merged) return 'merged';
  if (item.state === 'open') return item.kind === 'pull_request' && item.draft ? 'draft' : 'open';
  return 'closed';
}
