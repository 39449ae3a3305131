import type { Schemas } from '../../api/client';

export type SettingsView = Schemas['SettingsViewDto'];
export type SettingsPatch = Schemas['UpdateSettingsDto'];

/** Write-only settings: the service answers only `<name>_set`. */
export const SECRET_FIELDS = [
  'webdav_password',
  'bot_token',
  'push_bark_url',
  'push_server_chan_key',
  'push_ntfy_token',
  'push_discord_url',
  'push_slack_url',
  'push_teams_url',
  'push_gotify_token',
  'push_email_smtp_password',
  'webhook_secret',
  'ai_api_key',
  'telegram_api_hash',
] as const;
export type SecretName = (typeof SECRET_FIELDS)[number];

/** Nullable text settings: an empty field is sent as null (cleared). */
const TEXT_FIELDS = [
  'webdav_url',
  'webdav_username',
  'bot_chat_id',
  'push_ntfy_url',
  'push_gotify_url',
  'push_email_smtp_host',
  'push_email_smtp_username',
  'push_email_from',
  'push_email_to',
  'webhook_url',
  'ai_base_url',
  'ai_model',
] as const;
/** Text settings that must not be empty. */
const REQUIRED_TEXT_FIELDS = ['webdav_dir', 'timezone', 'push_email_smtp_security', 'notify_language'] as const;

/** The languages notifications can be written in (the service's PANEL_LANGUAGES). */
export const NOTIFY_LANGUAGES = ['en', 'zh'] as const;

/** How the email channel talks to its server (the service's SMTP_SECURITY). */
export const SMTP_SECURITY = ['starttls', 'tls', 'none'] as const;
const BOOLEAN_FIELDS = [
  'device_keepalive_enabled',
  'auto_backup_enabled',
  'bot_notify_enabled',
  'bot_notify_task_failure',
  'bot_notify_task_success',
  'bot_notify_session_invalid',
  'bot_notify_admin_login',
  'bot_notify_backup_failure',
  'push_notify_task_failure',
  'push_notify_task_success',
  'push_notify_backup_failure',
  'push_notify_session_invalid',
  'push_notify_admin_login',
] as const;

/** Integer settings with the service's bounds (SETTINGS_LIMITS); telegram_api_id may be empty. */
export const INTEGER_LIMITS = {
  device_keepalive_interval_days: { min: 1, max: 170 },
  auto_backup_interval_hours: { min: 1, max: 720 },
  auto_backup_keep: { min: 1, max: 365 },
  telegram_api_id: { min: 1, max: 2_147_483_647 },
  safety_min_spacing_seconds: { min: 0, max: 3_600 },
  safety_per_minute: { min: 1, max: 600 },
  safety_per_day: { min: 1, max: 100_000 },
  safety_jitter_ms: { min: 0, max: 60_000 },
  safety_flood_pause_seconds: { min: 1, max: 86_400 },
  push_email_smtp_port: { min: 1, max: 65_535 },
} as const;
type IntegerName = keyof typeof INTEGER_LIMITS;

export type TextName = (typeof TEXT_FIELDS)[number] | (typeof REQUIRED_TEXT_FIELDS)[number];
export type BooleanName = (typeof BOOLEAN_FIELDS)[number];

/** A secret as edited: empty keeps the saved value, typing replaces it, `clear` removes it. */
export interface SecretInput {
  value: string;
  clear: boolean;
}

export interface SettingsFormValues {
  text: Record<TextName, string>;
  flags: Record<BooleanName, boolean>;
  /** '' while the field is empty (NumberInput's empty value). */
  numbers: Record<IntegerName, number | ''>;
  secrets: Record<SecretName, SecretInput>;
}

export function formValuesOf(view: SettingsView): SettingsFormValues {
  const text = {} as Record<TextName, string>;
  for (const name of [...TEXT_FIELDS, ...REQUIRED_TEXT_FIELDS]) text[name] = view[name] ?? '';
  const flags = {} as Record<BooleanName, boolean>;
  for (const name of BOOLEAN_FIELDS) flags[name] = view[name];
  const numbers = {} as Record<IntegerName, number | ''>;
  for (const name of Object.keys(INTEGER_LIMITS) as IntegerName[]) numbers[name] = view[name] ?? '';
  const secrets = {} as Record<SecretName, SecretInput>;
  for (const name of SECRET_FIELDS) secrets[name] = { value: '', clear: false };
  return { text, flags, numbers, secrets };
}

export function isSecretSet(view: SettingsView, name: SecretName): boolean {
  return view[`${name}_set`];
}

