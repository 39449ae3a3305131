import { Inject, Injectable, Optional } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { DatabaseWork } from '../../database/database-work';
import { ShortCache } from '../common/short-cache';
import { SettingsChanges } from '../settings/settings-changes';
import { SystemSettingsService } from '../system-settings/system-settings.service';
import { ChannelDescriptor, NotificationChannelSource, routableChannel } from './notification-channels';
import { NotificationRouter } from '../notification-rules/notification-router';
import { eventFacts } from '../notification-rules/event-facts';
import { NotificationRuleRepository } from '../notification-rules/notification-rule.repository';
import { EventForMessage, messageForEvent, NotificationMessage } from './notification-message';
import { OutboxEntryEntity, OutboxRole } from '../outbox/outbox-entry.entity';
import { OutboxRepository } from '../outbox/outbox.repository';
import { NotificationTemplatesService } from '../notification-templates/notification-templates.service';

export interface AggregationSettings {
  windowMs: number;
  burstThreshold: number;
  burstWindowMs: number;
}

/**
 * Burst rule: when `recentCount` notifications of the group were written within the burst window
 * and that reaches the threshold, this one joins the burst summary, sent when the burst window of
 * the oldest of them ends (at once if that is past). Undefined: not a burst.
 */
export function burstSendAt(
  settings: Pick<AggregationSettings, 'burstThreshold' | 'burstWindowMs'>,
  recentCount: number,
  oldest: Date | undefined,
  now: Date,
): Date | undefined {
  if (settings.burstThreshold <= 0 || settings.burstWindowMs <= 0 || recentCount < settings.burstThreshold) return undefined;
  return new Date(Math.max(now.getTime(), (oldest ?? now).getTime() + settings.burstWindowMs));
}

/**
 * Window rule: a notification that follows the group's latest one (`latestAt`) within the window is
 * merged into one follow-up, sent when that window ends. Undefined: send on its own, at once.
 */
export function windowSendAt(settings: Pick<AggregationSettings, 'windowMs'>, latestAt: Date | undefined, now: Date): Date | undefined {
  if (settings.windowMs <= 0 || !latestAt || now.getTime() - latestAt.getTime() >= settings.windowMs) return undefined;
  return new Date(Math.max(now.getTime(), latestAt.getTime() + settings.windowMs));
}

/**
 * Writes notifications into the outbox inside the caller's transaction (the one that records the
 * event), applying aggregation: the first notification of a repository and category goes out at
 * once; more within MONITOR_AGGREGATION_WINDOW are merged into one follow-up; past the burst
 * threshold within the burst window, the rest of the burst becomes one summary.
 */
@Injectable()
export class NotificationOutboxService {
  private readonly listeners: Array<() => void> = [];
  private readonly aggregation: ShortCache<AggregationSettings>;

  constructor(
    @Inject(MONITOR_CONFIG) config: MonitorConfig,
    private readonly channels: NotificationChannelSource,
    private readonly database: DatabaseWork,
    private readonly entries: OutboxRepository,
    private readonly router: NotificationRouter,
    private readonly rules: NotificationRuleRepository,
    private readonly templates: NotificationTemplatesService,
    changes: SettingsChanges,
    @Optional() systemSettings?: SystemSettingsService,
  ) {
    this.aggregation = new ShortCache(async () => {
      if (!systemSettings) return config.notifications.aggregation;
      const { aggregation } = await systemSettings.current();
      return {
        windowMs: aggregation.window_seconds * 1000,
        burstThreshold: aggregation.burst_threshold,
        burstWindowMs: aggregation.burst_window_seconds * 1000,
      };
    }, config.settings.refreshMs, () => database.holdsSqliteConnection());
    changes.subscribe('system', () => this.aggregation.clear());
  }

  /** The effective aggregation window, burst threshold and burst window (console, else environment). */
  aggregationSettings(): Promise<AggregationSettings> {
    return this.aggregation.get();
  }

  /** Called after a transaction that wrote outbox rows has committed, to wake the worker. */
  onEnqueued(listener: () => void): void {
    this.listeners.push(listener);
  }

  notifyCommitted(): void {
    for (const listener of this.listeners) listener();
  }

