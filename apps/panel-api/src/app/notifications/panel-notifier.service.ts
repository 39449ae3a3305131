import { Inject, Injectable, Logger } from '@nestjs/common';
import { escapeTelegramHtml, TelegramBotSender, TelegramSendResult } from '@shared/notify';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import { SettingsService } from '../settings/settings.service';
import { GlobalSettings } from '../settings/settings.types';

/** The per-event switches of bot notifications; each applies only while the master switch is on. */
export type BotEventSwitch = 'bot_notify_task_failure' | 'bot_notify_task_success' | 'bot_notify_session_invalid' | 'bot_notify_admin_login';

export type BotNotificationOutcome =
  | { sent: true; result: TelegramSendResult }
  | { sent: false; reason: 'not_configured' | 'switched_off' }
  | { sent: false; reason: 'failed'; result: TelegramSendResult };

/**
 * The panel's outbound notifications through the Telegram bot saved in the settings, over
 * @shared/notify. Reads the settings on every call, so a changed token or chat applies at once.
 */
@Injectable()
export class PanelNotifier {
  private readonly logger = new Logger(PanelNotifier.name);

  constructor(
    private readonly settings: SettingsService,
    @Inject(PANEL_CONFIG) private readonly config: PanelConfig,
  ) {}

  /** The saved bot token and chat id, when both are set. */
  botTarget(settings: Readonly<GlobalSettings> = this.settings.getGlobal()): { token: string; chatId: string } | undefined {
    return settings.bot_token && settings.bot_chat_id ? { token: settings.bot_token, chatId: settings.bot_chat_id } : undefined;
  }

  /** Sends `html` to the saved chat regardless of the switches (used by the test button). */
  async sendToBot(html: string): Promise<TelegramSendResult | undefined> {
    const target = this.botTarget();
    if (!target) return undefined;
    return this.sender(target.token).sendMessage({ chatId: target.chatId, text: html, disableLinkPreview: true });
  }

  /**
   * Sends an event notification when the master switch is on and, if `eventSwitch` is given, that
   * switch too. Never throws: a failed notification is logged and reported, not an error of the caller.
   */
  async notify(html: string, eventSwitch?: BotEventSwitch): Promise<BotNotificationOutcome> {
    const settings = this.settings.getGlobal();
    const target = this.botTarget(settings);
    if (!target) return { sent: false, reason: 'not_configured' };
    if (!settings.bot_notify_enabled || (eventSwitch && !settings[eventSwitch])) return { sent: false, reason: 'switched_off' };
    try {
      const result = await this.sender(target.token).sendMessage({ chatId: target.chatId, text: html, disableLinkPreview: true });
      if (result.ok) return { sent: true, result };
      this.logger.warn(`Bot notification failed: ${result.description ?? result.errorCode ?? 'unknown reason'}`);
      return { sent: false, reason: 'failed', result };
    } catch (error) {
      const description = error instanceof Error ? error.message : String(error);
      this.logger.warn(`Bot notification failed: ${description}`);
      return { sent: false, reason: 'failed', result: { ok: false, outcome: 'retryable', messageIds: [], parts: 0, description, attempts: 1 } };
    }
  }

  /** Formats a titled notification; `lines` are plain text and escaped here. */
  static format(title: string, lines: string[]): string {
    return [`<b>${escapeTelegramHtml(title)}</b>`, ...lines.map((line) => escapeTelegramHtml(line))].join('\n');
  }

  private sender(token: string): TelegramBotSender {
    return new TelegramBotSender({ token, baseUrl: this.config.telegram.botApiBaseUrl });
  }
}