/**
 * The PUT body for what changed: only fields that differ from the saved view; a secret only when
 * typed (its value) or cleared (null). Empty nullable text clears the setting.
 */
export function settingsPatch(view: SettingsView, values: SettingsFormValues): SettingsPatch {
  const patch: Record<string, unknown> = {};
  for (const name of TEXT_FIELDS) {
    const next = values.text[name].trim() === '' ? null : values.text[name].trim();
    if (next !== (view[name] ?? null)) patch[name] = next;
  }
  for (const name of REQUIRED_TEXT_FIELDS) {
    const next = values.text[name].trim();
    if (next !== view[name]) patch[name] = next;
  }
  for (const name of BOOLEAN_FIELDS) if (values.flags[name] !== view[name]) patch[name] = values.flags[name];
  for (const name of Object.keys(INTEGER_LIMITS) as IntegerName[]) {
    const next = values.numbers[name] === '' ? null : values.numbers[name];
    if (next !== (view[name] ?? null)) patch[name] = next;
  }
  for (const name of SECRET_FIELDS) {
    const secret = values.secrets[name];
    if (secret.clear) {
      if (isSecretSet(view, name)) patch[name] = null;
    } else if (secret.value !== '') patch[name] = secret.value;
  }
  return patch as SettingsPatch;
}

/** URL settings whose requests carry a saved secret (the service's SECRET_DESTINATIONS). */
const SECRET_DESTINATIONS: ReadonlyArray<{ url: (typeof TEXT_FIELDS)[number]; secret: SecretName; host?: true }> = [
  { url: 'webdav_url', secret: 'webdav_password' },
  { url: 'ai_base_url', secret: 'ai_api_key' },
  { url: 'push_ntfy_url', secret: 'push_ntfy_token' },
  { url: 'push_gotify_url', secret: 'push_gotify_token' },
  // A host name, compared as written (like the service does).
  { url: 'push_email_smtp_host', secret: 'push_email_smtp_password', host: true },
  { url: 'webhook_url', secret: 'webhook_secret' },
];

/** An http(s) address with a host (the service's rule for every URL setting). */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Scheme, host and port: where a URL sends credentials (another path on the same server is the same place). */
function credentialOrigin(url: string | null): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.origin === 'null' ? url : parsed.origin;
  } catch {
    return url;
  }
}

/**
 * Secrets the service will ask for again: their URL now points at another server while the saved
 * secret is neither typed anew nor cleared (the service never sends a saved secret to a new place).
 * A URL that is no address at all is not "another server": its own field says what is wrong.
 */
export function secretsNeededAgain(view: SettingsView, values: SettingsFormValues): SecretName[] {
  const needed: SecretName[] = [];
  for (const { url, secret, host } of SECRET_DESTINATIONS) {
    const text = values.text[url].trim();
    if (text !== '' && (host ? !HOST_NAME.test(text) : !isHttpUrl(text))) continue;
    const next = credentialOrigin(text || null);
    if (next === undefined || next === credentialOrigin(view[url])) continue;
    const input = values.secrets[secret];
    if (isSecretSet(view, secret) && !input.clear && input.value === '') needed.push(secret);
  }
  return needed;
}

/** A rule a field breaks, named as the service names it (`fields[].rule` of its 400), with its limits. */
export interface FieldIssue {
  rule: string;
  min?: number;
  max?: number;
}

export type FieldName = IntegerName | TextName | SecretName;

const URL_TEXT_FIELDS: readonly TextName[] = ['webdav_url', 'push_ntfy_url', 'push_gotify_url', 'webhook_url', 'ai_base_url'];

