import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isIP } from 'node:net';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { AuditLogService } from '../admin/audit-log.service';
import { MonitorError } from '../common/monitor-error';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { GithubAppSharedSettings } from '../settings/github-app-shared-settings';
import { SecretCipher } from '../settings/secret-cipher';
import { SettingsChanges } from '../settings/settings-changes';
import { SettingsStore } from '../settings/settings.store';
import { CHANNEL_TEST_SENDER, ChannelTestSender } from './channel-test-sender';
import {
  ChannelTestResultDto,
  CreatedNotificationChannelDto,
  CreateNotificationChannelDto,
  NotificationChannelDto,
  UpdateNotificationChannelDto,
} from './dto/notification-channel.dto';
import { ChannelKind, NotificationChannelEntity } from './notification-channel.entity';
import { NotificationChannelChanges, NotificationChannelRepository } from './notification-channel.repository';
import { channelSecretAssociatedData } from './outbound-secrets';
import { requireHttpUrl } from '../common/http-url';
import { generateStandardWebhookSecret, isStandardWebhookSecret, WHSEC_FORMAT_HINT } from './standard-webhook-secret';
import { ChannelConfig, SECRET_URL_KINDS } from './channel-senders';

/** What a create or update may say about a channel's target, before it is checked. */
type ChannelInput = Pick<
  CreateNotificationChannelDto,
  'chat_id' | 'url' | 'smtp_host' | 'smtp_port' | 'smtp_security' | 'smtp_username' | 'email_from' | 'email_to'
> & { message_thread_id?: number };

/** A channel ready to deliver through: the secret decrypted, the filter parsed. */
export interface DeliverableChannel {
  id: string;
  kind: ChannelKind;
  name: string;
  chatId?: string;
  /** telegram: the default forum topic. */
  messageThreadId?: number;
  url?: string;
  secret: string;
  allowPrivate: boolean;
  /** Empty: every kind. */
  eventKinds: string[];
  config: ChannelConfig;
}

const TELEGRAM_TOKEN = /^\d+:[A-Za-z0-9_-]+$/;
const SEEDED_MARKER = (kind: ChannelKind) => `notification_channels.seeded.${kind}`;
const SEEDED_NAME: Record<'telegram' | 'http_webhook', string> = { telegram: 'Telegram (from environment)', http_webhook: 'Webhook (from environment)' };
const GOTIFY_TOKEN = /^[A-Za-z0-9._-]{8,128}$/;
const NTFY_TOKEN = /^tk_[A-Za-z0-9]{16,64}$/;
const DISCORD_WEBHOOK_PATH = /^\/api\/webhooks\/\d{1,25}\/[A-Za-z0-9_-]{10,200}\/?$/;

function isPrivateHostLiteral(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const version = isIP(host);
  if (version === 4) {
    const [a, b] = host.split('.').map(Number);
    return a === 10 || a === 127 || a === 0 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
  }
  if (version === 6) return host === '::1' || host === '::' || /^f[cd]/.test(host) || /^fe[89ab]/.test(host) || host.startsWith('::ffff:');
  return false;
}

/**
 * Notification channels (Telegram bot chats and signed outbound webhooks). Secrets are sealed with
 * the master key; the environment seeds one channel of each kind once, after which the console
 * value is authoritative.
 */
@Injectable()
export class NotificationChannelsService implements OnModuleInit {
  private readonly logger = new Logger(NotificationChannelsService.name);

  constructor(
    @Inject(MONITOR_CONFIG) private readonly config: MonitorConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly records: NotificationChannelRepository,
    private readonly cipher: SecretCipher,
    private readonly store: SettingsStore,
    private readonly audit: AuditLogService,
    private readonly github: GithubAppSharedSettings,
    @Inject(CHANNEL_TEST_SENDER) private readonly tester: ChannelTestSender,
    private readonly changes: SettingsChanges,
  ) {}

