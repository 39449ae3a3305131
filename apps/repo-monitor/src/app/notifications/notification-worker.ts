import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { plainHttpRule } from '../notification-channels/plain-http';
import { pushMessageOf, pushSenderFor } from '../notification-channels/channel-senders';
import { escapeTelegramHtml, nextOutboxAttemptAt, SignedWebhookSender, TelegramBotSender } from '@shared/notify';
import { createHash } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { MetricsService } from '../metrics/metrics.service';
import { OUTBOUND_DISPATCHER, outboundProxy } from '../outbound/outbound-dispatcher';
import { ChannelDescriptor, NotificationChannelSource } from './notification-channels';
import { NotificationEnricher } from './notification-enricher';
import { mergedMessage, NotificationMessage } from './notification-message';
import { NotificationOutboxService } from './notification-outbox.service';
import { OutboxEntryEntity } from '../outbox/outbox-entry.entity';
import { OutboxRepository, OutboxSettlement } from '../outbox/outbox.repository';

/** Each send gives up after this (Telegram and webhook alike). */
const SEND_TIMEOUT_MS = 10_000;
/**
 * How long a claimed entry stays ours: just longer than enriching plus sending can take, so a live
 * worker never loses an entry it is still sending, while one claimed by a killed process is sent
 * again soon. Entries of a batch are sent in parallel, so one entry's budget covers the batch.
 */
const LEASE_MARGIN_MS = SEND_TIMEOUT_MS + 5_000;
const BATCH = 20;
const IDLE_POLL_MS = 1000;

interface SendOutcome {
  outcome: 'sent' | 'retryable' | 'permanent';
  errorCode?: string;
  message?: string;
  retryAfterSeconds?: number;
}

/**
 * Sends due outbox entries. Claiming flips `pending` to `sending` in one statement (with
 * FOR UPDATE SKIP LOCKED on PostgreSQL, so several instances never take the same row; SQLite has a
 * single writer). Failures follow the backoff schedule; permanent ones go to `dead` at once.
 */
