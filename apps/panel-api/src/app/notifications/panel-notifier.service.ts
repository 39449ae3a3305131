import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  BarkSender,
  CustomWebhookSender,
  DeliveryErrorCode,
  DiscordWebhookSender,
  EmailSender,
  escapeTelegramHtml,
  GotifySender,
  NtfySender,
  PushChannelKind,
  PushResult,
  PushSender,
  ServerChanSender,
  SlackWebhookSender,
  TeamsWorkflowSender,
  TelegramBotSender,
  TelegramSendResult,
} from '@shared/notify';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import { emailRecipients } from '../settings/settings-fields';
import { SettingsService } from '../settings/settings.service';
import { GlobalSettings } from '../settings/settings.types';
import { NoticeTexts } from './notice-texts';

/** The kinds of notice the panel sends; each has a bot switch and a push-channel switch. */
export type NoticeKind = 'task_failure' | 'task_success' | 'backup_failure' | 'session_invalid' | 'admin_login';

export interface Notice {
  kind: NoticeKind;
  title: string;
  /** Plain text lines; escaped for the bot here. */
  lines: string[];
}

type SwitchName = { [K in keyof GlobalSettings]: GlobalSettings[K] extends boolean ? K : never }[keyof GlobalSettings];

/** The bot's switch of each kind (applies with the master switch `bot_notify_enabled`). */
export const BOT_SWITCH: Record<NoticeKind, SwitchName> = {
  task_failure: 'bot_notify_task_failure',
  task_success: 'bot_notify_task_success',
  backup_failure: 'bot_notify_backup_failure',
  session_invalid: 'bot_notify_session_invalid',
  admin_login: 'bot_notify_admin_login',
};

/** The switch of each kind for the push channels and the custom webhook. */
export const PUSH_SWITCH: Record<NoticeKind, SwitchName> = {
  task_failure: 'push_notify_task_failure',
  task_success: 'push_notify_task_success',
  backup_failure: 'push_notify_backup_failure',
  session_invalid: 'push_notify_session_invalid',
  admin_login: 'push_notify_admin_login',
};

export interface ChannelOutcome {
  channel: 'bot' | PushChannelKind;
  sent: boolean;
  error?: string;
}

export interface NotificationOutcome {
  /** True when at least one channel took the notice. */
  sent: boolean;
  channels: ChannelOutcome[];
}

const PUSH_TIMEOUT_MS = 10_000;

/** Every channel a person can test from its card in the settings. */
export const TESTABLE_CHANNELS = ['bot', 'bark', 'server_chan', 'ntfy', 'discord', 'slack', 'teams', 'gotify', 'email', 'custom_webhook'] as const;
export type TestableChannel = (typeof TESTABLE_CHANNELS)[number];

/** What one test delivery came to. `detail` is the receiver's own words, never a network error's text. */
export interface ChannelTestOutcome {
  ok: boolean;
  /** A delivery's code, or `encryption_required`: unencrypted email to a server the panel may not send it to. */
  errorCode?: DeliveryErrorCode | 'encryption_required';
  status?: number;
  detail?: string;
}

/**
 * The email channel set to send without encryption while private addresses are off: nothing is sent
 * (a login in plain text would cross the internet), and the failure says why.
 */
class PlainSmtpRefused implements PushSender {
  readonly channel = 'email' as const;

  async send(): Promise<PushResult> {
    return {
      channel: this.channel,
      outcome: 'permanent',
      message: 'email without encryption (smtp security "none") goes only to a server on your own network, with APP_OUTBOUND_ALLOW_PRIVATE=1; choose starttls or tls',
      attempts: 0,
      durationMs: 0,
    };
  }
}

/** Keeps the receiver's words (a refusal it explained) and drops our own diagnostics (errno codes, URLs). */
function receiverDetail(errorCode: DeliveryErrorCode | undefined, text: string | undefined): string | undefined {
  if (!text || (errorCode !== 'rejected_by_receiver' && errorCode !== 'http_error' && errorCode !== 'rate_limited')) return undefined;
  return text.slice(0, 300);
}

/**
 * The panel's outbound notices: to the Telegram bot and to every push channel (Bark, ServerChan,
 * ntfy, Discord, Slack, Teams, Gotify, email) and the signed custom webhook configured in the settings, each under the switch of the
 * notice's kind. Reads the settings on every call, so a change applies at once. Never throws.
 */
@Injectable()
export class PanelNotifier {
  private readonly logger = new Logger(PanelNotifier.name);

  constructor(
    private readonly settings: SettingsService,
    @Inject(PANEL_CONFIG) private readonly config: PanelConfig,
  ) {}

