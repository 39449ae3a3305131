import { isIanaTimeZone } from '@shared/config';
import {
  AiSettings,
  GlobalSettings,
  SETTINGS_LIMITS,
  SettingsPatch,
  TelegramApiSettings,
} from './settings.types';

type FieldRule =
  | { kind: 'boolean' }
  | { kind: 'integer'; min: number; max: number; nullable?: boolean }
  | { kind: 'string'; nullable: boolean; maxLength: number; check?: (value: string) => string | undefined };

export type SettingsGroup = 'global' | 'ai' | 'telegramApi';

interface FieldDefinition {
  group: SettingsGroup;
  /** The key inside the group's file. */
  key: string;
  rule: FieldRule;
  secret?: boolean;
}

function httpUrl(value: string): string | undefined {
  try {
    const url = new URL(value);
    if ((url.protocol === 'http:' || url.protocol === 'https:') && url.hostname) return undefined;
  } catch {
    /* reported below */
  }
  return 'must be an http(s) URL';
}

const boolean: FieldRule = { kind: 'boolean' };

/** Every settings field by its API name: which file holds it under which key, and its rule. */
export const SETTINGS_FIELDS: Record<keyof SettingsPatch, FieldDefinition> = {
  device_keepalive_enabled: { group: 'global', key: 'device_keepalive_enabled', rule: boolean },
  device_keepalive_interval_days: {
    group: 'global',
    key: 'device_keepalive_interval_days',
    rule: { kind: 'integer', ...SETTINGS_LIMITS.deviceKeepaliveIntervalDays },
  },
  auto_backup_enabled: { group: 'global', key: 'auto_backup_enabled', rule: boolean },
  auto_backup_interval_hours: {
    group: 'global',
    key: 'auto_backup_interval_hours',
    rule: { kind: 'integer', ...SETTINGS_LIMITS.autoBackupIntervalHours },
  },
  auto_backup_keep: { group: 'global', key: 'auto_backup_keep', rule: { kind: 'integer', ...SETTINGS_LIMITS.autoBackupKeep } },
  webdav_url: { group: 'global', key: 'webdav_url', rule: { kind: 'string', nullable: true, maxLength: 2048, check: httpUrl } },
  webdav_username: { group: 'global', key: 'webdav_username', rule: { kind: 'string', nullable: true, maxLength: 256 } },
  webdav_password: { group: 'global', key: 'webdav_password', rule: { kind: 'string', nullable: true, maxLength: 1024 }, secret: true },
  webdav_dir: {
    group: 'global',
    key: 'webdav_dir',
    rule: {
      kind: 'string',
      nullable: false,
      maxLength: 512,
      check: (value) => (value.trim() && !value.split('/').includes('..') ? undefined : 'must be a folder path without ".."'),
    },
  },
  bot_token: {
    group: 'global',
    key: 'bot_token',
    rule: {
      kind: 'string',
      nullable: true,
      maxLength: 256,
      check: (value) => (/^\d+:[A-Za-z0-9_-]+$/.test(value) ? undefined : 'must look like a Bot API token (<id>:<secret>)'),
    },
    secret: true,
  },
  bot_chat_id: {
    group: 'global',
    key: 'bot_chat_id',
    rule: {
      kind: 'string',
      nullable: true,
      maxLength: 64,
      check: (value) => (/^(-?\d+|@[A-Za-z0-9_]{4,})$/.test(value) ? undefined : 'must be a numeric chat id or an @channel name'),
    },
  },
  bot_notify_enabled: { group: 'global', key: 'bot_notify_enabled', rule: boolean },
  bot_notify_task_failure: { group: 'global', key: 'bot_notify_task_failure', rule: boolean },
  bot_notify_task_success: { group: 'global', key: 'bot_notify_task_success', rule: boolean },
  bot_notify_session_invalid: { group: 'global', key: 'bot_notify_session_invalid', rule: boolean },
  bot_notify_admin_login: { group: 'global', key: 'bot_notify_admin_login', rule: boolean },
  bot_notify_backup_failure: { group: 'global', key: 'bot_notify_backup_failure', rule: boolean },
  push_bark_url: { group: 'global', key: 'push_bark_url', rule: { kind: 'string', nullable: true, maxLength: 2048, check: httpUrl }, secret: true },
  push_server_chan_key: {
    group: 'global',
    key: 'push_server_chan_key',
    rule: { kind: 'string', nullable: true, maxLength: 256, check: (value) => (/^[A-Za-z0-9_-]+$/.test(value) ? undefined : 'must be a ServerChan SendKey (letters, digits, "_" and "-")') },
    secret: true,
  },
  push_ntfy_url: { group: 'global', key: 'push_ntfy_url', rule: { kind: 'string', nullable: true, maxLength: 2048, check: httpUrl } },
  push_ntfy_token: { group: 'global', key: 'push_ntfy_token', rule: { kind: 'string', nullable: true, maxLength: 512 }, secret: true },
  webhook_url: { group: 'global', key: 'webhook_url', rule: { kind: 'string', nullable: true, maxLength: 2048, check: httpUrl } },
  webhook_secret: {
    group: 'global',
    key: 'webhook_secret',
    rule: { kind: 'string', nullable: true, maxLength: 512, check: (value) => (value.length >= 16 ? undefined : 'must be at least 16 characters') },
    secret: true,
  },
  push_notify_task_failure: { group: 'global', key: 'push_notify_task_failure', rule: boolean },
  push_notify_task_success: { group: 'global', key: 'push_notify_task_success', rule: boolean },
  push_notify_backup_failure: { group: 'global', key: 'push_notify_backup_failure', rule: boolean },
  push_notify_session_invalid: { group: 'global', key: 'push_notify_session_invalid', rule: boolean },
  push_notify_admin_login: { group: 'global', key: 'push_notify_admin_login', rule: boolean },
  timezone: {
    group: 'global',
    key: 'timezone',
    rule: { kind: 'string', nullable: false, maxLength: 64, check: (value) => (isIanaTimeZone(value) ? undefined : 'must be an IANA time zone such as Europe/Berlin') },
  },
  safety_min_spacing_seconds: { group: 'global', key: 'safety_min_spacing_seconds', rule: { kind: 'integer', ...SETTINGS_LIMITS.safetyMinSpacingSeconds } },
  safety_per_minute: { group: 'global', key: 'safety_per_minute', rule: { kind: 'integer', ...SETTINGS_LIMITS.safetyPerMinute } },
  safety_per_day: { group: 'global', key: 'safety_per_day', rule: { kind: 'integer', ...SETTINGS_LIMITS.safetyPerDay } },
  safety_jitter_ms: { group: 'global', key: 'safety_jitter_ms', rule: { kind: 'integer', ...SETTINGS_LIMITS.safetyJitterMs } },
  safety_flood_pause_seconds: { group: 'global', key: 'safety_flood_pause_seconds', rule: { kind: 'integer', ...SETTINGS_LIMITS.safetyFloodPauseSeconds } },
  ai_base_url: { group: 'ai', key: 'base_url', rule: { kind: 'string', nullable: true, maxLength: 2048, check: httpUrl } },
  ai_model: { group: 'ai', key: 'model', rule: { kind: 'string', nullable: true, maxLength: 128 } },
  ai_api_key: { group: 'ai', key: 'api_key', rule: { kind: 'string', nullable: true, maxLength: 1024 }, secret: true },
  telegram_api_id: { group: 'telegramApi', key: 'api_id', rule: { kind: 'integer', min: 1, max: 2_147_483_647, nullable: true } },
  telegram_api_hash: {
    group: 'telegramApi',
    key: 'api_hash',
    rule: {
      kind: 'string',
      nullable: true,
      maxLength: 32,
      check: (value) => (/^[0-9a-f]{32}$/i.test(value) ? undefined : 'must be 32 hexadecimal characters'),
    },
    secret: true,
  },
};

