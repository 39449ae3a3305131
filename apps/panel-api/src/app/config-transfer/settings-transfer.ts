import { secretsLeftAtOldDestination } from '../settings/secret-destinations';
import { SETTINGS_FIELDS, SettingsGroup, settingsPatchViolations } from '../settings/settings-fields';
import { SettingsService } from '../settings/settings.service';
import { SettingsPatch } from '../settings/settings.types';
import { isSecretPlaceholder, maskSecret } from './config-sections';

/** Names of the settings groups in the configuration JSON. */
const EXPORT_GROUP: Record<SettingsGroup, string> = { global: 'global', ai: 'ai', telegramApi: 'telegram_api' };
const GROUP_OF_EXPORT_NAME = new Map(Object.entries(EXPORT_GROUP).map(([group, name]) => [name, group as SettingsGroup]));

type FieldName = keyof SettingsPatch;
const FIELD_ENTRIES = Object.entries(SETTINGS_FIELDS) as Array<[FieldName, (typeof SETTINGS_FIELDS)[FieldName]]>;

function storedGroups(settings: SettingsService): Record<SettingsGroup, Record<string, unknown>> {
  return {
    global: { ...settings.getGlobal() },
    ai: { ...settings.getAi() },
    telegramApi: { ...settings.getTelegramApi() },
  };
}

/** `{ global, ai, telegram_api }` with every secret as `***MASKED***` (or null when none is stored). */
export function exportSettings(settings: SettingsService): Record<string, Record<string, unknown>> {
  const stored = storedGroups(settings);
  const out: Record<string, Record<string, unknown>> = { global: {}, ai: {}, telegram_api: {} };
  for (const [, field] of FIELD_ENTRIES) {
    const value = stored[field.group][field.key];
    out[EXPORT_GROUP[field.group]][field.key] = field.secret ? maskSecret(value as string | null) : value;
  }
  return out;
}

export interface SettingsImportPlan {
  problems: string[];
  patch: SettingsPatch;
  /** Dotted names (`global.timezone`) of the settings the import would change. */
  changed: string[];
  /** Secret settings whose placeholder keeps the stored value. */
  keptSecrets: string[];
}

/** Checks the `settings` part of an import completely and turns it into a settings patch; writes nothing. */
export function planSettingsImport(input: unknown, settings: SettingsService): SettingsImportPlan {
  const plan: SettingsImportPlan = { problems: [], patch: {}, changed: [], keptSecrets: [] };
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    plan.problems.push('settings must be an object with global, ai and telegram_api');
    return plan;
  }
  const stored = storedGroups(settings);
  const patch: Record<string, unknown> = {};
  for (const [groupName, groupValue] of Object.entries(input as Record<string, unknown>)) {
    const group = GROUP_OF_EXPORT_NAME.get(groupName);
    if (!group) {
      plan.problems.push(`settings.${groupName} is not a settings group (expected global, ai or telegram_api)`);
      continue;
    }
    if (groupValue === null || typeof groupValue !== 'object' || Array.isArray(groupValue)) {
      plan.problems.push(`settings.${groupName} must be an object`);
      continue;
    }
    for (const [key, value] of Object.entries(groupValue as Record<string, unknown>)) {
      const entry = FIELD_ENTRIES.find(([, field]) => field.group === group && field.key === key);
      if (!entry) {
        plan.problems.push(`settings.${groupName}.${key} is not a known setting`);
        continue;
      }
      const [apiName, field] = entry;
      if (field.secret && isSecretPlaceholder(value)) {
        plan.keptSecrets.push(`${groupName}.${key}`);
        continue;
      }
      patch[apiName] = value;
      if (stored[group][key] !== value) plan.changed.push(`${groupName}.${key}`);
    }
  }
  // A masked secret is "kept", and a kept secret does not follow its URL to another server.
  const keptSecretsLeftBehind = secretsLeftAtOldDestination((name) => settings.stored(name), patch as SettingsPatch);
  for (const violation of [...settingsPatchViolations(patch), ...keptSecretsLeftBehind]) {
    const [apiName, ...rest] = violation.split(' ');
    const field = SETTINGS_FIELDS[apiName as FieldName];
    plan.problems.push(field ? `settings.${EXPORT_GROUP[field.group]}.${field.key} ${rest.join(' ')}` : `settings: ${violation}`);
  }
  plan.patch = patch as SettingsPatch;
  return plan;
}

/** Everything stored now as a patch, so an import can put it back if a later step fails. */
export function currentSettingsAsPatch(settings: SettingsService): SettingsPatch {
  const stored = storedGroups(settings);
  const patch: Record<string, unknown> = {};
  for (const [apiName, field] of FIELD_ENTRIES) patch[apiName] = stored[field.group][field.key];
  return patch as SettingsPatch;
}
