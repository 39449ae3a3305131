import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, Schemas, unwrap } from '../../api/client';
import { useAccountListQuery } from '../../components/hooks';

export type Task = Schemas['SignTaskDto'];
export type TaskBody = Schemas['SignTaskInputDto'];
export type BatchAction = Schemas['BatchTasksDto']['action'];
export type RunStatus = Schemas['TaskRunStatusDto'];

export interface TaskFilter {
  account?: string;
  enabled?: 'true' | 'false';
  execution_mode?: 'fixed' | 'range' | 'listen';
}

const TASKS = ['tasks'] as const;

export function useTasksQuery(filter: TaskFilter = {}) {
  return useQuery({ queryKey: [...TASKS, filter], queryFn: () => unwrap(api.GET('/api/sign-tasks', { params: { query: filter } })) });
}

export function useTaskQuery(name: string | undefined) {
  return useQuery({
    queryKey: [...TASKS, 'one', name],
    enabled: name !== undefined,
    queryFn: () => unwrap(api.GET('/api/sign-tasks/{name}', { params: { path: { name: name ?? '' } } })),
  });
}

export function useAccountNamesQuery() {
  return useAccountListQuery((data) => data.accounts.map((account) => account.account_name));
}

/** Runs in progress (shared with the dashboard: one ['runs', 'active'] query). */
export { useActiveRunsQuery } from '../../components/hooks';

/** The task's in-memory run; polled every second while a run is going, so its step log arrives live. */
export function useRunStatusQuery(name: string, watch: boolean) {
  return useQuery({
    queryKey: ['runs', 'status', name],
    queryFn: () => unwrap(api.GET('/api/sign-tasks/{name}/run/status', { params: { path: { name } } })),
    refetchInterval: (query) => (watch || query.state.data?.state === 'running' ? 1_000 : false),
  });
}

export function useTaskHistoryQuery(name: string) {
  return useQuery({
    queryKey: ['runs', 'history', name],
    queryFn: () => unwrap(api.GET('/api/sign-tasks/{name}/history', { params: { path: { name }, query: { limit: 10 } } })),
  });
}

/** After any write: the lists, the task and the runs are read again. */
function useInvalidate() {
  const client = useQueryClient();
  return () => Promise.all([client.invalidateQueries({ queryKey: TASKS }), client.invalidateQueries({ queryKey: ['runs'] })]);
}

export function useSaveTask() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ original, body }: { original?: string; body: TaskBody }) =>
      original === undefined
        ? unwrap(api.POST('/api/sign-tasks', { body }))
        : unwrap(api.PUT('/api/sign-tasks/{name}', { params: { path: { name: original } }, body })),
    onSuccess: invalidate,
  });
}

export function useBatch() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ action, names }: { action: BatchAction; names: string[] }) => unwrap(api.POST('/api/batch/sign-tasks', { body: { action, names } })),
    onSettled: invalidate,
  });
}

export function useSetEnabled() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ name, enabled }: { name: string; enabled: boolean }) =>
      enabled
        ? unwrap(api.POST('/api/sign-tasks/{name}/enable', { params: { path: { name } } }))
        : unwrap(api.POST('/api/sign-tasks/{name}/disable', { params: { path: { name } } })),
    onSuccess: invalidate,
  });
}

export function useDeleteTask() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (name: string) => unwrap(api.DELETE('/api/sign-tasks/{name}', { params: { path: { name } } })),
    onSuccess: invalidate,
  });
}

export function useCloneTask() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ name, newName }: { name: string; newName: string }) => unwrap(api.POST('/api/sign-tasks/{name}/clone', { params: { path: { name } }, body: { new_name: newName } })),
    onSuccess: invalidate,
  });
}

export function useRunTask() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ name, account }: { name: string; account?: string }) =>
      unwrap(api.POST('/api/sign-tasks/{name}/run', { params: { path: { name } }, body: account ? { account_name: account } : {} })),
    onSuccess: invalidate,
  });
}