const HOST_NAME = /^([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$|^\d{1,3}(\.\d{1,3}){3}$|^[0-9A-Fa-f:]{2,39}$/;
const EMAIL_ADDRESS = /^[^\s@<>"(),;:]{1,64}@[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$/;
const EMAIL_FROM = /^([^\r\n<>"]{1,100} <[^\s@<>"(),;:]{1,64}@[A-Za-z0-9.-]{1,253}>|[^\s@<>"(),;:]{1,64}@[A-Za-z0-9.-]{1,253})$/;
/** The most recipients the service mails a notice to. */
export const EMAIL_RECIPIENTS_LIMIT = 20;

/** The checks of the email channel's text fields that the service applies, by the rule it would name. */
const TEXT_CHECKS: Partial<Record<TextName, (value: string) => FieldIssue | undefined>> = {
  push_email_smtp_host: (value) => (HOST_NAME.test(value) ? undefined : { rule: 'host_name' }),
  push_email_smtp_username: (value) => (/^\S+$/.test(value) ? undefined : { rule: 'no_spaces' }),
  push_email_from: (value) => (EMAIL_FROM.test(value) ? undefined : { rule: 'email_from' }),
  push_email_to: (value) => {
    const recipients = value.split(/[,;\s]+/).filter((address) => address !== '');
    return recipients.length >= 1 && recipients.length <= EMAIL_RECIPIENTS_LIMIT && recipients.every((address) => EMAIL_ADDRESS.test(address)) ? undefined : { rule: 'email_list' };
  },
};

/** The checks of a typed secret that the service applies (SETTINGS_FIELDS), by the rule it would name. */
const SECRET_CHECKS: Partial<Record<SecretName, (value: string) => FieldIssue | undefined>> = {
  bot_token: (value) => (/^\d+:[A-Za-z0-9_-]+$/.test(value) ? undefined : { rule: 'bot_token' }),
  telegram_api_hash: (value) => (/^[0-9a-f]{32}$/i.test(value) ? undefined : { rule: 'api_hash' }),
  webhook_secret: (value) => (value.length >= 16 ? undefined : { rule: 'too_short', min: 16 }),
  push_server_chan_key: (value) => (/^[A-Za-z0-9_-]+$/.test(value) ? undefined : { rule: 'send_key' }),
  push_bark_url: (value) => (isHttpUrl(value) ? undefined : { rule: 'http_url' }),
  push_discord_url: (value) => (isHttpUrl(value) ? undefined : { rule: 'http_url' }),
  push_slack_url: (value) => (isHttpUrl(value) ? undefined : { rule: 'http_url' }),
  push_teams_url: (value) => (isHttpUrl(value) ? undefined : { rule: 'http_url' }),
  push_gotify_token: (value) => (/^[A-Za-z0-9._-]+$/.test(value) ? undefined : { rule: 'app_token' }),
};

/**
 * Problems the form can see before asking the service, by field: integers out of range, required
 * text empty, addresses that are not http(s), a chat id, a folder with "..", typed secrets of the
 * wrong form. The same rules the service applies, so a save it would refuse is not sent.
 */
export function formProblems(values: SettingsFormValues): Partial<Record<FieldName, FieldIssue>> {
  const problems: Partial<Record<FieldName, FieldIssue>> = {};
  for (const [name, limit] of Object.entries(INTEGER_LIMITS) as Array<[IntegerName, { min: number; max: number }]>) {
    const value = values.numbers[name];
    if (value === '') {
      if (name !== 'telegram_api_id') problems[name] = { rule: 'range', ...limit };
    } else if (!Number.isInteger(value) || value < limit.min || value > limit.max) problems[name] = { rule: 'range', ...limit };
  }
  for (const name of REQUIRED_TEXT_FIELDS) if (values.text[name].trim() === '') problems[name] = { rule: 'required' };
  for (const name of URL_TEXT_FIELDS) {
    const text = values.text[name].trim();
    if (text !== '' && !isHttpUrl(text)) problems[name] = { rule: 'http_url' };
  }
  for (const [name, check] of Object.entries(TEXT_CHECKS) as Array<[TextName, (value: string) => FieldIssue | undefined]>) {
    const text = values.text[name].trim();
    const issue = text !== '' ? check(text) : undefined;
    if (issue) problems[name] = issue;
  }
  const chat = values.text.bot_chat_id.trim();
  if (chat !== '' && !/^(-?\d+|@[A-Za-z0-9_]{4,})$/.test(chat)) problems.bot_chat_id = { rule: 'chat_id' };
  if (values.text.webdav_dir.trim() !== '' && values.text.webdav_dir.split('/').includes('..')) problems.webdav_dir = { rule: 'folder_path' };
  for (const [name, check] of Object.entries(SECRET_CHECKS) as Array<[SecretName, (value: string) => FieldIssue | undefined]>) {
    const input = values.secrets[name];
    const issue = !input.clear && input.value !== '' ? check(input.value) : undefined;
    if (issue) problems[name] = issue;
  }
  return problems;
}

/** The edited value of a field, to tell whether the person changed it since the service refused it. */
export function fieldValue(values: SettingsFormValues, name: string): unknown {
  if (name in values.text) return values.text[name as TextName];
  if (name in values.numbers) return values.numbers[name as IntegerName];
  if (name in values.secrets) return values.secrets[name as SecretName];
  if (name in values.flags) return values.flags[name as BooleanName];
  return undefined;
}
