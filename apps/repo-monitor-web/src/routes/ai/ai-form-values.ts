import type { Schemas } from '../../api/client';
import { FieldLock, fieldLocks } from '../../components/locked-field';

export type AiSettings = Schemas['AiSettingsDto'];
export const AI_FEATURES = ['digest_enabled', 'triage_enabled', 'release_summary_enabled', 'code_review_enabled', 'failure_analysis_enabled'] as const;
export type AiField = 'enabled' | 'api_key' | 'base_url' | 'model' | 'timeout' | 'max_tokens' | 'retries' | (typeof AI_FEATURES)[number];

/** The environment variable that sets (and locks) each AI field. */
export const AI_VARIABLES: Record<AiField, string> = {
  enabled: 'MONITOR_AI_ENABLED',
  api_key: 'MONITOR_AI_API_KEY',
  base_url: 'MONITOR_AI_BASE_URL',
  model: 'MONITOR_AI_MODEL',
  timeout: 'MONITOR_AI_TIMEOUT',
  max_tokens: 'MONITOR_AI_MAX_TOKENS',
  retries: 'MONITOR_AI_RETRIES',
  digest_enabled: 'MONITOR_AI_DIGEST_ENABLED',
  triage_enabled: 'MONITOR_AI_TRIAGE_ENABLED',
  release_summary_enabled: 'MONITOR_AI_RELEASE_SUMMARY_ENABLED',
  code_review_enabled: 'MONITOR_AI_CODE_REVIEW_ENABLED',
  failure_analysis_enabled: 'MONITOR_AI_FAILURE_ANALYSIS_ENABLED',
};

export function aiLocks(settings: AiSettings): Record<AiField, FieldLock> {
  return fieldLocks(settings.locked_fields, AI_VARIABLES);
}

export type AiFormValues = Omit<AiSettings, 'api_key_set' | 'locked_fields'> & { api_key: string; clear_api_key: boolean };

export function aiFormFrom(settings: AiSettings): AiFormValues {
  const { api_key_set: _set, locked_fields: _locked, ...rest } = settings;
  return { ...rest, api_key: '', clear_api_key: false };
}

/** The PUT body: changed, unlocked fields only; the key only when typed (or null to remove it). */
export function aiUpdateBody(values: AiFormValues, settings: AiSettings): Schemas['UpdateAiSettingsDto'] {
  const locks = aiLocks(settings);
  const body: Record<string, unknown> = {};
  for (const field of ['enabled', 'base_url', 'model', 'timeout', 'max_tokens', 'retries', ...AI_FEATURES] as const) {
    if (locks[field].locked) continue;
    const value = typeof values[field] === 'string' ? (values[field] as string).trim() : values[field];
    if (value !== settings[field]) body[field] = value;
  }
  if (!locks.api_key.locked) {
    if (values.clear_api_key) body['api_key'] = null;
    else if (values.api_key) body['api_key'] = values.api_key;
  }
  return body as Schemas['UpdateAiSettingsDto'];
}

/** The connection test tries the form as it is, saved or not (locked fields use the environment's value). */
export function aiTestBody(values: AiFormValues, settings: AiSettings): Schemas['AiTestDto'] {
  const locks = aiLocks(settings);
  const body: Schemas['AiTestDto'] = {};
  if (!locks.base_url.locked && values.base_url.trim()) body.base_url = values.base_url.trim();
  if (!locks.model.locked && values.model.trim()) body.model = values.model.trim();
  if (!locks.timeout.locked && values.timeout.trim()) body.timeout = values.timeout.trim();
  if (!locks.max_tokens.locked) body.max_tokens = values.max_tokens;
  if (!locks.retries.locked) body.retries = values.retries;
  if (!locks.api_key.locked && values.api_key && !values.clear_api_key) body.api_key = values.api_key;
  return body;
}