  /**
   * Routes the event (rules, or each channel's kind filter when no rule is enabled), adds its
   * notification for every channel and topic it goes to now or after quiet hours, and records the
   * facts and the decision for the event's routing explanation; answers how many rows it queued.
   */
  async enqueue(manager: EntityManager, event: EventForMessage, now: Date): Promise<number> {
    const facts = eventFacts(event);
    const enabled = await this.channels.enabledChannels();
    const decision = await this.router.route(event, facts, now, enabled.map(routableChannel));
    const channels = new Map(enabled.map((channel) => [channel.id, channel]));
    const message = messageForEvent(event);
    let queued = 0;
    for (const delivery of decision.deliveries) {
      if (delivery.outcome !== 'queued' && delivery.outcome !== 'held') continue;
      const channel = channels.get(delivery.channel_id);
      if (!channel) continue;
      const holdUntil = delivery.send_after ? new Date(delivery.send_after) : undefined;
      const rendered = await this.templates.render(channel, delivery.rule_id, event, facts);
      const title = await this.templates.renderTitle(channel, delivery.rule_id, event, facts);
      const own: NotificationMessage = { ...message };
      if (rendered) own.template = { id: rendered.templateId, format: rendered.format, text: rendered.text, wholeMessage: rendered.wholeMessage };
      if (title) own.titleTemplate = { id: title.templateId, text: title.text };
      if (await this.enqueueForChannel(manager, channel, event, own, now, delivery.message_thread_id, holdUntil)) queued++;
    }
    await this.rules.recordRouting(manager, { eventId: event.id, facts: JSON.stringify(facts), decision: JSON.stringify(decision), createdAt: now });
    return queued;
  }

  /** Answers whether a row was written (false: this event already has one for the channel and topic). */
  private async enqueueForChannel(
    manager: EntityManager,
    channel: ChannelDescriptor,
    event: EventForMessage,
    message: NotificationMessage,
    now: Date,
    threadId: number | null,
    holdUntil: Date | undefined,
  ): Promise<boolean> {
    const topic = threadId === null ? '' : `#${threadId}`;
    const groupKey = `${channel.id}${topic}|${event.repository ?? '-'}|${event.category}`;
    const idempotencyKey = `${event.fingerprint}:${channel.id}${topic}`;
    if (await this.entries.idempotencyKeyTaken(manager, idempotencyKey)) return false;
    const entry = this.entries.create({
      idempotencyKey,
      eventId: event.id,
      channelId: channel.id,
      channelKind: channel.kind,
      groupKey,
      role: 'single',
      aggregatedInto: null,
      itemCount: 1,
      message: JSON.stringify(message),
      messageThreadId: threadId,
      state: 'pending',
      attempts: 0,
      nextAttemptAt: holdUntil ?? now,
      leaseUntil: null,
      lastErrorCode: null,
      lastError: null,
      sentAt: null,
      createdAt: now,
      updatedAt: now,
    });
    // Held through quiet hours: sent on its own when they end, outside the aggregation of live traffic.
    if (holdUntil) {
      await this.entries.save(manager, entry);
      return true;
    }
    const { windowMs, burstThreshold, burstWindowMs } = await this.aggregation.get();

    if (burstThreshold > 0 && burstWindowMs > 0) {
      const since = new Date(now.getTime() - burstWindowMs);
      const recent = await this.entries.recentInGroup(manager, groupKey, since);
      const burstAt = burstSendAt({ burstThreshold, burstWindowMs }, recent.count, recent.oldest, now);
      if (burstAt) {
        await this.join(manager, entry, 'burst', groupKey, burstAt);
        return true;
      }
    }
    if (windowMs > 0) {
      const pendingAggregate = await this.entries.pendingLeader(manager, groupKey, 'aggregate');
      if (pendingAggregate) {
        await this.join(manager, entry, 'aggregate', groupKey, pendingAggregate.nextAttemptAt, pendingAggregate);
        return true;
      }
      const since = new Date(now.getTime() - windowMs);
      const latest = await this.entries.latestSentAlone(manager, groupKey, since);
      const mergeAt = windowSendAt({ windowMs }, latest?.createdAt, now);
      if (mergeAt) {
        await this.join(manager, entry, 'aggregate', groupKey, mergeAt);
        return true;
      }
    }
    await this.entries.save(manager, entry);
    return true;
  }

  /** Saves `entry` as a member of the pending leader of its group (created when there is none). */
  private async join(
    manager: EntityManager,
    entry: OutboxEntryEntity,
    role: Exclude<OutboxRole, 'single'>,
    groupKey: string,
    sendAt: Date,
    knownLeader?: OutboxEntryEntity,
  ): Promise<void> {
    let leader = knownLeader ?? (await this.entries.pendingLeader(manager, groupKey, role));
    if (!leader) {
      const key = createHash('sha256').update(`${role}|${groupKey}|${entry.idempotencyKey}`).digest('hex').slice(0, 40);
      leader = await this.entries.save(
        manager,
        this.entries.create({
          ...entry,
          idempotencyKey: `${role}:${key}`,
          eventId: null,
          role,
          itemCount: 0,
          nextAttemptAt: sendAt,
        }),
      );
    }
    entry.state = 'suppressed';
    entry.aggregatedInto = leader.id;
    await this.entries.save(manager, entry);
    await this.entries.countMember(manager, leader.id);
  }
}
