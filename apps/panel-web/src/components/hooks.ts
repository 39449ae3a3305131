import { useQuery, UseMutationOptions } from '@tanstack/react-query';
import { api, Schemas, unwrap } from '../api/client';

type AccountList = Schemas['AccountListDto'];

export const SETTINGS_KEY = ['settings'] as const;

/** The service's settings (shared by every page that needs the configured time zone). */
export function useSettingsQuery() {
  return useQuery({ queryKey: SETTINGS_KEY, queryFn: () => unwrap(api.GET('/api/config/settings')) });
}

/** The time zone the service counts days in (settings.timezone), UTC until loaded. */
export function useTimeZone(): string {
  const settings = useSettingsQuery();
  return settings.data?.timezone ?? 'UTC';
}

/** Every account (one cache entry under ['accounts'] for every page that lists or picks them). */
export function useAccountListQuery<T = AccountList>(select?: (data: AccountList) => T) {
  return useQuery({ queryKey: ['accounts'], queryFn: () => unwrap(api.GET('/api/accounts')), select });
}

/** Every task, unfiltered (the dashboard's count, the history's task filter). */
export function useTaskListQuery() {
  return useQuery({ queryKey: ['tasks'], queryFn: () => unwrap(api.GET('/api/sign-tasks')) });
}

/** Runs in progress, refreshed every few seconds (the dashboard's panel, the task list's run state and cancel). */
export function useActiveRunsQuery() {
  return useQuery({ queryKey: ['runs', 'active'], queryFn: () => unwrap(api.GET('/api/sign-tasks/runs/active')), refetchInterval: 5_000 });
}

/**
 * What a page adds to a data-layer mutation: its toasts, form resets and navigation. The hook keeps the
 * call and the invalidations; `TCall` is the call it wraps (its result and its one argument, if any).
 */
export type MutationCallbacks<TCall extends (...args: never[]) => Promise<unknown>> = Pick<
  UseMutationOptions<Awaited<ReturnType<TCall>>, Error, Parameters<TCall> extends [] ? void : Parameters<TCall>[0]>,
  'onSuccess' | 'onError'
>;

export const CHANNEL_TESTS_KEY = ['notification-tests'] as const;

/** The last test of every notification channel (the settings' cards and the dashboard's checklist). */
export function useChannelTestsQuery() {
  return useQuery({ queryKey: CHANNEL_TESTS_KEY, queryFn: () => unwrap(api.GET('/api/config/notifications/tests')) });
}
