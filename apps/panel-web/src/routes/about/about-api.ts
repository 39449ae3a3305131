import { useMutation, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { MutationCallbacks } from '../../components/hooks';

const OPS = ['ops'] as const;

export function useVersionQuery() {
  return useQuery({ queryKey: [...OPS, 'version'], queryFn: () => unwrap(api.GET('/api/ops/version')) });
}

/** Process memory, refreshed every 30 s. */
export function useMemoryQuery() {
  return useQuery({ queryKey: [...OPS, 'memory'], queryFn: () => unwrap(api.GET('/api/ops/memory')), refetchInterval: 30_000 });
}

/** Each feature's runtime state (scheduler lock included), refreshed every 15 s. */
export function useRuntimeQuery() {
  return useQuery({ queryKey: [...OPS, 'runtime'], queryFn: () => unwrap(api.GET('/api/ops/runtime-status')), refetchInterval: 15_000 });
}

/** The replicas sharing this database and who owns which account, refreshed every 10 s (heartbeats are seconds apart). */
export function useClusterQuery() {
  return useQuery({ queryKey: [...OPS, 'cluster'], queryFn: () => unwrap(api.GET('/api/ops/cluster')), refetchInterval: 10_000 });
}

/** Asks the service to look for a newer release now (bypassing its cache). */
const checkForUpdate = () => unwrap(api.POST('/api/ops/version/check', { params: { query: { force: true } } }));

export function useCheckForUpdate(callbacks: MutationCallbacks<typeof checkForUpdate> = {}) {
  return useMutation({ mutationFn: checkForUpdate, ...callbacks });
}
