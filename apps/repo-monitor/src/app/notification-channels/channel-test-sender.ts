import { Inject, Injectable } from '@nestjs/common';
import { SignedWebhookSender, TelegramBotSender, escapeTelegramHtml, newDeliveryId } from '@shared/notify';
import type { Dispatcher } from 'undici';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { OUTBOUND_DISPATCHER, outboundProxy } from '../outbound/outbound-dispatcher';
import { ChannelKind } from './notification-channel.entity';
import { plainHttpRule } from './plain-http';
import { ChannelConfig, pushSenderFor } from './channel-senders';

/** A channel with its secret decrypted, ready to send through. */
export interface ChannelTestTarget {
  kind: ChannelKind;
  name: string;
  chatId?: string;
  /** telegram: the default forum topic, where the test goes too. */
  messageThreadId?: number;
  url?: string;
  secret: string;
  allowPrivate: boolean;
  config: ChannelConfig;
}

export interface ChannelTestOutcome {
  ok: boolean;
  status?: number;
  errorCode?: string;
  message?: string;
}

/** Port for the channel `test` action: sends one fixed test message through a channel. */
export interface ChannelTestSender {
  send(target: ChannelTestTarget): Promise<ChannelTestOutcome>;
}

export const CHANNEL_TEST_SENDER = Symbol('CHANNEL_TEST_SENDER');

const TEST_TIMEOUT_MS = 10_000;

/** Production sender: the Telegram Bot API and the signed outbound webhook from @shared/notify. */
@Injectable()
export class NotifyChannelTestSender implements ChannelTestSender {
  constructor(
    @Inject(MONITOR_CONFIG) private readonly config: MonitorConfig,
    @Inject(OUTBOUND_DISPATCHER) private readonly dispatcher: Dispatcher,
  ) {}

  async send(target: ChannelTestTarget): Promise<ChannelTestOutcome> {
    const title = 'repo-monitor test message';
    if (target.kind === 'telegram') {
      const sender = new TelegramBotSender({
        token: target.secret,
        baseUrl: this.config.notifications.botApiBaseUrl,
        dispatcher: this.dispatcher,
        timeoutMs: TEST_TIMEOUT_MS,
        maxInlineRetryAfterSeconds: 0,
      });
      const result = await sender.sendMessage({
        chatId: target.chatId ?? '',
        messageThreadId: target.messageThreadId,
        text: `<b>${title}</b>\nThe channel “${escapeTelegramHtml(target.name)}” works.`,
        disableLinkPreview: true,
        overflow: 'truncate',
      });
      return { ok: result.ok, status: result.status, errorCode: result.errorCode, message: result.description };
    }
    const push = pushSenderFor(target, { timeoutMs: TEST_TIMEOUT_MS, dispatcher: this.dispatcher });
    if (push) {
      const result = await push.send({ title, body: `The channel “${target.name}” works.` });
      return { ok: result.outcome === 'sent', status: result.status, errorCode: result.errorCode, message: result.message };
    }
    // The same proxy settings as the outbox worker, so a test proves the path real notifications take.
    const webhookSender = new SignedWebhookSender({ timeoutMs: TEST_TIMEOUT_MS, proxy: outboundProxy(this.config.proxy) });
    const result = await webhookSender.send(
      {
        url: target.url ?? '',
        secret: target.secret,
        allowPrivate: target.allowPrivate,
        plainHttp: plainHttpRule(target.allowPrivate, this.config.notifications.webhookAllowInsecure),
      },
      {
        deliveryId: newDeliveryId(),
        eventType: 'test',
        event: { kind: 'test', channel: target.name },
        title,
        bodyText: `<b>${title}</b>`,
        bodyPlain: title,
      },
    );
    return { ok: result.outcome === 'sent', status: result.status, errorCode: result.errorCode, message: result.message };
  }
}
