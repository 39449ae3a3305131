import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { NOTIFICATION_EVENT_KINDS } from '../event-kinds';
import { CHANNEL_KINDS, ChannelKind } from '../notification-channel.entity';
import { SMTP_SECURITY, SmtpSecurity } from '../channel-senders';
import { OptionalNotNull } from '../../common/optional-not-null';
import { ParsesAsHttpUrl } from '../../common/http-url';

const CHAT_ID = /^(-?\d{1,20}|@[A-Za-z0-9_]{5,32})$/;
const HOST_NAME = /^([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$|^\d{1,3}(\.\d{1,3}){3}$|^[0-9A-Fa-f:]{2,39}$/;
const EMAIL_ADDRESS = /^[^\s@<>"(),;:]{1,64}@[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$/;
/** A sender as "Name <address>" or a bare address. */
const EMAIL_FROM = /^([^\r\n<>"]{1,100} <[^\s@<>"(),;:]{1,64}@[A-Za-z0-9.-]{1,253}>|[^\s@<>"(),;:]{1,64}@[A-Za-z0-9.-]{1,253})$/;

/** name is declared in each subclass: a ValidateIf here (OptionalNotNull) would skip the create's required check too (a missing name was a 500). */
class ChannelFieldsDto {
  @ApiPropertyOptional({ default: true })
  @OptionalNotNull()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ description: 'telegram: numeric chat id or @channel', example: '-1001234567890' })
  @OptionalNotNull()
  @Matches(CHAT_ID, { message: 'chat_id must be a numeric chat id or @channel' })
  chat_id?: string;

  @ApiPropertyOptional({
    nullable: true,
    type: Number,
    description: 'telegram: the forum topic (message_thread_id) messages go to unless a routing rule names another; null clears it',
    example: 42,
  })
  @IsOptional()
  @IsInt({ message: 'message_thread_id must be a whole number' })
  @Min(1)
  @Max(2147483647)
  message_thread_id?: number | null;

  @ApiPropertyOptional({
    description:
      'http_webhook: the receiver URL; ntfy: the topic URL; gotify: the server URL; discord, slack, teams (a Workflows webhook), bark (the device URL): ' +
      'the webhook URL, stored encrypted because it carries the token, and shown only as its origin',
    example: 'https://hooks.example.com/monitor',
  })
  @OptionalNotNull()
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false }, { message: 'url must be an http(s) URL' })
  @ParsesAsHttpUrl('url')
  @MaxLength(2048)
  url?: string;

  @ApiPropertyOptional({
    description:
      'telegram: the bot token (required); gotify: the application token (required); ntfy: an access token tk_… (optional); ' +
      'email: the SMTP password (optional); http_webhook: the signing secret, a Standard Webhooks secret (whsec_ + base64 of 24-64 random bytes) ' +
      'that signs webhook-signature and X-Host-Monitor-Signature-256. Left out on a new webhook channel, one is generated and answered once. ' +
      'Stored encrypted, never returned otherwise.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwXkVYhkj8Qx0=',
  })
  @OptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(512)
  secret?: string;

  @ApiPropertyOptional({ description: 'email: the SMTP server host name', example: 'smtp.example.com', maxLength: 253 })
  @OptionalNotNull()
  @IsString()
  @MaxLength(253)
  @Matches(HOST_NAME, { message: 'smtp_host must be a host name or an IP address' })
  smtp_host?: string;

  @ApiPropertyOptional({ description: 'email: the SMTP port (left out: 587)' })
  @OptionalNotNull()
  @IsInt({ message: 'smtp_port must be a whole number' })
  @Min(1)
  @Max(65535)
  smtp_port?: number;

  @ApiPropertyOptional({ enum: SMTP_SECURITY, description: 'email: tls (implicit, port 465), starttls (required; the default), none (local servers only)' })
  @OptionalNotNull()
  @IsIn(SMTP_SECURITY, { message: 'smtp_security must be tls, starttls or none' })
  smtp_security?: SmtpSecurity;

  @ApiPropertyOptional({ description: 'email: the SMTP user name (the password goes in secret)', maxLength: 254 })
  @OptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(254)
  @Matches(/^[^\s]+$/, { message: 'smtp_username must not contain spaces' })
  smtp_username?: string;

  @ApiPropertyOptional({ description: 'email: the sender, an address or "Name <address>"', example: 'repo-monitor <monitor@example.com>', maxLength: 320 })
  @OptionalNotNull()
  @IsString()
  @MaxLength(320)
  @Matches(EMAIL_FROM, { message: 'email_from must be an address like monitor@example.com or "Name <monitor@example.com>"' })
  email_from?: string;

  @ApiPropertyOptional({ type: [String], maxItems: 20, description: 'email: the recipients' })
  @OptionalNotNull()
  @IsArray()
  @ArrayMinSize(1, { message: 'email_to needs at least one address' })
  @ArrayMaxSize(20)
  @Matches(EMAIL_ADDRESS, { each: true, message: 'each entry of email_to must be an address like ops@example.com' })
  email_to?: string[];

  @ApiPropertyOptional({ default: false, description: 'http_webhook: allow private, loopback and link-local targets' })
  @OptionalNotNull()
  @IsBoolean()
  allow_private?: boolean;

  @ApiPropertyOptional({ enum: NOTIFICATION_EVENT_KINDS, isArray: true, description: 'Only these kinds; empty means all' })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(NOTIFICATION_EVENT_KINDS.length)
  @IsIn(NOTIFICATION_EVENT_KINDS, { each: true, message: `each event kind must be one of ${NOTIFICATION_EVENT_KINDS.join(', ')}` })
  event_kinds?: string[];
}

export class CreateNotificationChannelDto extends ChannelFieldsDto {
  @ApiProperty({ enum: CHANNEL_KINDS })
  @IsIn(CHANNEL_KINDS, { message: `kind must be one of ${CHANNEL_KINDS.join(', ')}` })
  kind!: ChannelKind;

  @ApiProperty({ example: 'Team chat', maxLength: 100 })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name!: string;
}

/**
 * Fields left out stay as they are. null is refused everywhere, the secret included: a Telegram
 * channel needs its bot token and a webhook channel its signing secret, so there is no cleared state
 * (replace the secret with a new one, or delete the channel).
 */
export class UpdateNotificationChannelDto extends ChannelFieldsDto {
  @ApiPropertyOptional({ example: 'Team chat', maxLength: 100 })
  @OptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name?: string;
}

export class ToggleNotificationChannelDto {
  @ApiProperty()
  @IsBoolean()
  enabled!: boolean;
}

export class ChannelLastTestDto {
  @ApiProperty({ format: 'date-time' }) at!: string;
  @ApiProperty({ description: 'Whether the test message was accepted by Telegram or the receiver' }) ok!: boolean;
  @ApiProperty({ nullable: true, type: String, description: 'Why it failed (error code and message)' }) error!: string | null;
}

export class NotificationChannelDto {
  @ApiProperty() id!: string;
  @ApiProperty({ enum: CHANNEL_KINDS }) kind!: ChannelKind;
  @ApiProperty() name!: string;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ nullable: true, type: String }) chat_id!: string | null;
  @ApiProperty({ nullable: true, type: Number, description: 'telegram: the default forum topic' }) message_thread_id!: number | null;
  @ApiProperty({ nullable: true, type: String, description: 'For discord, slack, teams and bark only the origin (the URL carries the token)' }) url!: string | null;
  @ApiProperty({ nullable: true, type: String }) smtp_host!: string | null;
  @ApiProperty({ nullable: true, type: Number }) smtp_port!: number | null;
  @ApiProperty({ nullable: true, enum: SMTP_SECURITY }) smtp_security!: SmtpSecurity | null;
  @ApiProperty({ nullable: true, type: String }) smtp_username!: string | null;
  @ApiProperty({ nullable: true, type: String }) email_from!: string | null;
  @ApiProperty({ nullable: true, type: [String] }) email_to!: string[] | null;
  @ApiProperty() secret_set!: boolean;
  @ApiProperty() allow_private!: boolean;
  @ApiProperty({ enum: NOTIFICATION_EVENT_KINDS, isArray: true }) event_kinds!: string[];
  @ApiProperty({
    nullable: true,
    type: ChannelLastTestDto,
    description: 'The last test sent through the channel; null when never tested since its target or secret changed',
  })
  last_test!: ChannelLastTestDto | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

/** A channel as created or rotated: `secret` holds a generated signing secret, shown this once. */
export class CreatedNotificationChannelDto extends NotificationChannelDto {
  @ApiPropertyOptional({ description: 'The generated whsec_ signing secret; present only when it was generated, and never shown again' })
  secret?: string;
}

export class NotificationChannelPageDto {
  @ApiProperty({ type: [NotificationChannelDto] }) items!: NotificationChannelDto[];
  @ApiProperty() page!: number;
  @ApiProperty() per_page!: number;
  @ApiProperty() total!: number;
}

export class ChannelTestResultDto {
  @ApiProperty() ok!: boolean;
  @ApiProperty() elapsed_ms!: number;
  @ApiPropertyOptional({ description: 'HTTP status of the receiver or Bot API' }) status?: number;
  @ApiPropertyOptional({ description: 'Short reason when the test failed' }) error_code?: string;
  @ApiPropertyOptional() message?: string;
}
