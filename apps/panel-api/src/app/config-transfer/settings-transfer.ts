import { secretsLeftAtOldDestination } from '../settings/secret-destinations';
import { SETTINGS_FIELDS, settingsPatchViolations } from '../settings/settings-fields';
import { SettingsService } from '../settings/settings.service';
import { SettingsPatch } from '../settings/settings.types';
import { isSecretPlaceholder, maskSecret } from './config-sections';
import { isJsonObject, ItemReport, Json, wholeNumber } from './import-report';

type FieldName = keyof SettingsPatch;

/**
 * Keys of `settings.global` as the reference panel (TG-SignPulse) writes them, mapped to this
 * panel's settings. This panel's own names (earlier exports) are accepted as well.
 */
const GLOBAL_KEYS: Record<string, FieldName> = {
  webdav_url: 'webdav_url',
  webdav_username: 'webdav_username',
  webdav_password: 'webdav_password',
  webdav_remote_dir: 'webdav_dir',
  webdav_dir: 'webdav_dir',
  telegram_bot_token: 'bot_token',
  bot_token: 'bot_token',
  telegram_bot_chat_id: 'bot_chat_id',
  bot_chat_id: 'bot_chat_id',
  telegram_bot_notify_enabled: 'bot_notify_enabled',
  bot_notify_enabled: 'bot_notify_enabled',
  telegram_bot_login_notify_enabled: 'bot_notify_admin_login',
  bot_notify_admin_login: 'bot_notify_admin_login',
  telegram_bot_task_failure_enabled: 'bot_notify_task_failure',
  bot_notify_task_failure: 'bot_notify_task_failure',
  telegram_bot_task_success_enabled: 'bot_notify_task_success',
  bot_notify_task_success: 'bot_notify_task_success',
  bot_notify_session_invalid: 'bot_notify_session_invalid',
  // Notice channels and switches of this panel (the reference panel has only the bot).
  bot_notify_backup_failure: 'bot_notify_backup_failure',
  push_bark_url: 'push_bark_url',
  push_server_chan_key: 'push_server_chan_key',
  push_ntfy_url: 'push_ntfy_url',
  push_ntfy_token: 'push_ntfy_token',
  push_discord_url: 'push_discord_url',
  push_slack_url: 'push_slack_url',
  push_teams_url: 'push_teams_url',
  push_gotify_url: 'push_gotify_url',
  push_gotify_token: 'push_gotify_token',
  push_email_smtp_host: 'push_email_smtp_host',
  push_email_smtp_port: 'push_email_smtp_port',
  push_email_smtp_security: 'push_email_smtp_security',
  push_email_smtp_username: 'push_email_smtp_username',
  push_email_smtp_password: 'push_email_smtp_password',
  push_email_from: 'push_email_from',
  push_email_to: 'push_email_to',
  webhook_url: 'webhook_url',
  webhook_secret: 'webhook_secret',
  push_notify_task_failure: 'push_notify_task_failure',
  push_notify_task_success: 'push_notify_task_success',
  push_notify_backup_failure: 'push_notify_backup_failure',
  push_notify_session_invalid: 'push_notify_session_invalid',
  push_notify_admin_login: 'push_notify_admin_login',
  notify_language: 'notify_language',
  device_keepalive_enabled: 'device_keepalive_enabled',
  device_keepalive_interval_days: 'device_keepalive_interval_days',
  auto_backup_enabled: 'auto_backup_enabled',
  auto_backup_interval_hours: 'auto_backup_interval_hours',
  auto_backup_keep: 'auto_backup_keep',
  timezone: 'timezone',
  safety_min_spacing_seconds: 'safety_min_spacing_seconds',
  safety_per_minute: 'safety_per_minute',
  safety_per_day: 'safety_per_day',
  safety_jitter_ms: 'safety_jitter_ms',
  safety_flood_pause_seconds: 'safety_flood_pause_seconds',
};

