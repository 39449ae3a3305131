import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api, unwrap } from '../../api/client';
import { MutationCallbacks } from '../../components/hooks';

const STATS = ['stats', 'dashboard'] as const;
const ACTIVE_RUNS = ['runs', 'active'] as const;

/** Today's figures, the 14-day series and the failure categories, refreshed every 30 s. */
export function useDashboardStatsQuery() {
  return useQuery({ queryKey: STATS, queryFn: () => unwrap(api.GET('/api/stats/dashboard', { params: { query: { days: 14 } } })), refetchInterval: 30_000 });
}

/** The scheduler's next jobs, refreshed every minute. */
export function useScheduledJobsQuery() {
  return useQuery({ queryKey: ['scheduled-jobs'], queryFn: () => unwrap(api.GET('/api/ops/scheduled-jobs')), refetchInterval: 60_000 });
}

/** After a live sign log arrives: the figures and the active runs are read again (a stable callback). */
export function useRefreshAfterLiveLog(): () => void {
  const queryClient = useQueryClient();
  return useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: STATS });
    void queryClient.invalidateQueries({ queryKey: ACTIVE_RUNS });
  }, [queryClient]);
}

const cancelRun = (task: string) => unwrap(api.POST('/api/sign-tasks/{name}/run/cancel', { params: { path: { name: task } } }));

/** Cancels a task's running run; the active runs are read again after the page's callback. */
export function useCancelRun(callbacks: MutationCallbacks<typeof cancelRun> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelRun,
    ...callbacks,
    onSuccess: (...args) => {
      void callbacks.onSuccess?.(...args);
      void queryClient.invalidateQueries({ queryKey: ACTIVE_RUNS });
    },
  });
}
