import { Inject, Injectable, Optional } from '@nestjs/common';
import { DatabaseWork } from '../../database/database-work';
import { ShortCache } from '../common/short-cache';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { SettingsChanges } from '../settings/settings-changes';
import { SystemSettingsService } from '../system-settings/system-settings.service';
import { NotificationRulesService } from './notification-rules.service';
import { EventFacts, RoutableChannel, routeEvent, RoutingDecision, RoutingRule } from './rule-matcher';
import { zonedClock } from './zoned-clock';

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
    database: DatabaseWork,
    changes: SettingsChanges,
    @Optional() systemSettings?: SystemSettingsService,
  ) {
    this.timeZone = new ShortCache(async () => (systemSettings ? (await systemSettings.current()).time_zone : 'UTC'), config.settings.refreshMs, () =>
      database.holdsSqliteConnection(),
    );
    changes.subscribe('system', () => this.timeZone.clear());
  }

  /** Where the event goes now through the enabled `channels`; `rules` replaces the stored rules (a dry run). */
  async route(event: { kind: string; category: string }, facts: EventFacts, now: Date, channels: RoutableChannel[], rules?: RoutingRule[]): Promise<RoutingDecision> {
    // One after another: inside a SQLite transaction every read shares the one connection.
    const stored = rules ?? (await this.rules.routingRules());
    const timeZone = await this.timeZone.get();
    return routeEvent(stored, facts, event, channels, now, zonedClock(timeZone));
  }
}