const AI_KEYS: Record<string, FieldName> = { api_key: 'ai_api_key', base_url: 'ai_base_url', model: 'ai_model' };

/** `table[key]` only when `key` is the table's own entry: `toString` or `__proto__` must not find Object's. */
function ownEntry<T>(table: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/**
 * Names no setting has and no document of either panel writes, but that mean something to every
 * JavaScript object (`__proto__`, `constructor`, `toString` …): a document that carries one is
 * refused as a whole rather than read.
 */
function isObjectBuiltinName(key: string): boolean {
  return key === '__proto__' || key === 'prototype' || key in Object.prototype;
}

/** Global settings of the reference panel that have no equivalent here, and why. */
const GLOBAL_WITHOUT_EQUIVALENT: Record<string, string> = {
  sign_interval: 'no global pause between tasks here (a task has its own sign_interval between chats)',
  log_retention_days: 'run history is kept by SYSTEM maintenance here (see docs/data-and-backups.md)',
  data_dir: 'the data directory is APP_DATA_DIR here, a deployment variable',
  global_proxy: 'no global proxy here: set a proxy per account',
  tg_global_concurrency: 'no global Telegram concurrency setting here',
  telegram_bot_quiet_hours_enabled: 'no quiet hours for bot notifications here',
  telegram_bot_quiet_hours_start: 'no quiet hours for bot notifications here',
  telegram_bot_quiet_hours_end: 'no quiet hours for bot notifications here',
  telegram_bot_message_thread_id: 'bot notifications go to the chat, not to a forum topic, here',
  sign_task_execution_timeout: 'fixed here: a run times out after 300 s',
  sign_task_account_cooldown: 'fixed here: 5 s between runs of one account',
  sign_task_flow_retry_attempts: 'each task has retry_count here',
  sign_task_history_max_age_days: 'run history is kept by system maintenance here',
  ai_vision_timeout: 'no separate AI vision timeout here',
  ai_vision_retry_attempts: 'no separate AI vision retries here',
};

/** The reference panel's names for this panel's global settings, for the export. */
const EXPORT_GLOBAL_KEYS: Array<[string, FieldName]> = [
  ['device_keepalive_enabled', 'device_keepalive_enabled'],
  ['device_keepalive_interval_days', 'device_keepalive_interval_days'],
  ['telegram_bot_notify_enabled', 'bot_notify_enabled'],
  ['telegram_bot_login_notify_enabled', 'bot_notify_admin_login'],
  ['telegram_bot_task_failure_enabled', 'bot_notify_task_failure'],
  ['telegram_bot_task_success_enabled', 'bot_notify_task_success'],
  ['bot_notify_session_invalid', 'bot_notify_session_invalid'],
  ['bot_notify_backup_failure', 'bot_notify_backup_failure'],
  ['push_bark_url', 'push_bark_url'],
  ['push_server_chan_key', 'push_server_chan_key'],
  ['push_ntfy_url', 'push_ntfy_url'],
  ['push_ntfy_token', 'push_ntfy_token'],
  ['push_discord_url', 'push_discord_url'],
  ['push_slack_url', 'push_slack_url'],
  ['push_teams_url', 'push_teams_url'],
  ['push_gotify_url', 'push_gotify_url'],
  ['push_gotify_token', 'push_gotify_token'],
  ['push_email_smtp_host', 'push_email_smtp_host'],
  ['push_email_smtp_port', 'push_email_smtp_port'],
  ['push_email_smtp_security', 'push_email_smtp_security'],
  ['push_email_smtp_username', 'push_email_smtp_username'],
  ['push_email_smtp_password', 'push_email_smtp_password'],
  ['push_email_from', 'push_email_from'],
  ['push_email_to', 'push_email_to'],
  ['webhook_url', 'webhook_url'],
  ['webhook_secret', 'webhook_secret'],
  ['push_notify_task_failure', 'push_notify_task_failure'],
  ['push_notify_task_success', 'push_notify_task_success'],
  ['push_notify_backup_failure', 'push_notify_backup_failure'],
  ['push_notify_session_invalid', 'push_notify_session_invalid'],
  ['push_notify_admin_login', 'push_notify_admin_login'],
  ['notify_language', 'notify_language'],
  ['telegram_bot_token', 'bot_token'],
  ['telegram_bot_chat_id', 'bot_chat_id'],
  ['auto_backup_enabled', 'auto_backup_enabled'],
  ['auto_backup_interval_hours', 'auto_backup_interval_hours'],
  ['auto_backup_keep', 'auto_backup_keep'],
  ['webdav_url', 'webdav_url'],
  ['webdav_username', 'webdav_username'],
  ['webdav_password', 'webdav_password'],
  ['webdav_remote_dir', 'webdav_dir'],
  ['timezone', 'timezone'],
  ['safety_min_spacing_seconds', 'safety_min_spacing_seconds'],
  ['safety_per_minute', 'safety_per_minute'],
  ['safety_per_day', 'safety_per_day'],
  ['safety_jitter_ms', 'safety_jitter_ms'],
  ['safety_flood_pause_seconds', 'safety_flood_pause_seconds'],
];

function exported(settings: SettingsService, name: FieldName): unknown {
  const value = settings.stored(name);
  return SETTINGS_FIELDS[name].secret ? maskSecret(value as string | null) : value;
}

/**
 * `{ global, ai, telegram }` as the reference panel writes them: its key names, secrets as
 * `***MASKED***` (its import keeps the stored secret then), `ai: null` when nothing is set, and the
 * Telegram API credentials marked `is_custom: false` (the hash is a secret and is not exported, so
 * the reference panel keeps its own credentials instead of storing a placeholder).
 */
export function exportSettings(settings: SettingsService): Json {
  const global: Json = {};
  for (const [key, name] of EXPORT_GLOBAL_KEYS) global[key] = exported(settings, name);
  const ai = settings.getAi();
  const telegram = settings.getTelegramApi();
  return {
    global,
    ai: ai.api_key || ai.base_url || ai.model ? { api_key: ai.api_key ? maskSecret(ai.api_key) : '', base_url: ai.base_url, model: ai.model } : null,
    telegram: { api_id: telegram.api_id === null ? null : String(telegram.api_id), api_hash: maskSecret(telegram.api_hash), is_custom: false },
  };
}

export interface SettingsImportPlan {
  report: ItemReport;
  patch: SettingsPatch;
  /** Dotted names (`global.timezone`) of the settings the import would change. */
  changed: string[];
  /** Secret settings kept as stored (a placeholder, empty or null in the document). */
  keptSecrets: string[];
}

function coerce(name: FieldName, value: unknown): unknown {
  const rule = SETTINGS_FIELDS[name].rule;
  if (value === null) return null;
  if (rule.kind === 'integer') return wholeNumber(value) ?? value;
  if (rule.kind === 'string' && typeof value === 'number' && Number.isFinite(value)) return String(value);
  return value;
}

/**
 * Reads the `settings` part of an import into a settings patch; writes nothing. Like the reference
 * panel: secrets given as a placeholder, empty or null keep the stored secret; `ai: null` and an
 * AI key-less document leave the key alone; `telegram` with `is_custom: false` (the reference
 * panel's built-in credentials) is skipped; unknown keys are warned about, never refused.
 */
export function planSettingsImport(input: unknown, settings: SettingsService): SettingsImportPlan {
  const report = new ItemReport();
  const plan: SettingsImportPlan = { report, patch: {}, changed: [], keptSecrets: [] };
  if (!isJsonObject(input)) {
    report.problem('settings must be an object with global, ai and telegram');
    return plan;
  }
  const patch: Record<string, unknown> = {};
  const take = (from: string, name: FieldName, value: unknown) => {
    if (SETTINGS_FIELDS[name].secret && (value === null || value === '' || isSecretPlaceholder(value))) {
      if (settings.stored(name)) plan.keptSecrets.push(from);
      report.map(from, `${name} (${value === null || value === '' ? 'empty' : 'masked'}: the stored value is kept)`);
      return;
    }
    patch[name] = coerce(name, value);
    report.map(from, from.endsWith(`.${name}`) ? undefined : name);
  };

  for (const [group, value] of Object.entries(input)) {
    if (group === 'global') {
      if (!isJsonObject(value)) {
        if (value !== null) report.problem('settings.global must be an object');
        continue;
      }
      for (const [key, field] of Object.entries(value)) {
        const from = `global.${key}`;
        if (isObjectBuiltinName(key)) {
          report.problem(`settings.${from} is not a setting name`);
          continue;
        }
        const name = ownEntry(GLOBAL_KEYS, key);
        if (name) take(from, name, field);
        else if (Object.hasOwn(GLOBAL_WITHOUT_EQUIVALENT, key)) report.drop(from, `${GLOBAL_WITHOUT_EQUIVALENT[key]} (${JSON.stringify(field)} in the document)`);
        else report.drop(from, `unknown setting; ignored (${JSON.stringify(field)})`);
      }
    } else if (group === 'ai') {
      if (value === null) {
        report.map('ai: null', 'AI settings unchanged');
        continue;
      }
      if (!isJsonObject(value)) {
        report.problem('settings.ai must be an object or null');
        continue;
      }
      for (const [key, field] of Object.entries(value)) {
        if (isObjectBuiltinName(key)) {
          report.problem(`settings.ai.${key} is not a setting name`);
          continue;
        }
        const name = ownEntry(AI_KEYS, key);
        if (!name) {
          report.drop(`ai.${key}`, `unknown setting; ignored (${JSON.stringify(field)})`);
          continue;
        }
        // The reference panel keeps base_url/model when the document has none; so does this import.
        if (name !== 'ai_api_key' && (field === null || field === '')) {
          report.map(`ai.${key}`, `${name} (empty: the stored value is kept)`);
          continue;
        }
        take(`ai.${key}`, name, field);
      }
    } else if (group === 'telegram' || group === 'telegram_api') {
      if (!isJsonObject(value)) {
        if (value !== null) report.problem(`settings.${group} must be an object`);
        continue;
      }
      if (value['is_custom'] === false) {
        report.drop(`${group}`, 'is_custom is false: the reference panel uses its built-in API credentials, so none are imported (this panel keeps its own)');
        continue;
      }
      for (const [key, field] of Object.entries(value)) {
        if (key === 'is_custom') report.map(`${group}.is_custom`, 'custom API credentials are imported');
        else if (key === 'api_id') {
          if (field === null || field === '') report.map(`${group}.api_id`, 'telegram_api_id (empty: the stored value is kept)');
          else take(`${group}.api_id`, 'telegram_api_id', field);
        } else if (key === 'api_hash') take(`${group}.api_hash`, 'telegram_api_hash', field);
        else report.drop(`${group}.${key}`, `unknown setting; ignored (${JSON.stringify(field)})`);
      }
    } else {
      report.drop(group, `unknown settings group; ignored`);
    }
  }

  for (const violation of settingsPatchViolations(patch)) report.problem(`settings: ${violation}`);
  // A masked secret is "kept", and a kept secret does not follow its URL to another server.
  for (const violation of secretsLeftAtOldDestination((name) => settings.stored(name), patch as SettingsPatch)) report.problem(`settings: ${violation}`);
  for (const [name, value] of Object.entries(patch)) if (settings.stored(name as FieldName) !== value) plan.changed.push(name);
  plan.patch = patch as SettingsPatch;
  return plan;
}

/** Everything stored now as a patch, so an import can put it back if a later step fails. */
export function currentSettingsAsPatch(settings: SettingsService): SettingsPatch {
  const patch: Record<string, unknown> = {};
  for (const name of Object.keys(SETTINGS_FIELDS) as FieldName[]) patch[name] = settings.stored(name);
  return patch as SettingsPatch;
}
