import type { PanelLanguage } from '@shared/panel-texts';

/** How the email channel talks to its SMTP server: STARTTLS on a plain port, TLS from the first byte (465), or unencrypted (local servers only). */
export const SMTP_SECURITY = ['starttls', 'tls', 'none'] as const;
export type SmtpSecurity = (typeof SMTP_SECURITY)[number];

/** Global settings, stored in `.global_settings.json`. Secrets are kept here and never leave the service unmasked. */
export interface GlobalSettings {
  device_keepalive_enabled: boolean;
  device_keepalive_interval_days: number;
  auto_backup_enabled: boolean;
  auto_backup_interval_hours: number;
  auto_backup_keep: number;
  webdav_url: string | null;
  webdav_username: string | null;
  webdav_password: string | null;
  webdav_dir: string;
  bot_token: string | null;
  bot_chat_id: string | null;
  /** Master switch of bot notifications; the per-event switches below only apply when it is on. */
  bot_notify_enabled: boolean;
  bot_notify_task_failure: boolean;
  bot_notify_task_success: boolean;
  bot_notify_session_invalid: boolean;
  bot_notify_admin_login: boolean;
  /** Bot notice of a failed automatic backup (with the master switch). */
  bot_notify_backup_failure: boolean;
  /** Bark device URL (`https://api.day.app/<device key>`); it holds the key, so it is kept like a secret. */
  push_bark_url: string | null;
  /** ServerChan SendKey. */
  push_server_chan_key: string | null;
  /** ntfy topic URL (`https://ntfy.sh/<topic>`) and its optional access token. */
  push_ntfy_url: string | null;
  push_ntfy_token: string | null;
  /** Discord incoming webhook URL; the URL is the credential, so it is kept like a secret. */
  push_discord_url: string | null;
  /** Slack incoming webhook URL (a secret, like Discord's). */
  push_slack_url: string | null;
  /** Microsoft Teams Workflows webhook URL (signed in its query, so a secret). */
  push_teams_url: string | null;
  /** Gotify server URL (`https://gotify.example.org`) and its application token. */
  push_gotify_url: string | null;
  push_gotify_token: string | null;
  /** Email over SMTP: the server, its encryption (`starttls`, `tls` from the first byte, or `none`), login, sender and recipients (comma-separated). */
  push_email_smtp_host: string | null;
  push_email_smtp_port: number;
  push_email_smtp_security: SmtpSecurity;
  push_email_smtp_username: string | null;
  push_email_smtp_password: string | null;
  push_email_from: string | null;
  push_email_to: string | null;
  /** Custom webhook: a JSON POST signed `X-Signature-256: sha256=<hex HMAC-SHA256(webhook_secret, body)>`. */
  webhook_url: string | null;
  webhook_secret: string | null;
  /** Which notices go to the push channels and the custom webhook (each channel while it is configured). */
  push_notify_task_failure: boolean;
  push_notify_task_success: boolean;
  push_notify_backup_failure: boolean;
  push_notify_session_invalid: boolean;
  push_notify_admin_login: boolean;
  /** The language of the notifications the panel sends (bot, push channels, webhook): `en` or `zh`. */
  notify_language: PanelLanguage;
  /** IANA time zone of schedules such as the daily keep-alive. */
  timezone: string;
  /** The safety governor (issue 35): seconds between two actions of an account in one chat. */
  safety_min_spacing_seconds: number;
  /** At most this many actions (messages, dice, clicks, deletions) of one account per minute … */
  safety_per_minute: number;
  /** … and per day (UTC). */
  safety_per_day: number;
  /** Up to this many milliseconds of random jitter on every wait the governor imposes. */
  safety_jitter_ms: number;
  /** A FloodWait longer than this many seconds pauses the account's automation until resumed. */
  safety_flood_pause_seconds: number;
}

/** The OpenAI-compatible model used by the AI actions, stored in `.openai_config.json`. */
export interface AiSettings {
  base_url: string | null;
  model: string | null;
  api_key: string | null;
}

/** The Telegram application credentials of this instance, stored in `.telegram_api.json`. */
export interface TelegramApiSettings {
  api_id: number | null;
  api_hash: string | null;
}