  async onModuleInit(): Promise<void> {
    const { botToken, botChatId, webhookUrl, webhookSecret, webhookAllowPrivate } = this.config.notifications;
    if (botToken && botChatId) {
      await this.seed('telegram', { chat_id: botChatId }, botToken, false);
    }
    if (webhookUrl && webhookSecret) {
      await this.seed('http_webhook', { url: webhookUrl }, webhookSecret, webhookAllowPrivate);
    } else if (webhookUrl) {
      this.logger.warn('MONITOR_HTTP_WEBHOOK_URL is set without MONITOR_HTTP_WEBHOOK_SECRET: no webhook channel was created');
    }
  }

  async list(page: number, perPage: number): Promise<{ items: NotificationChannelDto[]; total: number }> {
    const { rows, total } = await this.records.find({ page, perPage, skip: (page - 1) * perPage });
    return { items: rows.map((row) => this.toDto(row)), total };
  }

  async get(id: string): Promise<NotificationChannelDto> {
    return this.toDto(await this.find(id));
  }

  /**
   * Creates a channel. A webhook channel without a secret gets a generated Standard Webhooks secret,
   * answered once in `secret` (it is never shown again).
   */
  async create(body: CreateNotificationChannelDto, actor: string, clientIp: string): Promise<CreatedNotificationChannelDto> {
    const config = this.configFor(body.kind, { ...body, message_thread_id: body.message_thread_id ?? undefined });
    if (!body.secret && body.kind === 'telegram') {
      throw new MonitorError('validation_failed', 'secret (the bot token) is required', { field: 'secret' });
    }
    if (!body.secret && body.kind === 'gotify') {
      throw new MonitorError('validation_failed', 'secret (the Gotify application token) is required', { field: 'secret' });
    }
    const secretUrl = SECRET_URL_KINDS.includes(body.kind);
    if (secretUrl && body.secret !== undefined) {
      throw new MonitorError('validation_failed', `a ${body.kind} channel keeps its token in url; leave secret out`, { field: 'secret' });
    }
    if (secretUrl && !body.url) throw new MonitorError('validation_failed', `url is required for a ${body.kind} channel`, { field: 'url' });
    const generated = !body.secret && body.kind === 'http_webhook' ? generateStandardWebhookSecret() : undefined;
    const secret = secretUrl ? (body.url as string) : (body.secret ?? generated ?? '');
    const allowPrivate = body.allow_private ?? false;
    this.checkTarget(body.kind, config, allowPrivate, secretUrl ? secret : undefined);
    await this.checkSecret(body.kind, secret);
    const id = randomUUID();
    const now = new Date();
    const entity: NotificationChannelEntity = {
      id,
      kind: body.kind,
      name: body.name.trim(),
      enabled: body.enabled ?? true,
      config: JSON.stringify(config),
      secret: this.cipher.seal(secret, channelSecretAssociatedData(id)),
      allowPrivate,
      eventKinds: JSON.stringify(body.event_kinds ?? []),
      lastTestAt: null,
      lastTestOk: null,
      lastTestError: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.writeUnique(async (manager) => {
      await this.records.insert(entity, manager);
      await this.audit.record({ actor, action: 'notification_channel.created', target: id, details: { kind: body.kind, name: entity.name }, clientIp }, manager);
    });
    await this.changes.announce('channels');
    return generated ? { ...this.toDto(entity), secret: generated } : this.toDto(entity);
  }

  /** Replaces a webhook channel's signing secret with a generated Standard Webhooks secret, answered once. */
  async rotateSecret(id: string, actor: string, clientIp: string): Promise<CreatedNotificationChannelDto> {
    const existing = await this.find(id);
    if (existing.kind !== 'http_webhook') {
      throw new MonitorError('validation_failed', 'only http_webhook channels have a signing secret to rotate (set a telegram bot token with PATCH)', { field: 'kind' });
    }
    const secret = generateStandardWebhookSecret();
    await this.dataSource.transaction(async (manager) => {
      await this.records.update(
        id,
        { secret: this.cipher.seal(secret, channelSecretAssociatedData(id)), lastTestAt: null, lastTestOk: null, lastTestError: null, updatedAt: new Date() },
        manager,
      );
      await this.audit.record({ actor, action: 'notification_channel.secret_rotated', target: id, clientIp }, manager);
    });
    await this.changes.announce('channels');
    return { ...(await this.get(id)), secret };
  }

  async update(id: string, body: UpdateNotificationChannelDto, actor: string, clientIp: string): Promise<NotificationChannelDto> {
    const existing = await this.find(id);
    const current = JSON.parse(existing.config) as ChannelConfig;
    const secretUrl = SECRET_URL_KINDS.includes(existing.kind);
    if (secretUrl && body.secret !== undefined) {
      throw new MonitorError('validation_failed', `a ${existing.kind} channel keeps its token in url; send the new url instead`, { field: 'secret' });
    }
    const config = this.configFor(existing.kind, {
      chat_id: body.chat_id ?? current.chat_id,
      url: secretUrl ? undefined : (body.url ?? current.url),
      // null clears the default topic; left out keeps it.
      message_thread_id: body.message_thread_id === null ? undefined : (body.message_thread_id ?? current.message_thread_id),
      smtp_host: body.smtp_host ?? current.smtp_host,
      smtp_port: body.smtp_port ?? current.smtp_port,
      smtp_security: body.smtp_security ?? current.smtp_security,
      smtp_username: body.smtp_username ?? current.smtp_username,
      email_from: body.email_from ?? current.email_from,
      email_to: body.email_to ?? current.email_to,
    });
    const allowPrivate = body.allow_private ?? existing.allowPrivate;
    const newSecret = secretUrl ? body.url : body.secret;
    const targetUrl = secretUrl ? (body.url ?? (existing.secret ? this.cipher.open(existing.secret, channelSecretAssociatedData(id)) : undefined)) : undefined;
    this.checkTarget(existing.kind, config, allowPrivate, targetUrl);
    if (newSecret !== undefined) await this.checkSecret(existing.kind, newSecret);
    const changes: NotificationChannelChanges = {
      name: body.name?.trim() ?? existing.name,
      enabled: body.enabled ?? existing.enabled,
      config: JSON.stringify(config),
      allowPrivate,
      eventKinds: body.event_kinds ? JSON.stringify(body.event_kinds) : existing.eventKinds,
      updatedAt: new Date(),
    };
    if (newSecret !== undefined) changes.secret = this.cipher.seal(newSecret, channelSecretAssociatedData(id));
    // A test of the old target or secret says nothing about the new one.
    if (newSecret !== undefined || changes.config !== existing.config || allowPrivate !== existing.allowPrivate) {
      Object.assign(changes, { lastTestAt: null, lastTestOk: null, lastTestError: null });
    }
    const changedFields = Object.keys(body).filter((key) => body[key as keyof UpdateNotificationChannelDto] !== undefined);
    await this.writeUnique(async (manager) => {
      await this.records.update(id, changes, manager);
      await this.audit.record({ actor, action: 'notification_channel.updated', target: id, details: { fields: changedFields }, clientIp }, manager);
    });
    await this.changes.announce('channels');
    return this.get(id);
  }

  async setEnabled(id: string, enabled: boolean, actor: string, clientIp: string): Promise<NotificationChannelDto> {
    await this.find(id);
    await this.dataSource.transaction(async (manager) => {
      await this.records.update(id, { enabled, updatedAt: new Date() }, manager);
      await this.audit.record({ actor, action: enabled ? 'notification_channel.enabled' : 'notification_channel.disabled', target: id, clientIp }, manager);
    });
    await this.changes.announce('channels');
    return this.get(id);
  }

  async remove(id: string, actor: string, clientIp: string): Promise<void> {
    const existing = await this.find(id);
    await this.dataSource.transaction(async (manager) => {
      await this.records.delete(id, manager);
      await this.audit.record({ actor, action: 'notification_channel.deleted', target: id, details: { name: existing.name }, clientIp }, manager);
    });
    await this.changes.announce('channels');
  }

  /** Sends one fixed test message through the channel; changes nothing. */
  async test(id: string, actor: string, clientIp: string): Promise<ChannelTestResultDto> {
    const channel = this.toDeliverable(await this.find(id));
    const started = Date.now();
    const outcome = await this.tester.send(channel);
    const elapsed = Date.now() - started;
    const error = outcome.ok ? null : [outcome.errorCode, outcome.message].filter(Boolean).join(': ').slice(0, 500) || 'failed';
    await this.dataSource.transaction(async (manager) => {
      // Only the columns of the result: an edit made while the test ran keeps its fields.
      await this.records.update(id, { lastTestAt: new Date(), lastTestOk: outcome.ok, lastTestError: error }, manager);
      await this.audit.record({ actor, action: 'notification_channel.tested', target: id, details: { ok: outcome.ok }, clientIp }, manager);
    });
    return { ok: outcome.ok, elapsed_ms: elapsed, status: outcome.status, error_code: outcome.errorCode, message: outcome.message };
  }

  /** Enabled channels as routing sees them (no secret opened): kind filter and default topic, for a dry run. */
  async routableChannels(): Promise<Array<{ id: string; kind: ChannelKind; enabled: boolean; eventKinds: string[]; defaultThreadId: number | null }>> {
    const rows = await this.records.enabled();
    return rows
      .filter((row) => row.secret !== null)
      .map((row) => ({
        id: row.id,
        kind: row.kind,
        enabled: true,
        eventKinds: JSON.parse(row.eventKinds) as string[],
        defaultThreadId: (JSON.parse(row.config) as ChannelConfig).message_thread_id ?? null,
      }));
  }

  /** Enabled channels with secrets decrypted, for the notification sender. */
  async deliverableChannels(): Promise<DeliverableChannel[]> {
    const rows = await this.records.enabled();
    return rows.filter((row) => row.secret !== null).map((row) => this.toDeliverable(row));
  }

  private toDeliverable(row: NotificationChannelEntity): DeliverableChannel {
    if (row.secret === null) throw new MonitorError('conflict', 'the channel has no secret');
    const config = JSON.parse(row.config) as ChannelConfig;
    return {
      id: row.id,
      kind: row.kind,
      name: row.name,
      chatId: config.chat_id,
      messageThreadId: config.message_thread_id,
      url: config.url,
      secret: this.cipher.open(row.secret, channelSecretAssociatedData(row.id)),
      allowPrivate: row.allowPrivate,
      eventKinds: JSON.parse(row.eventKinds) as string[],
      config,
    };
  }

  private async seed(kind: 'telegram' | 'http_webhook', config: ChannelConfig, secret: string, allowPrivate: boolean): Promise<void> {
    if (await this.store.get<boolean>(SEEDED_MARKER(kind))) return;
    if (!this.cipher.available) {
      this.logger.warn(`the ${kind} channel from the environment was not stored: set MONITOR_ENCRYPTION_KEY so its secret can be encrypted`);
      return;
    }
    await this.dataSource.transaction(async (manager) => {
      if ((await this.records.countOfKind(kind, manager)) === 0) {
        const id = randomUUID();
        const now = new Date();
        const name = (await this.records.nameTaken(SEEDED_NAME[kind], manager)) ? `${SEEDED_NAME[kind]} ${id.slice(0, 8)}` : SEEDED_NAME[kind];
        await this.records.insert(
          {
            id,
            kind,
            name,
            enabled: true,
            config: JSON.stringify(config),
            secret: this.cipher.seal(secret, channelSecretAssociatedData(id)),
            allowPrivate,
            eventKinds: '[]',
            lastTestAt: null,
            lastTestOk: null,
            lastTestError: null,
            createdAt: now,
            updatedAt: now,
          },
          manager,
        );
        await this.audit.record({ actor: 'system', action: 'notification_channel.seeded', target: id, details: { kind } }, manager);
      }
      await this.store.set(SEEDED_MARKER(kind), true, manager);
    });
  }

  private configFor(kind: ChannelKind, fields: ChannelInput): ChannelConfig {
    if (kind !== 'telegram' && fields.message_thread_id !== undefined) {
      throw new MonitorError('validation_failed', 'message_thread_id (a Telegram forum topic) applies only to telegram channels', { field: 'message_thread_id' });
    }
    switch (kind) {
      case 'telegram':
        if (!fields.chat_id) throw new MonitorError('validation_failed', 'chat_id is required for a telegram channel', { field: 'chat_id' });
        return fields.message_thread_id === undefined ? { chat_id: fields.chat_id } : { chat_id: fields.chat_id, message_thread_id: fields.message_thread_id };
      case 'http_webhook':
      case 'ntfy':
      case 'gotify':
        if (!fields.url) throw new MonitorError('validation_failed', `url is required for a ${kind} channel`, { field: 'url' });
        return { url: fields.url };
      case 'email': {
        if (!fields.smtp_host) throw new MonitorError('validation_failed', 'smtp_host is required for an email channel', { field: 'smtp_host' });
        if (!fields.email_from) throw new MonitorError('validation_failed', 'email_from is required for an email channel', { field: 'email_from' });
        if (!fields.email_to || fields.email_to.length === 0) throw new MonitorError('validation_failed', 'email_to needs at least one address', { field: 'email_to' });
        const config: ChannelConfig = {
          smtp_host: fields.smtp_host,
          smtp_port: fields.smtp_port ?? 587,
          smtp_security: fields.smtp_security ?? 'starttls',
          email_from: fields.email_from,
          email_to: fields.email_to,
        };
        if (fields.smtp_username) config.smtp_username = fields.smtp_username;
        return config;
      }
      default:
        // discord, slack, teams, bark: the URL is the secret.
        return {};
    }
  }

  /** The target is a URL the kind can use (https unless private or allowed), not private unless allowed. */
  private checkTarget(kind: ChannelKind, config: ChannelConfig, allowPrivate: boolean, secretUrl?: string): void {
    if (kind === 'email') {
      const host = config.smtp_host ?? '';
      if (!allowPrivate && isPrivateHostLiteral(host)) {
        throw new MonitorError('validation_failed', 'smtp_host is a private or loopback address; set allow_private to allow it', { field: 'smtp_host', rule: 'private_address' });
      }
      if (config.smtp_security === 'none' && !allowPrivate) {
        throw new MonitorError('validation_failed', 'smtp_security none (no encryption) is allowed only for a local server (set allow_private)', { field: 'smtp_security', rule: 'unencrypted_remote' });
      }
      return;
    }
    const raw = secretUrl ?? config.url;
    if (kind === 'telegram' || !raw) return;
    if (SECRET_URL_KINDS.includes(kind) && /…|%E2%80%A6/i.test(raw)) {
      throw new MonitorError('validation_failed', 'url is the shortened form the console shows; paste the whole webhook URL', { field: 'url' });
    }
    const url = requireHttpUrl(raw, 'url');
    if (url.protocol === 'http:' && !allowPrivate && !this.config.notifications.webhookAllowInsecure) {
      throw new MonitorError(
        'validation_failed',
        'url must be https; plain http is allowed only for a local receiver (set allow_private) or with MONITOR_HTTP_WEBHOOK_ALLOW_INSECURE=true',
        { field: 'url', rule: 'plain_http' },
      );
    }
    if (url.username || url.password) throw new MonitorError('validation_failed', 'url must not carry a user name or password', { field: 'url' });
    if (kind === 'discord' && !DISCORD_WEBHOOK_PATH.test(url.pathname)) {
      throw new MonitorError('validation_failed', 'url must be a Discord webhook URL like https://discord.com/api/webhooks/<id>/<token>', { field: 'url' });
    }
    if (allowPrivate) return;
    if (isPrivateHostLiteral(url.hostname)) {
      throw new MonitorError('validation_failed', 'url points to a private or loopback address; set allow_private to allow it', { field: 'url', rule: 'private_address' });
    }
  }

  private async checkSecret(kind: ChannelKind, secret: string): Promise<void> {
    switch (kind) {
      case 'telegram':
        if (!TELEGRAM_TOKEN.test(secret)) throw new MonitorError('validation_failed', 'secret must be a bot token like <bot id>:<token>', { field: 'secret' });
        return;
      case 'http_webhook': {
        const inbound = await this.github.webhookSecrets();
        if (inbound.includes(secret)) {
          throw new MonitorError('validation_failed', 'the inbound GitHub webhook secret must not be used as an outbound secret', { field: 'secret', rule: 'inbound_secret_reused' });
        }
        if (!isStandardWebhookSecret(secret)) throw new MonitorError('validation_failed', WHSEC_FORMAT_HINT, { field: 'secret' });
        return;
      }
      case 'gotify':
        if (!GOTIFY_TOKEN.test(secret)) throw new MonitorError('validation_failed', 'secret must be a Gotify application token (8-128 letters, digits, dot, dash or underscore)', { field: 'secret' });
        return;
      case 'ntfy':
        if (secret !== '' && !NTFY_TOKEN.test(secret)) throw new MonitorError('validation_failed', 'secret must be an ntfy access token like tk_… (or left out for an open topic)', { field: 'secret' });
        return;
      default:
        return;
    }
  }

  private async find(id: string): Promise<NotificationChannelEntity> {
    const row = await this.records.findById(id);
    if (!row) throw new MonitorError('not_found', 'no such notification channel');
    return row;
  }

  private async writeUnique(write: (manager: EntityManager) => Promise<void>): Promise<void> {
    try {
      await this.dataSource.transaction(write);
    } catch (error) {
      if (error instanceof QueryFailedError && /unique|duplicate/i.test(error.message)) {
        throw new MonitorError('conflict', 'a channel with this name exists', { field: 'name', rule: 'taken' });
      }
      throw error;
    }
  }

  /** A URL that carries a token, shown as its origin only (`https://discord.com/…`). */
  private shortenedSecretUrl(row: NotificationChannelEntity): string | null {
    if (row.secret === null) return null;
    try {
      return `${new URL(this.cipher.open(row.secret, channelSecretAssociatedData(row.id))).origin}/…`;
    } catch {
      return null;
    }
  }

  private toDto(row: NotificationChannelEntity): NotificationChannelDto {
    const config = JSON.parse(row.config) as ChannelConfig;
    return {
      id: row.id,
      kind: row.kind,
      name: row.name,
      enabled: row.enabled,
      chat_id: config.chat_id ?? null,
      message_thread_id: config.message_thread_id ?? null,
      url: SECRET_URL_KINDS.includes(row.kind) ? this.shortenedSecretUrl(row) : (config.url ?? null),
      smtp_host: config.smtp_host ?? null,
      smtp_port: config.smtp_port ?? null,
      smtp_security: config.smtp_security ?? null,
      smtp_username: config.smtp_username ?? null,
      email_from: config.email_from ?? null,
      email_to: config.email_to ?? null,
      secret_set: row.secret !== null,
      allow_private: row.allowPrivate,
      event_kinds: JSON.parse(row.eventKinds) as string[],
      last_test: row.lastTestAt ? { at: row.lastTestAt.toISOString(), ok: row.lastTestOk === true, error: row.lastTestError } : null,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
    };
  }
}
