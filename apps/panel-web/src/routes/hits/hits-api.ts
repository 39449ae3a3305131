import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, download, unwrap } from '../../api/client';
import { MutationCallbacks } from '../../components/hooks';
import { HitFilter, HitGroupBy } from './hits-filter';

const HITS = ['keyword-hits'] as const;

/** One page of hits after `cursor` (keyset paging; the previous page stays on screen while the next loads). */
export function useHitsQuery(filter: HitFilter, cursor: string | undefined, limit: number) {
  return useQuery({
    queryKey: [...HITS, 'list', filter, cursor ?? null],
    queryFn: () => unwrap(api.GET('/api/keyword-hits', { params: { query: { ...filter, limit, cursor } } })),
    placeholderData: keepPreviousData,
  });
}

/**
 * One page of hit counts grouped by task, account or chat, the group with the latest hit first
 * (the grouped views page by `cursor`; the filters' choices ask for the first `limit` groups).
 */
export function useHitGroupsQuery(groupBy: HitGroupBy, filter: HitFilter, { enabled = true, cursor, limit }: { enabled?: boolean; cursor?: string; limit: number }) {
  return useQuery({
    queryKey: [...HITS, 'groups', groupBy, filter, cursor ?? null, limit],
    enabled,
    queryFn: () => unwrap(api.GET('/api/keyword-hits/groups', { params: { query: { ...filter, group_by: groupBy, cursor, limit } } })),
    placeholderData: keepPreviousData,
  });
}

const deleteHits = (filter: HitFilter) => unwrap(api.DELETE('/api/keyword-hits', { params: { query: filter } }));

/** Deletes every hit the filter matches; after the page's callback the hits and the statistics are read again. */
export function useDeleteHits(callbacks: MutationCallbacks<typeof deleteHits> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteHits,
    ...callbacks,
    onSuccess: (...args) => {
      void callbacks.onSuccess?.(...args);
      void queryClient.invalidateQueries({ queryKey: HITS });
      void queryClient.invalidateQueries({ queryKey: ['stats'] });
    },
  });
}

/** Downloads the hits the filter matches as CSV. */
export function downloadHitsCsv(filter: HitFilter): Promise<void> {
  return download(`/api/keyword-hits/export?${queryString(filter)}`, 'keyword-hits.csv');
}

/** The filter as a query string for the CSV download (the same filter the list shows). */
export function queryString(filter: HitFilter): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) if (value) query.set(key, value);
  return query.toString();
}
