import { PANEL_LANGUAGES, PanelLanguage } from '@shared/panel-texts';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { ValidateBy, ValidationArguments } from 'class-validator';
import { describeFieldProblems } from '@shared/http-service';
import { ruleProblem, ruleViolation, SETTINGS_FIELDS, settingsFieldProblem } from '../settings-fields';
import { SettingsPatch, SMTP_SECURITY, SmtpSecurity } from '../settings.types';

/** An empty string is "keep" for a secret and "clear" for other nullable text; everything else follows the field's rule. */
function acceptsEmptyString(name: keyof SettingsPatch): boolean {
  const field = SETTINGS_FIELDS[name];
  return field.rule.kind === 'string' && (field.secret === true || field.rule.nullable);
}

/** Checks a field against the same rule the settings service and the settings files use. */
function SettingsRule(name: keyof SettingsPatch): PropertyDecorator {
  const rule = SETTINGS_FIELDS[name].rule;
  const constraint = `settingsRule.${name}`;
  describeFieldProblems(constraint, (value) => {
    const problem = ruleProblem(rule, value);
    if (!problem) return undefined;
    const { field: _field, ...rest } = settingsFieldProblem(name, problem);
    return rest;
  });
  return ValidateBy({
    name: constraint,
    validator: {
      validate: (value: unknown) =>
        value === undefined || (value === '' && acceptsEmptyString(name)) || ruleViolation(rule, value) === undefined,
      defaultMessage: (args?: ValidationArguments) => `${args?.property ?? name} ${ruleViolation(rule, args?.value) ?? 'is invalid'}`,
    },
  });
}

const SECRET_NOTE = 'Secret, write-only. An empty string keeps the stored value; null clears it.';
const CLEARABLE_NOTE = 'null or an empty string clears it.';

/** PUT /api/config/settings: every field optional; unknown fields are refused. */
export class UpdateSettingsDto implements SettingsPatch {
  @ApiPropertyOptional({ type: Boolean, default: true })
  @SettingsRule('device_keepalive_enabled')
  device_keepalive_enabled?: boolean;

  @ApiPropertyOptional({ type: Number, minimum: 1, maximum: 170, default: 30 })
  @SettingsRule('device_keepalive_interval_days')
  device_keepalive_interval_days?: number;

  @ApiPropertyOptional({ type: Boolean, default: false })
  @SettingsRule('auto_backup_enabled')
  auto_backup_enabled?: boolean;

  @ApiPropertyOptional({ type: Number, minimum: 1, maximum: 720, default: 24 })
  @SettingsRule('auto_backup_interval_hours')
  auto_backup_interval_hours?: number;

  @ApiPropertyOptional({ type: Number, minimum: 1, maximum: 365, default: 7, description: 'Remote automatic backups kept.' })
  @SettingsRule('auto_backup_keep')
  auto_backup_keep?: number;

