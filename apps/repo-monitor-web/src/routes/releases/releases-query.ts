/** The page's search and page number as they live in the URL, so a reload or a shared link keeps them. */
export interface ReleasesQuery {
  q?: string;
  page: number;
}

/** The API's bound on the search text. */
export const SEARCH_MAX_LENGTH = 200;

export function readReleasesQuery(params: URLSearchParams): ReleasesQuery {
  const q = params.get('q')?.trim();
  const page = Number(params.get('page'));
  return {
    q: q && q.length <= SEARCH_MAX_LENGTH ? q : undefined,
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
  };
}

/** The next URL query: a changed search starts again at page 1. */
export function writeReleasesQuery(current: ReleasesQuery, change: Partial<ReleasesQuery>): URLSearchParams {
  const searchChanged = 'q' in change && (change.q || undefined) !== current.q;
  const next: ReleasesQuery = { ...current, ...change, ...(searchChanged ? { page: 1 } : {}) };
  const params = new URLSearchParams();
  if (next.q) params.set('q', next.q);
  if (next.page > 1) params.set('page', String(next.page));
  return params;
}