export function useCancelRun() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (name: string) => unwrap(api.POST('/api/sign-tasks/{name}/run/cancel', { params: { path: { name } } })),
    onSuccess: invalidate,
  });
}

export interface PreviewInput {
  execution_mode: 'fixed' | 'range';
  sign_at?: string;
  range_start?: string;
  range_end?: string;
  random_seconds?: number;
}

/** The next five run times, computed by the service with the scheduler's code. */
export function useSchedulePreviewQuery(input: PreviewInput | undefined) {
  return useQuery({
    queryKey: ['schedule-preview', input],
    enabled: input !== undefined,
    staleTime: 30_000,
    queryFn: () => unwrap(api.POST('/api/sign-tasks/schedule-preview', { body: { random_seconds: 0, ...(input as PreviewInput), count: 5 } })),
  });
}

/** The scheduler's jobs (the dashboard's ['scheduled-jobs'] query): a sign job's id is `sign-{account}-{task}`. */
export function useScheduledJobsQuery() {
  return useQuery({ queryKey: ['scheduled-jobs'], queryFn: () => unwrap(api.GET('/api/ops/scheduled-jobs')), refetchInterval: 60_000 });
}

/** A task's next scheduled run: the earliest of its accounts' sign jobs, or null when none is scheduled. */
export function nextRunOf(task: Pick<Task, 'name' | 'account_name' | 'account_names'>, jobs: ReadonlyArray<{ id: string; type: string; next_run_at: string | null }>, allAccounts: readonly string[]): string | null {
  const names = task.account_names ?? (task.account_name ? [task.account_name] : []);
  const accounts = names.includes('*') ? allAccounts : names;
  const ids = new Set(accounts.map((account) => `sign-${account}-${task.name}`));
  const times = jobs.filter((job) => job.type === 'sign' && job.next_run_at && ids.has(job.id)).map((job) => job.next_run_at as string);
  return times.sort()[0] ?? null;
}

/** The service's running parts (the About page's query): the listeners' state per account is in it. */
export function useRuntimeStatusQuery() {
  return useQuery({ queryKey: ['ops', 'runtime'], queryFn: () => unwrap(api.GET('/api/ops/runtime-status')), refetchInterval: 15_000 });
}

export type ListenerHealth = 'listening' | 'starting' | 'failing' | 'not_listening';

/**
 * How a listen task's listeners are doing, from the listeners' details of the runtime status
 * (`accounts: {<account>: {state, tasks}}`): failing when any account's listener failed or needs a
 * login, listening when every one listens, not listening when none runs for the task.
 */
export function listenerHealthOf(taskName: string, details: Record<string, unknown> | undefined): { health: ListenerHealth; accounts: string[] } {
  const accounts = (details?.['accounts'] ?? {}) as Record<string, { state?: unknown; tasks?: unknown }>;
  const mine = Object.entries(accounts).filter(([, status]) => Array.isArray(status.tasks) && status.tasks.includes(taskName));
  const failing = mine.filter(([, status]) => status.state === 'error' || status.state === 'needs_relogin').map(([account]) => account);
  if (failing.length) return { health: 'failing', accounts: failing };
  if (mine.length && mine.every(([, status]) => status.state === 'listening')) return { health: 'listening', accounts: mine.map(([account]) => account) };
  if (mine.some(([, status]) => status.state === 'starting')) return { health: 'starting', accounts: mine.map(([account]) => account) };
  return { health: 'not_listening', accounts: [] };
}

export type AccountChat = Schemas['AccountChatDto'];

/** The chats of an account for the editor's picker, searched by the service among its recent dialogs (no retry: a failure says "type the id"). */
export function useAccountChatsQuery(account: string | undefined, q: string) {
  return useQuery({
    queryKey: ['accounts', account, 'chats', q],
    enabled: account !== undefined,
    retry: false,
    staleTime: 60_000,
    queryFn: () => unwrap(api.GET('/api/accounts/{account_name}/chats', { params: { path: { account_name: account ?? '' }, query: q ? { q } : {} } })),
  });
}
