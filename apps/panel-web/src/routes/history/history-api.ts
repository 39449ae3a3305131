import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { paths } from '../../api/schema';

export type RunsFilter = NonNullable<paths['/api/runs']['get']['parameters']['query']>;

/** One page of finished runs (the previous page stays on screen while the next loads). */
export function useRunsQuery(query: RunsFilter) {
  return useQuery({ queryKey: ['runs', query], queryFn: () => unwrap(api.GET('/api/runs', { params: { query } })), placeholderData: keepPreviousData });
}

/** One run with its step log, read while its drawer is open. */
export function useRunQuery(runId: string | null) {
  return useQuery({ queryKey: ['run', runId], enabled: !!runId, queryFn: () => unwrap(api.GET('/api/runs/{run_id}', { params: { path: { run_id: runId ?? '' } } })) });
}