export const DEFAULT_GLOBAL_SETTINGS: Readonly<GlobalSettings> = Object.freeze({
  device_keepalive_enabled: true,
  device_keepalive_interval_days: 30,
  auto_backup_enabled: false,
  auto_backup_interval_hours: 24,
  auto_backup_keep: 7,
  webdav_url: null,
  webdav_username: null,
  webdav_password: null,
  webdav_dir: 'tg-signpulse-backups',
  bot_token: null,
  bot_chat_id: null,
  bot_notify_enabled: false,
  bot_notify_task_failure: true,
  bot_notify_task_success: false,
  bot_notify_session_invalid: true,
  bot_notify_admin_login: false,
  bot_notify_backup_failure: true,
  push_bark_url: null,
  push_server_chan_key: null,
  push_ntfy_url: null,
  push_ntfy_token: null,
  push_discord_url: null,
  push_slack_url: null,
  push_teams_url: null,
  push_gotify_url: null,
  push_gotify_token: null,
  push_email_smtp_host: null,
  push_email_smtp_port: 587,
  push_email_smtp_security: 'starttls',
  push_email_smtp_username: null,
  push_email_smtp_password: null,
  push_email_from: null,
  push_email_to: null,
  webhook_url: null,
  webhook_secret: null,
  push_notify_task_failure: true,
  push_notify_task_success: false,
  push_notify_backup_failure: true,
  push_notify_session_invalid: true,
  push_notify_admin_login: false,
  notify_language: 'en',
  timezone: 'UTC',
  safety_min_spacing_seconds: 3,
  safety_per_minute: 20,
  safety_per_day: 500,
  safety_jitter_ms: 1_500,
  safety_flood_pause_seconds: 600,
});

export const DEFAULT_AI_SETTINGS: Readonly<AiSettings> = Object.freeze({ base_url: null, model: null, api_key: null });

export const DEFAULT_TELEGRAM_API_SETTINGS: Readonly<TelegramApiSettings> = Object.freeze({ api_id: null, api_hash: null });

/**
 * A change to the settings, with the API's field names. A field that is absent stays as it is;
 * `null` clears it (nullable fields only). The controller has already turned an empty secret into "absent".
 */
export interface SettingsPatch {
  device_keepalive_enabled?: boolean;
  device_keepalive_interval_days?: number;
  auto_backup_enabled?: boolean;
  auto_backup_interval_hours?: number;
  auto_backup_keep?: number;
  webdav_url?: string | null;
  webdav_username?: string | null;
  webdav_password?: string | null;
  webdav_dir?: string;
  bot_token?: string | null;
  bot_chat_id?: string | null;
  bot_notify_enabled?: boolean;
  bot_notify_task_failure?: boolean;
  bot_notify_task_success?: boolean;
  bot_notify_session_invalid?: boolean;
  bot_notify_admin_login?: boolean;
  bot_notify_backup_failure?: boolean;
  push_bark_url?: string | null;
  push_server_chan_key?: string | null;
  push_ntfy_url?: string | null;
  push_ntfy_token?: string | null;
  push_discord_url?: string | null;
  push_slack_url?: string | null;
  push_teams_url?: string | null;
  push_gotify_url?: string | null;
  push_gotify_token?: string | null;
  push_email_smtp_host?: string | null;
  push_email_smtp_port?: number;
  push_email_smtp_security?: SmtpSecurity;
  push_email_smtp_username?: string | null;
  push_email_smtp_password?: string | null;
  push_email_from?: string | null;
  push_email_to?: string | null;
  webhook_url?: string | null;
  webhook_secret?: string | null;
  push_notify_task_failure?: boolean;
  push_notify_task_success?: boolean;
  push_notify_backup_failure?: boolean;
  push_notify_session_invalid?: boolean;
  push_notify_admin_login?: boolean;
  notify_language?: PanelLanguage;
  timezone?: string;
  safety_min_spacing_seconds?: number;
  safety_per_minute?: number;
  safety_per_day?: number;
  safety_jitter_ms?: number;
  safety_flood_pause_seconds?: number;
  ai_base_url?: string | null;
  ai_model?: string | null;
  ai_api_key?: string | null;
  telegram_api_id?: number | null;
  telegram_api_hash?: string | null;
}

/** Which settings groups an update changed; listeners use it to re-read only what concerns them. */
export interface SettingsChange {
  global: boolean;
  ai: boolean;
  telegramApi: boolean;
}

/** The limits the API and the files on disk are both checked against. */
export const SETTINGS_LIMITS = {
  deviceKeepaliveIntervalDays: { min: 1, max: 170 },
  autoBackupIntervalHours: { min: 1, max: 720 },
  autoBackupKeep: { min: 1, max: 365 },
  safetyMinSpacingSeconds: { min: 0, max: 3_600 },
  safetyPerMinute: { min: 1, max: 600 },
  safetyPerDay: { min: 1, max: 100_000 },
  safetyJitterMs: { min: 0, max: 60_000 },
  safetyFloodPauseSeconds: { min: 1, max: 86_400 },
  smtpPort: { min: 1, max: 65_535 },
} as const;