  @ApiPropertyOptional({ type: String, nullable: true, description: `WebDAV base URL. ${CLEARABLE_NOTE}` })
  @SettingsRule('webdav_url')
  webdav_url?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: CLEARABLE_NOTE })
  @SettingsRule('webdav_username')
  webdav_username?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, writeOnly: true, description: SECRET_NOTE })
  @SettingsRule('webdav_password')
  webdav_password?: string | null;

  @ApiPropertyOptional({ type: String, default: 'tg-signpulse-backups', description: 'Remote folder of the backups.' })
  @SettingsRule('webdav_dir')
  webdav_dir?: string;

  @ApiPropertyOptional({ type: String, nullable: true, writeOnly: true, description: `Bot API token. ${SECRET_NOTE}` })
  @SettingsRule('bot_token')
  bot_token?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: `Numeric chat id or @channel. ${CLEARABLE_NOTE}` })
  @SettingsRule('bot_chat_id')
  bot_chat_id?: string | null;

  @ApiPropertyOptional({ type: Boolean, default: false, description: 'Master switch of bot notifications.' })
  @SettingsRule('bot_notify_enabled')
  bot_notify_enabled?: boolean;

  @ApiPropertyOptional({ type: Boolean, default: true })
  @SettingsRule('bot_notify_task_failure')
  bot_notify_task_failure?: boolean;

  @ApiPropertyOptional({ type: Boolean, default: false })
  @SettingsRule('bot_notify_task_success')
  bot_notify_task_success?: boolean;

  @ApiPropertyOptional({ type: Boolean, default: true, description: 'Notify when an account session becomes invalid.' })
  @SettingsRule('bot_notify_session_invalid')
  bot_notify_session_invalid?: boolean;

  @ApiPropertyOptional({ type: Boolean, default: false, description: 'Notify on every panel login.' })
  @SettingsRule('bot_notify_admin_login')
  bot_notify_admin_login?: boolean;

  @ApiPropertyOptional({ type: Boolean, default: true, description: 'Bot notice when an automatic backup fails.' })
  @SettingsRule('bot_notify_backup_failure')
  bot_notify_backup_failure?: boolean;

  @ApiPropertyOptional({ type: String, nullable: true, writeOnly: true, description: `Bark device URL (https://api.day.app/<device key>). ${SECRET_NOTE}` })
  @SettingsRule('push_bark_url')
  push_bark_url?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, writeOnly: true, description: `ServerChan SendKey. ${SECRET_NOTE}` })
  @SettingsRule('push_server_chan_key')
  push_server_chan_key?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: `ntfy topic URL (https://ntfy.sh/<topic>). ${CLEARABLE_NOTE}` })
  @SettingsRule('push_ntfy_url')
  push_ntfy_url?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, writeOnly: true, description: `ntfy access token (optional). ${SECRET_NOTE}` })
  @SettingsRule('push_ntfy_token')
  push_ntfy_token?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, writeOnly: true, description: `Discord incoming webhook URL (https://discord.com/api/webhooks/<id>/<token>). ${SECRET_NOTE}` })
  @SettingsRule('push_discord_url')
  push_discord_url?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, writeOnly: true, description: `Slack incoming webhook URL (https://hooks.slack.com/services/...). ${SECRET_NOTE}` })
  @SettingsRule('push_slack_url')
  push_slack_url?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, writeOnly: true, description: `Microsoft Teams Workflows webhook URL ("When a Teams webhook request is received"). ${SECRET_NOTE}` })
  @SettingsRule('push_teams_url')
  push_teams_url?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: `Gotify server URL (https://gotify.example.org). ${CLEARABLE_NOTE}` })
  @SettingsRule('push_gotify_url')
  push_gotify_url?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, writeOnly: true, description: `Gotify application token. ${SECRET_NOTE}` })
  @SettingsRule('push_gotify_token')
  push_gotify_token?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: `SMTP server host name of the email channel. ${CLEARABLE_NOTE}` })
  @SettingsRule('push_email_smtp_host')
  push_email_smtp_host?: string | null;

  @ApiPropertyOptional({ type: Number, default: 587, minimum: 1, maximum: 65535, description: 'SMTP server port (587 for STARTTLS, 465 for TLS).' })
  @SettingsRule('push_email_smtp_port')
  push_email_smtp_port?: number;

  @ApiPropertyOptional({ enum: SMTP_SECURITY, default: 'starttls', description: 'starttls (required on a plain port), tls (from the first byte) or none (only to a local server, with APP_OUTBOUND_ALLOW_PRIVATE=1).' })
  @SettingsRule('push_email_smtp_security')
  push_email_smtp_security?: SmtpSecurity;

  @ApiPropertyOptional({ type: String, nullable: true, description: `SMTP login (optional). ${CLEARABLE_NOTE}` })
  @SettingsRule('push_email_smtp_username')
  push_email_smtp_username?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, writeOnly: true, description: `SMTP password. ${SECRET_NOTE}` })
  @SettingsRule('push_email_smtp_password')
  push_email_smtp_password?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: `Sender: panel@example.com or "Name <panel@example.com>". ${CLEARABLE_NOTE}` })
  @SettingsRule('push_email_from')
  push_email_from?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: `Recipients, 1 to 20 addresses separated by commas. ${CLEARABLE_NOTE}` })
  @SettingsRule('push_email_to')
  push_email_to?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: `Custom webhook URL: notices are POSTed as signed JSON. ${CLEARABLE_NOTE}` })
  @SettingsRule('webhook_url')
  webhook_url?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, writeOnly: true, description: `Signing secret of the custom webhook (at least 16 characters). ${SECRET_NOTE}` })
  @SettingsRule('webhook_secret')
  webhook_secret?: string | null;

  @ApiPropertyOptional({ type: Boolean, default: true, description: 'Push channels and webhook: failed task runs.' })
  @SettingsRule('push_notify_task_failure')
  push_notify_task_failure?: boolean;

  @ApiPropertyOptional({ type: Boolean, default: false, description: 'Push channels and webhook: successful task runs.' })
  @SettingsRule('push_notify_task_success')
  push_notify_task_success?: boolean;

  @ApiPropertyOptional({ type: Boolean, default: true, description: 'Push channels and webhook: failed automatic backups.' })
  @SettingsRule('push_notify_backup_failure')
  push_notify_backup_failure?: boolean;

  @ApiPropertyOptional({ type: Boolean, default: true, description: 'Push channels and webhook: an account session became invalid.' })
  @SettingsRule('push_notify_session_invalid')
  push_notify_session_invalid?: boolean;

  @ApiPropertyOptional({ type: Boolean, default: false, description: 'Push channels and webhook: every panel login.' })
  @SettingsRule('push_notify_admin_login')
  push_notify_admin_login?: boolean;

  @ApiPropertyOptional({ enum: PANEL_LANGUAGES, default: 'en', description: 'The language of the notifications (bot, push channels, webhook): en (English) or zh (Simplified Chinese).' })
  @SettingsRule('notify_language')
  notify_language?: PanelLanguage;

  @ApiPropertyOptional({ type: String, default: 'UTC', example: 'Europe/Berlin', description: 'IANA time zone of the schedules.' })
  @SettingsRule('timezone')
  timezone?: string;

  @ApiPropertyOptional({ type: Number, minimum: 0, maximum: 3600, default: 3, description: 'Safety governor: seconds between two actions of an account in one chat.' })
  @SettingsRule('safety_min_spacing_seconds')
  safety_min_spacing_seconds?: number;

  @ApiPropertyOptional({ type: Number, minimum: 1, maximum: 600, default: 20, description: 'Safety governor: actions (messages, dice, clicks, deletions) per account per minute.' })
  @SettingsRule('safety_per_minute')
  safety_per_minute?: number;

  @ApiPropertyOptional({ type: Number, minimum: 1, maximum: 100000, default: 500, description: 'Safety governor: actions per account per day (UTC).' })
  @SettingsRule('safety_per_day')
  safety_per_day?: number;

  @ApiPropertyOptional({ type: Number, minimum: 0, maximum: 60000, default: 1500, description: 'Safety governor: random milliseconds added to every wait it imposes.' })
  @SettingsRule('safety_jitter_ms')
  safety_jitter_ms?: number;

  @ApiPropertyOptional({ type: Number, minimum: 1, maximum: 86400, default: 600, description: "Safety governor: a FloodWait longer than this pauses the account's automation until resumed." })
  @SettingsRule('safety_flood_pause_seconds')
  safety_flood_pause_seconds?: number;

  @ApiPropertyOptional({ type: String, nullable: true, description: `OpenAI-compatible base URL. ${CLEARABLE_NOTE}` })
  @SettingsRule('ai_base_url')
  ai_base_url?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: CLEARABLE_NOTE })
  @SettingsRule('ai_model')
  ai_model?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, writeOnly: true, description: SECRET_NOTE })
  @SettingsRule('ai_api_key')
  ai_api_key?: string | null;

  @ApiPropertyOptional({ type: Number, nullable: true, description: 'Telegram api_id from my.telegram.org.' })
  @SettingsRule('telegram_api_id')
  telegram_api_id?: number | null;

  @ApiPropertyOptional({ type: String, nullable: true, writeOnly: true, description: `Telegram api_hash (32 hex). ${SECRET_NOTE}` })
  @SettingsRule('telegram_api_hash')
  telegram_api_hash?: string | null;
}

/** Turns the request into a service patch: an empty secret means "keep", other empty text means "clear". */
export function toSettingsPatch(dto: UpdateSettingsDto): SettingsPatch {
  const patch: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(dto) as Array<[keyof SettingsPatch, unknown]>) {
    if (value === undefined) continue;
    if (value === '') {
      if (SETTINGS_FIELDS[name].secret) continue;
      patch[name] = null;
      continue;
    }
    patch[name] = value;
  }
  return patch as SettingsPatch;
}