/** Why `value` breaks `rule`, or undefined when it is acceptable. `null` is judged by `nullable`. */
export function ruleViolation(rule: FieldRule, value: unknown): string | undefined {
  if (value === null) {
    return rule.kind !== 'boolean' && rule.nullable ? undefined : 'must not be null';
  }
  switch (rule.kind) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be a boolean';
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) return 'must be an integer';
      return value < rule.min || value > rule.max ? `must be between ${rule.min} and ${rule.max}` : undefined;
    case 'string':
      if (typeof value !== 'string') return 'must be a string';
      if (value.length > rule.maxLength) return `must be at most ${rule.maxLength} characters`;
      return rule.check?.(value);
  }
}

/** Every problem of a patch, as "field message" lines; empty when it may be applied. */
export function settingsPatchViolations(patch: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const [name, value] of Object.entries(patch)) {
    const field = SETTINGS_FIELDS[name as keyof SettingsPatch];
    if (!field) {
      problems.push(`property ${name} should not exist`);
      continue;
    }
    if (value === undefined) continue;
    const violation = ruleViolation(field.rule, value);
    if (violation) problems.push(`${name} ${violation}`);
  }
  return problems;
}

export type SettingsGroups = { global: GlobalSettings; ai: AiSettings; telegramApi: TelegramApiSettings };