  /** The sentences of notifications in the language of the settings (read on every call, so a change applies at once). */
  texts(): NoticeTexts {
    return new NoticeTexts(this.settings.getGlobal().notify_language ?? 'en');
  }

  /** Push URLs reach only public addresses unless APP_OUTBOUND_ALLOW_PRIVATE=1. */
  private get addressGuard(): { allowPrivate: boolean } {
    return { allowPrivate: this.config.outbound.allowPrivate };
  }

  /** The saved bot token and chat id, when both are set. */
  botTarget(settings: Readonly<GlobalSettings> = this.settings.getGlobal()): { token: string; chatId: string } | undefined {
    return settings.bot_token && settings.bot_chat_id ? { token: settings.bot_token, chatId: settings.bot_chat_id } : undefined;
  }

  /** Sends `html` to the saved chat regardless of the switches (used by the test button and keyword hits). */
  async sendToBot(html: string): Promise<TelegramSendResult | undefined> {
    const target = this.botTarget();
    if (!target) return undefined;
    return this.sender(target.token).sendMessage({ chatId: target.chatId, text: html, disableLinkPreview: true });
  }

  /**
   * Sends a test message through one channel with the saved settings, whatever the switches say;
   * undefined when that channel is not configured. One attempt, so the answer comes quickly.
   */
  async testChannel(channel: TestableChannel): Promise<ChannelTestOutcome | undefined> {
    const settings = this.settings.getGlobal();
    const texts = this.texts();
    const title = texts.say('testTitle');
    const body = texts.say('testBody', { time: new Date().toISOString() });
    if (channel === 'bot') {
      const target = this.botTarget(settings);
      if (!target) return undefined;
      const result = await this.sender(target.token).sendMessage({ chatId: target.chatId, text: PanelNotifier.format(title, [body]), disableLinkPreview: true });
      if (result.ok) return { ok: true, status: result.status };
      const errorCode = result.errorCode ?? 'rejected_by_receiver';
      return { ok: false, errorCode, status: result.status, detail: receiverDetail(errorCode, result.description) };
    }
    let result: PushResult;
    if (channel === 'custom_webhook') {
      if (!settings.webhook_url || !settings.webhook_secret) return undefined;
      const sender = new CustomWebhookSender(settings.webhook_url, { secret: settings.webhook_secret, timeoutMs: PUSH_TIMEOUT_MS, retry: { attempts: 1 }, addressGuard: this.addressGuard });
      result = await sender.send({ title, body }, { event: 'panel.test', kind: 'test', lines: [body] });
    } else {
      const sender = this.pushSender(channel, settings);
      if (!sender) return undefined;
      if (sender instanceof PlainSmtpRefused) return { ok: false, errorCode: 'encryption_required' };
      result = await sender.send({ title, body });
    }
    if (result.outcome === 'sent') return { ok: true, status: result.status };
    const errorCode = result.errorCode ?? 'http_error';
    return { ok: false, errorCode, status: result.status, detail: receiverDetail(errorCode, result.responseSnippet ?? result.message) };
  }

  /** Sends the notice to every configured channel whose switch for its kind is on, all at once. */
  async notify(notice: Notice): Promise<NotificationOutcome> {
    const settings = this.settings.getGlobal();
    const deliveries: Array<Promise<ChannelOutcome>> = [];
    const bot = this.botTarget(settings);
    if (bot && settings.bot_notify_enabled && settings[BOT_SWITCH[notice.kind]]) deliveries.push(this.toBot(bot, notice));
    if (settings[PUSH_SWITCH[notice.kind]]) {
      for (const sender of this.pushSenders(settings)) deliveries.push(this.toPush(sender, notice));
      if (settings.webhook_url && settings.webhook_secret) deliveries.push(this.toWebhook(settings.webhook_url, settings.webhook_secret, notice));
    }
    const channels = await Promise.all(deliveries);
    return { sent: channels.some((channel) => channel.sent), channels };
  }

  /** Formats a titled notification for the bot; `lines` are plain text and escaped here. */
  static format(title: string, lines: string[]): string {
    return [`<b>${escapeTelegramHtml(title)}</b>`, ...lines.map((line) => escapeTelegramHtml(line))].join('\n');
  }

  /** The sender of one push channel of the settings; undefined while that channel is not set up. */
  pushSender(channel: PushChannelKind, settings: Readonly<GlobalSettings> = this.settings.getGlobal()): PushSender | undefined {
    return this.pushSenders(settings).find((sender) => sender.channel === channel);
  }

