import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';

/** The service's settings (shared by every page that needs the configured time zone). */
export function useSettingsQuery() {
  return useQuery({ queryKey: ['settings'], queryFn: () => unwrap(api.GET('/api/config/settings')) });
}

/** The time zone the service counts days in (settings.timezone), UTC until loaded. */
export function useTimeZone(): string {
  const settings = useSettingsQuery();
  return settings.data?.timezone ?? 'UTC';
}
