import type { Schemas } from '../../api/client';

export type SystemSettings = Schemas['SystemSettingsDto'];
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

/** The time zones this browser knows (the service validates the name again), with the current one kept. */
export function timeZoneOptions(current: string): string[] {
  let zones: string[];
  try {
    zones = (Intl as unknown as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  } catch {
    zones = [];
  }
  const all = new Set(['UTC', ...zones]);
  if (current) all.add(current);
  return [...all];
}

/** The fields that differ from what is saved: the partial PUT body, and whether the form is dirty. */
export function settingsChanges(saved: SystemSettings, values: SystemSettings): Schemas['UpdateSystemSettingsDto'] {
  const body: Schemas['UpdateSystemSettingsDto'] = {};
  if (values.time_zone !== saved.time_zone) body.time_zone = values.time_zone;
  if (values.digest_time !== saved.digest_time) body.digest_time = values.digest_time;
  if (!sameObject(values.weekly_report, saved.weekly_report)) body.weekly_report = values.weekly_report;
  if (!sameObject(values.monthly_report, saved.monthly_report)) body.monthly_report = values.monthly_report;
  if (!sameObject(values.retention, saved.retention)) body.retention = values.retention;
  if (!sameObject(values.aggregation, saved.aggregation)) body.aggregation = values.aggregation;
  const starred = values.starred_username?.trim() ? values.starred_username.trim() : null;
  if (starred !== (saved.starred_username ?? null)) body.starred_username = starred;
  return body;
}

function sameObject(a: object, b: object): boolean {
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  return Object.keys({ ...left, ...right }).every((key) => left[key] === right[key]);
}

export type SettingsErrors = Partial<Record<'digest_time' | 'starred_username', string>>;

export function validateSettings(values: SystemSettings): SettingsErrors {
  const errors: SettingsErrors = {};
  if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(values.digest_time)) errors.digest_time = 'digestTime';
  const starred = values.starred_username?.trim() ?? '';
  if (starred && !/^[A-Za-z0-9-]{1,39}$/.test(starred)) errors.starred_username = 'starredUser';
  return errors;
}