  private pushSenders(settings: Readonly<GlobalSettings>): PushSender[] {
    const options = { timeoutMs: PUSH_TIMEOUT_MS, addressGuard: this.addressGuard };
    const senders: PushSender[] = [];
    if (settings.push_bark_url) senders.push(new BarkSender(settings.push_bark_url, options));
    if (settings.push_server_chan_key) senders.push(new ServerChanSender(settings.push_server_chan_key, { ...options, baseUrl: this.config.push.serverChanBaseUrl }));
    if (settings.push_ntfy_url) senders.push(new NtfySender(settings.push_ntfy_url, { ...options, accessToken: settings.push_ntfy_token ?? undefined }));
    if (settings.push_discord_url) senders.push(new DiscordWebhookSender(settings.push_discord_url, options));
    if (settings.push_slack_url) senders.push(new SlackWebhookSender(settings.push_slack_url, options));
    if (settings.push_teams_url) senders.push(new TeamsWorkflowSender(settings.push_teams_url, options));
    if (settings.push_gotify_url && settings.push_gotify_token) senders.push(new GotifySender(settings.push_gotify_url, settings.push_gotify_token, options));
    const email = this.emailSender(settings);
    if (email) senders.push(email);
    return senders;
  }

  /**
   * The email channel, once its server, sender and recipients are set. Without encryption it only
   * goes to a local server (APP_OUTBOUND_ALLOW_PRIVATE=1): a login over plain text to the internet is refused.
   */
  private emailSender(settings: Readonly<GlobalSettings>): PushSender | undefined {
    const to = emailRecipients(settings.push_email_to);
    if (!settings.push_email_smtp_host || !settings.push_email_from || to.length === 0) return undefined;
    if (settings.push_email_smtp_security === 'none' && !this.config.outbound.allowPrivate) return new PlainSmtpRefused();
    return new EmailSender(
      {
        host: settings.push_email_smtp_host,
        port: settings.push_email_smtp_port,
        secure: settings.push_email_smtp_security === 'tls',
        requireTls: settings.push_email_smtp_security === 'starttls',
        username: settings.push_email_smtp_username ?? undefined,
        password: settings.push_email_smtp_password ?? undefined,
        from: settings.push_email_from,
        to,
      },
      { timeoutMs: PUSH_TIMEOUT_MS, addressGuard: this.addressGuard },
    );
  }

  private async toBot(target: { token: string; chatId: string }, notice: Notice): Promise<ChannelOutcome> {
    try {
      const result = await this.sender(target.token).sendMessage({ chatId: target.chatId, text: PanelNotifier.format(notice.title, notice.lines), disableLinkPreview: true });
      if (result.ok) return { channel: 'bot', sent: true };
      return this.failed('bot', result.description ?? result.errorCode ?? 'unknown reason');
    } catch (error) {
      return this.failed('bot', error instanceof Error ? error.message : String(error));
    }
  }

  private async toPush(sender: PushSender, notice: Notice): Promise<ChannelOutcome> {
    try {
      return this.outcomeOf(await sender.send({ title: notice.title, body: notice.lines.join('\n') }));
    } catch (error) {
      return this.failed(sender.channel, error instanceof Error ? error.message : String(error));
    }
  }

  /** The custom webhook: `{event: "panel.<kind>", kind, title, body, lines, …}` signed with the webhook secret. */
  private async toWebhook(url: string, secret: string, notice: Notice): Promise<ChannelOutcome> {
    try {
      const sender = new CustomWebhookSender(url, { secret, timeoutMs: PUSH_TIMEOUT_MS, retry: { attempts: 3, initialDelayMs: 500 }, addressGuard: this.addressGuard });
      return this.outcomeOf(await sender.send({ title: notice.title, body: notice.lines.join('\n') }, { event: `panel.${notice.kind}`, kind: notice.kind, lines: notice.lines }));
    } catch (error) {
      return this.failed('custom_webhook', error instanceof Error ? error.message : String(error));
    }
  }

  private outcomeOf(result: PushResult): ChannelOutcome {
    if (result.outcome === 'sent') return { channel: result.channel, sent: true };
    return this.failed(result.channel, result.message ?? result.errorCode ?? 'failed');
  }

  private failed(channel: ChannelOutcome['channel'], error: string): ChannelOutcome {
    this.logger.warn(`Notification through ${channel} failed: ${error}`);
    return { channel, sent: false, error };
  }

  private sender(token: string): TelegramBotSender {
    return new TelegramBotSender({ token, baseUrl: this.config.telegram.botApiBaseUrl });
  }
}
