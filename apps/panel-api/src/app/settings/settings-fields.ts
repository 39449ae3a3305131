import { PANEL_LANGUAGES } from '@shared/panel-texts';
import { isIanaTimeZone } from '@shared/config';
import { FieldProblem, fieldRuleSentence } from '@shared/http-service';
import {
  AiSettings,
  GlobalSettings,
  SETTINGS_LIMITS,
  SettingsPatch,
  SMTP_SECURITY,
  TelegramApiSettings,
} from './settings.types';

type FieldRule =
  | { kind: 'boolean' }
  | { kind: 'integer'; min: number; max: number; nullable?: boolean }
  | { kind: 'string'; nullable: boolean; maxLength: number; check?: TextCheck };

/** A rule of a text setting beyond its length: what it is called for a form, and what to say when it is broken. */
interface TextCheck {
  /** Stable rule name (the web apps translate it): http_url, folder_path, bot_token... */
  rule: string;
  accepts: (value: string) => boolean;
  /** The violation with the API's wording ("must be ..."), after the field's name. */
  violation: string;
  /** A plain sentence for the person at the form, without the API's names. */
  sentence: string;
  min?: number;
}

export type SettingsGroup = 'global' | 'ai' | 'telegramApi';

interface FieldDefinition {
  group: SettingsGroup;
  /** The key inside the group's file. */
  key: string;
  rule: FieldRule;
  secret?: boolean;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const httpUrl: TextCheck = {
  rule: 'http_url',
  accepts: isHttpUrl,
  violation: 'must be an http(s) URL',
  sentence: 'Enter a web address starting with http:// or https://.',
};

const boolean: FieldRule = { kind: 'boolean' };

/** A secret web address (Discord, Slack and Teams webhooks carry their credential in the URL). */
const secretHttpUrl = (maxLength = 2048): Pick<FieldDefinition, 'rule' | 'secret'> => ({ rule: { kind: 'string', nullable: true, maxLength, check: httpUrl }, secret: true });

const HOST_NAME = /^([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$|^\d{1,3}(\.\d{1,3}){3}$|^[0-9A-Fa-f:]{2,39}$/;
const EMAIL_ADDRESS = /^[^\s@<>"(),;:]{1,64}@[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$/;
const EMAIL_FROM = /^([^\r\n<>"]{1,100} <[^\s@<>"(),;:]{1,64}@[A-Za-z0-9.-]{1,253}>|[^\s@<>"(),;:]{1,64}@[A-Za-z0-9.-]{1,253})$/;
/** The most recipients one notice is mailed to. */
export const EMAIL_RECIPIENTS_LIMIT = 20;

/** The recipients of `push_email_to`: addresses separated by commas, semicolons or spaces. */
export function emailRecipients(value: string | null | undefined): string[] {
  return (value ?? '').split(/[,;\s]+/).filter((address) => address !== '');
}

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
      check: {
        rule: 'folder_path',
        accepts: (value) => value.trim() !== '' && !value.split('/').includes('..'),
        violation: 'must be a folder path without ".."',
        sentence: 'Enter a folder path such as backups/panel, without "..".',
      },
    },
  },
  bot_token: {
    group: 'global',
    key: 'bot_token',
    rule: {
      kind: 'string',
      nullable: true,
      maxLength: 256,
      check: {
        rule: 'bot_token',
        accepts: (value) => /^\d+:[A-Za-z0-9_-]+$/.test(value),
        violation: 'must look like a Bot API token (<id>:<secret>)',
        sentence: 'Paste the bot token from @BotFather: digits, a colon, then letters and digits.',
      },
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
      check: {
        rule: 'chat_id',
        accepts: (value) => /^(-?\d+|@[A-Za-z0-9_]{4,})$/.test(value),
        violation: 'must be a numeric chat id or an @channel name',
        sentence: 'Enter a numeric chat id (such as -1001234567890) or a channel name starting with @.',
      },
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
    rule: {
      kind: 'string',
      nullable: true,
      maxLength: 256,
      check: {
        rule: 'send_key',
        accepts: (value) => /^[A-Za-z0-9_-]+$/.test(value),
        violation: 'must be a ServerChan SendKey (letters, digits, "_" and "-")',
        sentence: 'Paste the ServerChan SendKey: letters, digits, "_" and "-" only.',
      },
    },
    secret: true,
  },
  push_ntfy_url: { group: 'global', key: 'push_ntfy_url', rule: { kind: 'string', nullable: true, maxLength: 2048, check: httpUrl } },
  push_ntfy_token: { group: 'global', key: 'push_ntfy_token', rule: { kind: 'string', nullable: true, maxLength: 512 }, secret: true },
  push_discord_url: { group: 'global', key: 'push_discord_url', ...secretHttpUrl() },
  push_slack_url: { group: 'global', key: 'push_slack_url', ...secretHttpUrl() },
  push_teams_url: { group: 'global', key: 'push_teams_url', ...secretHttpUrl(4096) },
  push_gotify_url: { group: 'global', key: 'push_gotify_url', rule: { kind: 'string', nullable: true, maxLength: 2048, check: httpUrl } },
  push_gotify_token: {
    group: 'global',
    key: 'push_gotify_token',
    rule: {
      kind: 'string',
      nullable: true,
      maxLength: 256,
      check: {
        rule: 'app_token',
        accepts: (value) => /^[A-Za-z0-9._-]+$/.test(value),
        violation: 'must be a Gotify application token (letters, digits, ".", "_" and "-")',
        sentence: 'Paste the token of a Gotify application: letters and digits, without spaces.',
      },
    },
    secret: true,
  },
  push_email_smtp_host: {
    group: 'global',
    key: 'push_email_smtp_host',
    rule: {
      kind: 'string',
      nullable: true,
      maxLength: 253,
      check: {
        rule: 'host_name',
        accepts: (value) => HOST_NAME.test(value),
        violation: 'must be a host name or an IP address',
        sentence: 'Enter the mail server\'s name, such as smtp.example.org, without http:// or a port.',
      },
    },
  },
  push_email_smtp_port: { group: 'global', key: 'push_email_smtp_port', rule: { kind: 'integer', ...SETTINGS_LIMITS.smtpPort } },
  push_email_smtp_security: {
    group: 'global',
    key: 'push_email_smtp_security',
    rule: {
      kind: 'string',
      nullable: false,
      maxLength: 16,
      check: {
        rule: 'smtp_security',
        accepts: (value) => (SMTP_SECURITY as readonly string[]).includes(value),
        violation: `must be one of ${SMTP_SECURITY.join(', ')}`,
        sentence: 'Choose STARTTLS, TLS or no encryption.',
      },
    },
  },
  push_email_smtp_username: {
    group: 'global',
    key: 'push_email_smtp_username',
    rule: {
      kind: 'string',
      nullable: true,
      maxLength: 256,
      check: { rule: 'no_spaces', accepts: (value) => /^\S+$/.test(value), violation: 'must not contain spaces', sentence: 'Enter the login without spaces.' },
    },
  },
  push_email_smtp_password: { group: 'global', key: 'push_email_smtp_password', rule: { kind: 'string', nullable: true, maxLength: 1024 }, secret: true },
  push_email_from: {
    group: 'global',
    key: 'push_email_from',
    rule: {
      kind: 'string',
      nullable: true,
      maxLength: 320,
      check: {
        rule: 'email_from',
        accepts: (value) => EMAIL_FROM.test(value),
        violation: 'must be an address like panel@example.com or "Name <panel@example.com>"',
        sentence: 'Enter the sender as panel@example.com or as Name <panel@example.com>.',
      },
    },
  },
  push_email_to: {
    group: 'global',
    key: 'push_email_to',
    rule: {
      kind: 'string',
      nullable: true,
      maxLength: 2048,
      check: {
        rule: 'email_list',
        accepts: (value) => {
          const recipients = emailRecipients(value);
          return recipients.length >= 1 && recipients.length <= EMAIL_RECIPIENTS_LIMIT && recipients.every((address) => EMAIL_ADDRESS.test(address));
        },
        violation: `must be 1 to ${EMAIL_RECIPIENTS_LIMIT} addresses like ops@example.com, separated by commas`,
        sentence: `Enter 1 to ${EMAIL_RECIPIENTS_LIMIT} addresses such as ops@example.com, separated by commas.`,
      },
    },
  },
  webhook_url: { group: 'global', key: 'webhook_url', rule: { kind: 'string', nullable: true, maxLength: 2048, check: httpUrl } },
  webhook_secret: {
    group: 'global',
    key: 'webhook_secret',
    rule: {
      kind: 'string',
      nullable: true,
      maxLength: 512,
      check: { rule: 'too_short', min: 16, accepts: (value) => value.length >= 16, violation: 'must be at least 16 characters', sentence: 'Use at least 16 characters.' },
    },
    secret: true,
  },
  push_notify_task_failure: { group: 'global', key: 'push_notify_task_failure', rule: boolean },
  push_notify_task_success: { group: 'global', key: 'push_notify_task_success', rule: boolean },
  push_notify_backup_failure: { group: 'global', key: 'push_notify_backup_failure', rule: boolean },
  push_notify_session_invalid: { group: 'global', key: 'push_notify_session_invalid', rule: boolean },
  push_notify_admin_login: { group: 'global', key: 'push_notify_admin_login', rule: boolean },
  notify_language: {
    group: 'global',
    key: 'notify_language',
    rule: {
      kind: 'string',
      nullable: false,
      maxLength: 8,
      check: {
        rule: 'notify_language',
        accepts: (value) => (PANEL_LANGUAGES as readonly string[]).includes(value),
        violation: `must be one of ${PANEL_LANGUAGES.join(', ')}`,
        sentence: 'Choose English or Simplified Chinese.',
      },
    },
  },
  timezone: {
    group: 'global',
    key: 'timezone',
    rule: {
      kind: 'string',
      nullable: false,
      maxLength: 64,
      check: {
        rule: 'time_zone',
        accepts: isIanaTimeZone,
        violation: 'must be an IANA time zone such as Europe/Berlin',
        sentence: 'Choose a time zone from the list, such as Asia/Shanghai.',
      },
    },
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
      check: {
        rule: 'api_hash',
        accepts: (value) => /^[0-9a-f]{32}$/i.test(value),
        violation: 'must be 32 hexadecimal characters',
        sentence: 'Paste the API hash from my.telegram.org: 32 characters, digits and the letters a to f.',
      },
    },
    secret: true,
  },
};

/** What is wrong with a value of a setting: the API's wording, and the rule with a sentence for a form. */
export interface SettingsRuleProblem {
  violation: string;
  rule: string;
  min?: number;
  max?: number;
  sentence: string;
}

/** Why `value` breaks `rule`, or undefined when it is acceptable. `null` is judged by `nullable`. */
export function ruleProblem(rule: FieldRule, value: unknown): SettingsRuleProblem | undefined {
  const wrongKind = (violation: string): SettingsRuleProblem => ({ violation, rule: 'type', sentence: fieldRuleSentence('type') });
  if (value === null) {
    return rule.kind !== 'boolean' && rule.nullable ? undefined : { violation: 'must not be null', rule: 'required', sentence: fieldRuleSentence('required') };
  }
  switch (rule.kind) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : wrongKind('must be a boolean');
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) return { violation: 'must be an integer', rule: 'integer', sentence: fieldRuleSentence('integer') };
      if (value >= rule.min && value <= rule.max) return undefined;
      return { violation: `must be between ${rule.min} and ${rule.max}`, rule: 'range', min: rule.min, max: rule.max, sentence: fieldRuleSentence('range', rule) };
    case 'string':
      if (typeof value !== 'string') return wrongKind('must be a string');
      if (value.length > rule.maxLength) {
        return { violation: `must be at most ${rule.maxLength} characters`, rule: 'too_long', max: rule.maxLength, sentence: fieldRuleSentence('too_long', { max: rule.maxLength }) };
      }
      if (!rule.check || rule.check.accepts(value)) return undefined;
      return { violation: rule.check.violation, rule: rule.check.rule, ...(rule.check.min !== undefined ? { min: rule.check.min } : {}), sentence: rule.check.sentence };
  }
}

/** Why `value` breaks `rule` in the API's wording ("must be ..."), or undefined when it is acceptable. */
export function ruleViolation(rule: FieldRule, value: unknown): string | undefined {
  return ruleProblem(rule, value)?.violation;
}

/** The problem of one settings field as an error body's field entry. */
export function settingsFieldProblem(name: string, problem: SettingsRuleProblem): FieldProblem {
  const limits = { ...(problem.min !== undefined ? { min: problem.min } : {}), ...(problem.max !== undefined ? { max: problem.max } : {}) };
  return { field: name, rule: problem.rule, ...limits, message: problem.sentence };
}

/** Every problem of a patch, as "field message" lines; empty when it may be applied. */
export function settingsPatchViolations(patch: Record<string, unknown>): string[] {
  return settingsPatchProblems(patch).map((problem) => problem.line);
}

/** Every problem of a patch: the "field message" line and the field's entry for a form. */
export function settingsPatchProblems(patch: Record<string, unknown>): Array<{ line: string; field: FieldProblem }> {
  const problems: Array<{ line: string; field: FieldProblem }> = [];
  for (const [name, value] of Object.entries(patch)) {
    const field = SETTINGS_FIELDS[name as keyof SettingsPatch];
    if (!field) {
      problems.push({ line: `property ${name} should not exist`, field: { field: name, rule: 'unknown_field', message: fieldRuleSentence('unknown_field') } });
      continue;
    }
    if (value === undefined) continue;
    const problem = ruleProblem(field.rule, value);
    if (problem) problems.push({ line: `${name} ${problem.violation}`, field: settingsFieldProblem(name, problem) });
  }
  return problems;
}

export type SettingsGroups = { global: GlobalSettings; ai: AiSettings; telegramApi: TelegramApiSettings };
