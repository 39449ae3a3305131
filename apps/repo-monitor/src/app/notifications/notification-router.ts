import { Inject, Injectable, Optional } from '@nestjs/common';
import { DatabaseWork } from '../../database/database-work';
import { ShortCache } from '../common/short-cache';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { NotificationRulesService } from '../notification-rules/notification-rules.service';
import { EventFacts, RoutableChannel, routeEvent, RoutingDecision, RoutingRule } from '../notification-rules/rule-matcher';
import { zonedClock } from '../notification-rules/zoned-clock';
import { SettingsChanges } from '../settings/settings-changes';
import { SystemSettingsService } from '../system-settings/system-settings.service';
import { ChannelDescriptor, NotificationChannelSource } from './notification-channels';

export function routableChannel(channel: ChannelDescriptor): RoutableChannel {
  return { id: channel.id, kind: channel.kind, enabled: true, eventKinds: channel.eventKinds, defaultThreadId: channel.threadId };
}

/**
 * Decides where an event goes: the routing rules (or, with none enabled, each channel's kind
 * filter), against the enabled channels, with quiet hours in the general settings' time zone.
 */
@Injectable()
export class NotificationRouter {
  private readonly timeZone: ShortCache<string>;

  constructor(
    @Inject(MONITOR_CONFIG) config: MonitorConfig,
    private readonly rules: NotificationRulesService,
    private readonly channels: NotificationChannelSource,
    database: DatabaseWork,
    changes: SettingsChanges,
    @Optional() systemSettings?: SystemSettingsService,
  ) {
    this.timeZone = new ShortCache(async () => (systemSettings ? (await systemSettings.current()).time_zone : 'UTC'), config.settings.refreshMs, () =>
      database.holdsSqliteConnection(),
    );
    changes.subscribe('system', () => this.timeZone.clear());
  }

  /** Where the event goes now; `rules` replaces the stored rules (a dry run). */
  async route(event: { kind: string; category: string }, facts: EventFacts, now: Date, rules?: RoutingRule[]): Promise<RoutingDecision> {
    // One after another: inside a SQLite transaction every read shares the one connection.
    const stored = rules ?? (await this.rules.routingRules());
    const channels = await this.channels.enabledChannels();
    const timeZone = await this.timeZone.get();
    return routeEvent(stored, facts, event, channels.map(routableChannel), now, zonedClock(timeZone));
  }
}
