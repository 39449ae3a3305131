import { PANEL_LANGUAGES, PanelLanguage } from '@shared/panel-texts';
import { ApiProperty } from '@nestjs/swagger';
import { AiSettings, GlobalSettings, SMTP_SECURITY, SmtpSecurity, TelegramApiSettings } from '../settings.types';

/** GET /api/config/settings: every setting, with secrets replaced by `*_set` flags. */
export class SettingsViewDto {
  @ApiProperty() device_keepalive_enabled!: boolean;
  @ApiProperty() device_keepalive_interval_days!: number;
  @ApiProperty() auto_backup_enabled!: boolean;
  @ApiProperty() auto_backup_interval_hours!: number;
  @ApiProperty() auto_backup_keep!: number;
  @ApiProperty({ type: String, nullable: true }) webdav_url!: string | null;
  @ApiProperty({ type: String, nullable: true }) webdav_username!: string | null;
  @ApiProperty() webdav_password_set!: boolean;
  @ApiProperty() webdav_dir!: string;
  @ApiProperty() bot_token_set!: boolean;
  @ApiProperty({ type: String, nullable: true }) bot_chat_id!: string | null;
  @ApiProperty() bot_notify_enabled!: boolean;
  @ApiProperty() bot_notify_task_failure!: boolean;
  @ApiProperty() bot_notify_task_success!: boolean;
  @ApiProperty() bot_notify_session_invalid!: boolean;
  @ApiProperty() bot_notify_admin_login!: boolean;
  @ApiProperty() bot_notify_backup_failure!: boolean;
  @ApiProperty() push_bark_url_set!: boolean;
  @ApiProperty() push_server_chan_key_set!: boolean;
  @ApiProperty({ type: String, nullable: true }) push_ntfy_url!: string | null;
  @ApiProperty() push_ntfy_token_set!: boolean;
  @ApiProperty() push_discord_url_set!: boolean;
  @ApiProperty() push_slack_url_set!: boolean;
  @ApiProperty() push_teams_url_set!: boolean;
  @ApiProperty({ type: String, nullable: true }) push_gotify_url!: string | null;
  @ApiProperty() push_gotify_token_set!: boolean;
  @ApiProperty({ type: String, nullable: true }) push_email_smtp_host!: string | null;
  @ApiProperty() push_email_smtp_port!: number;
  @ApiProperty({ enum: SMTP_SECURITY }) push_email_smtp_security!: SmtpSecurity;
  @ApiProperty({ type: String, nullable: true }) push_email_smtp_username!: string | null;
  @ApiProperty() push_email_smtp_password_set!: boolean;
  @ApiProperty({ type: String, nullable: true }) push_email_from!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Recipients, separated by commas' }) push_email_to!: string | null;
  @ApiProperty({ type: String, nullable: true }) webhook_url!: string | null;
  @ApiProperty() webhook_secret_set!: boolean;
  @ApiProperty() push_notify_task_failure!: boolean;
  @ApiProperty() push_notify_task_success!: boolean;
  @ApiProperty() push_notify_backup_failure!: boolean;
  @ApiProperty() push_notify_session_invalid!: boolean;
  @ApiProperty() push_notify_admin_login!: boolean;
  @ApiProperty({ enum: PANEL_LANGUAGES }) notify_language!: PanelLanguage;
  @ApiProperty() timezone!: string;
  @ApiProperty() safety_min_spacing_seconds!: number;
  @ApiProperty() safety_per_minute!: number;
  @ApiProperty() safety_per_day!: number;
  @ApiProperty() safety_jitter_ms!: number;
  @ApiProperty() safety_flood_pause_seconds!: number;
  @ApiProperty({ type: String, nullable: true }) ai_base_url!: string | null;
  @ApiProperty({ type: String, nullable: true }) ai_model!: string | null;
  @ApiProperty() ai_api_key_set!: boolean;
  @ApiProperty({ type: Number, nullable: true }) telegram_api_id!: number | null;
  @ApiProperty() telegram_api_hash_set!: boolean;
}

export function settingsView(global: GlobalSettings, ai: AiSettings, telegramApi: TelegramApiSettings): SettingsViewDto {
  const {
    webdav_password,
    bot_token,
    push_bark_url,
    push_server_chan_key,
    push_ntfy_token,
    push_discord_url,
    push_slack_url,
    push_teams_url,
    push_gotify_token,
    push_email_smtp_password,
    webhook_secret,
    ...globalWithoutSecrets
  } = global;
  return {
    ...globalWithoutSecrets,
    webdav_password_set: Boolean(webdav_password),
    bot_token_set: Boolean(bot_token),
    push_bark_url_set: Boolean(push_bark_url),
    push_server_chan_key_set: Boolean(push_server_chan_key),
    push_ntfy_token_set: Boolean(push_ntfy_token),
    push_discord_url_set: Boolean(push_discord_url),
    push_slack_url_set: Boolean(push_slack_url),
    push_teams_url_set: Boolean(push_teams_url),
    push_gotify_token_set: Boolean(push_gotify_token),
    push_email_smtp_password_set: Boolean(push_email_smtp_password),
    webhook_secret_set: Boolean(webhook_secret),
    ai_base_url: ai.base_url,
    ai_model: ai.model,
    ai_api_key_set: Boolean(ai.api_key),
    telegram_api_id: telegramApi.api_id,
    telegram_api_hash_set: Boolean(telegramApi.api_hash),
  };
}