@Injectable()
export class NotificationWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(NotificationWorker.name);
  private readonly webhookSender: SignedWebhookSender;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopping = false;
  private readonly enrichers: NotificationEnricher[] = [];

  constructor(
    @Inject(MONITOR_CONFIG) private readonly config: MonitorConfig,
    private readonly entries: OutboxRepository,
    private readonly channels: NotificationChannelSource,
    private readonly outbox: NotificationOutboxService,
    @Optional() @Inject(OUTBOUND_DISPATCHER) private readonly dispatcher?: Dispatcher,
    @Optional() private readonly metrics?: MetricsService,
  ) {
    // The webhook sender pins the vetted address itself, so it gets the proxy settings rather than the dispatcher.
    this.webhookSender = new SignedWebhookSender({ userAgent: 'repo-monitor-webhook/1', timeoutMs: SEND_TIMEOUT_MS, proxy: outboundProxy(config.proxy) });
  }

  onApplicationBootstrap(): void {
    this.outbox.onEnqueued(() => this.wake());
    this.wake();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** Features (AI triage, diagnosis, summaries) add to messages right before they are sent. */
  addEnricher(enricher: NotificationEnricher): void {
    this.enrichers.push(enricher);
  }

  /** Runs a pass now (or right after the current one). */
  wake(): void {
    if (this.stopping) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.running = this.pass()
      .catch((error: unknown) => this.logger.error(`outbox pass failed: ${(error as Error).message}`))
      .finally(() => {
        this.running = undefined;
        if (this.stopping) return;
        if (this.again) {
          this.again = false;
          this.wake();
        } else {
          this.timer = setTimeout(() => this.wake(), IDLE_POLL_MS);
        }
      });
  }

  private async pass(): Promise<void> {
    await this.releaseExpiredLeases();
    for (;;) {
      if (this.stopping) return;
      const claimed = await this.claim();
      if (claimed.length === 0) return;
      await Promise.all(claimed.map((entry) => this.deliver(entry)));
    }
  }

  private async releaseExpiredLeases(): Promise<void> {
    const released = await this.entries.releaseExpiredLeases(new Date());
    this.metrics?.outboxMoved('pending', released);
  }

  /** The lease for entries claimed now: the send, the slowest enricher (an AI step) and a margin. */
  private async leaseMs(): Promise<number> {
    let enrichment = 0;
    for (const enricher of this.enrichers) {
      enrichment = Math.max(enrichment, await enricher.maxDurationMs().catch(() => 0));
    }
    return LEASE_MARGIN_MS + enrichment;
  }

  private async claim(): Promise<OutboxEntryEntity[]> {
    const leaseMs = await this.leaseMs();
    const now = new Date();
    const claimed = await this.entries.claim(now, new Date(now.getTime() + leaseMs), BATCH);
    if (claimed.length > 0) this.metrics?.outboxMoved('sending', claimed.length);
    return claimed;
  }

  private async deliver(entry: OutboxEntryEntity): Promise<void> {
    const channel = await this.channels.channel(entry.channelId);
    let result: SendOutcome;
    if (!channel) {
      result = { outcome: 'permanent', errorCode: 'channel_unavailable', message: 'the channel was removed or disabled' };
    } else {
      try {
        const message = await this.messageOf(entry);
        result = message ? await this.send(channel, entry, await this.enrich(message)) : { outcome: 'sent' };
      } catch (error) {
        result = { outcome: 'retryable', errorCode: 'internal_error', message: (error as Error).message };
      }
    }
    await this.settle(entry, result);
  }

  private async enrich(message: NotificationMessage): Promise<NotificationMessage> {
    let enriched = message;
    for (const enricher of this.enrichers) {
      try {
        enriched = await enricher.enrich(enriched);
      } catch (error) {
        this.logger.warn(`enriching a ${message.kind} notification failed: ${(error as Error).message}`);
      }
    }
    return enriched;
  }

  /** The message of an entry; merged entries combine their members' messages. */
  private async messageOf(entry: OutboxEntryEntity): Promise<NotificationMessage | undefined> {
    if (entry.role === 'single') return JSON.parse(entry.message) as NotificationMessage;
    const members = await this.entries.members(entry.id);
    const messages = members.map((member) => JSON.parse(member.message) as NotificationMessage);
    if (messages.length === 0) return undefined;
    if (messages.length === 1) return messages[0];
    const aggregation = await this.outbox.aggregationSettings();
    const windowMs = entry.role === 'burst' ? aggregation.burstWindowMs : aggregation.windowMs;
    return mergedMessage(entry.role, messages, Math.round(windowMs / 1000));
  }

  private async send(channel: ChannelDescriptor, entry: OutboxEntryEntity, message: NotificationMessage): Promise<SendOutcome> {
    if (channel.kind === 'telegram') {
      const sender = new TelegramBotSender({
        token: channel.secret,
        baseUrl: this.config.notifications.botApiBaseUrl,
        dispatcher: this.dispatcher,
        timeoutMs: SEND_TIMEOUT_MS,
        maxInlineRetryAfterSeconds: 0,
      });
      const result = await sender.sendMessage({
        chatId: channel.target,
        messageThreadId: entry.messageThreadId ?? undefined,
        text: message.template?.text || message.bodyHtml,
        parseMode: 'HTML',
        disableLinkPreview: true,
        button: message.url ? { text: 'View on GitHub', url: message.url } : undefined,
        overflow: 'truncate',
        maxLength: 4000,
      });
      return { outcome: result.outcome, errorCode: result.errorCode, message: result.description, retryAfterSeconds: result.retryAfterSeconds };
    }
    const push = pushSenderFor(channel, { timeoutMs: SEND_TIMEOUT_MS, dispatcher: this.dispatcher });
    if (push) {
      const pushed = await push.send(pushMessageOf(message));
      return { outcome: pushed.outcome, errorCode: pushed.errorCode, message: pushed.message, retryAfterSeconds: pushed.retryAfterSeconds };
    }
    const result = await this.webhookSender.send(
      {
        url: channel.target,
        secret: channel.secret,
        allowPrivate: channel.allowPrivate,
        plainHttp: plainHttpRule(channel.allowPrivate, this.config.notifications.webhookAllowInsecure),
      },
      {
        deliveryId: outboundDeliveryId(entry.idempotencyKey),
        eventType: message.kind,
        event: message.event,
        title: message.title,
        bodyText: message.template?.text ? escapeTelegramHtml(message.template.text) : message.bodyHtml,
        bodyPlain: message.template?.text || message.bodyPlain,
        emittedAt: entry.createdAt,
      },
    );
    return { outcome: result.outcome, errorCode: result.errorCode, message: result.message, retryAfterSeconds: result.retryAfterSeconds };
  }

  private async settle(entry: OutboxEntryEntity, result: SendOutcome): Promise<void> {
    const now = new Date();
    const attempts = entry.attempts + 1;
    const changes: OutboxSettlement = { attempts, leaseUntil: null, updatedAt: now };
    if (result.outcome === 'sent') {
      Object.assign(changes, { state: 'sent', sentAt: now, lastErrorCode: null, lastError: null });
    } else {
      const next = result.outcome === 'retryable' ? nextOutboxAttemptAt(attempts, now, result.retryAfterSeconds) : null;
      Object.assign(changes, {
        state: next ? 'pending' : 'dead',
        nextAttemptAt: next ?? entry.nextAttemptAt,
        lastErrorCode: (result.errorCode ?? 'delivery_failed').slice(0, 64),
        lastError: result.message ? result.message.slice(0, 500) : null,
      });
      this.logger.warn(`notification ${entry.id} via ${entry.channelKind}: ${result.outcome} (${result.errorCode ?? 'error'})`);
    }
    // Recorded the moment the answer is in, as one autocommitted UPDATE that does not queue behind
    // background transactions: a crash between a send and this line is the only way to send twice.
    const updated = await this.entries.settle(entry.id, changes);
    // Counted only when this claim still held the row (an expired claim may have been taken over).
    if (updated) this.metrics?.outboxMoved(changes.state as 'sent' | 'pending' | 'dead', updated);
  }
}

/** A stable outbound delivery id per notification, so receivers can drop repeats. */
export function outboundDeliveryId(idempotencyKey: string): string {
  const hex = createHash('sha256').update(idempotencyKey).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
