import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';

/** General settings (also the settings page's data, so a saved time zone shows everywhere at once). */
export function useSystemSettingsQuery() {
  return useQuery({ queryKey: ['system-settings'], queryFn: () => unwrap(api.GET('/api/v1/system/settings')), staleTime: 60_000 });
}

/** The time zone the service counts days in and the console shows times in; UTC until loaded. */
export function useTimeZone(): string {
  return useSystemSettingsQuery().data?.time_zone ?? 'UTC';
}
