import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isIanaTimeZone } from '@shared/config';
import { DataSource } from 'typeorm';
import { AuditLogService } from '../admin/audit-log.service';
import { MonitorError } from '../common/monitor-error';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { SettingsChanges } from '../settings/settings-changes';
import { SettingsStore } from '../settings/settings.store';
import { SystemSettingsDto, UpdateSystemSettingsDto } from './dto/system-settings.dto';

/** General settings as the rest of the service reads them (snake_case, like the API). */
export type SystemSettings = SystemSettingsDto;

const STORED_KEY = 'system.general';

/** What has been saved; a missing field falls back to its default (starred_username: to the environment). */
type StoredSystemSettings = Partial<Omit<SystemSettings, 'weekly_report' | 'monthly_report' | 'retention' | 'aggregation'>> & {
  weekly_report?: Partial<SystemSettings['weekly_report']>;
  monthly_report?: Partial<SystemSettings['monthly_report']>;
  retention?: Partial<SystemSettings['retention']>;
  aggregation?: Partial<SystemSettings['aggregation']>;
};

/** Time zone, digest and report schedule, retention, aggregation and the starred user name. */
@Injectable()
export class SystemSettingsService {
  constructor(
    @Inject(MONITOR_CONFIG) private readonly config: MonitorConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly store: SettingsStore,
    private readonly audit: AuditLogService,
    private readonly changes: SettingsChanges,
  ) {}

  defaults(): SystemSettings {
    const aggregation = this.config.notifications.aggregation;
    return {
      time_zone: 'UTC',
      digest_time: '09:00',
      weekly_report: { enabled: false, weekday: 'monday' },
      monthly_report: { enabled: false, day: 1 },
      retention: { events_days: 90, outbox_days: 30, deliveries_days: 30 },
      aggregation: {
        window_seconds: Math.round(aggregation.windowMs / 1000),
        burst_threshold: aggregation.burstThreshold,
        burst_window_seconds: Math.round(aggregation.burstWindowMs / 1000),
      },
      starred_username: this.config.github.starredUsername ?? null,
    };
  }

  async current(): Promise<SystemSettings> {
    return this.merge((await this.store.get<StoredSystemSettings>(STORED_KEY)) ?? {});
  }

  async update(changes: UpdateSystemSettingsDto, actor: string, clientIp: string): Promise<SystemSettings> {
    if (changes.time_zone !== undefined && !isIanaTimeZone(changes.time_zone)) {
      throw new MonitorError('validation_failed', 'time_zone must be an IANA time zone such as Europe/Berlin', { field: 'time_zone' });
    }
    const changed = Object.keys(changes).filter((key) => changes[key as keyof UpdateSystemSettingsDto] !== undefined);
    const saved = await this.dataSource.transaction(async (manager) => {
      const stored = (await this.store.get<StoredSystemSettings>(STORED_KEY, manager)) ?? {};
      const next: StoredSystemSettings = {
        ...stored,
        ...(changes.time_zone !== undefined && { time_zone: changes.time_zone }),
        ...(changes.digest_time !== undefined && { digest_time: changes.digest_time }),
        ...(changes.starred_username !== undefined && { starred_username: changes.starred_username }),
        weekly_report: { ...stored.weekly_report, ...defined(changes.weekly_report) },
        monthly_report: { ...stored.monthly_report, ...defined(changes.monthly_report) },
        retention: { ...stored.retention, ...defined(changes.retention) },
        aggregation: { ...stored.aggregation, ...defined(changes.aggregation) },
      };
      await this.store.set(STORED_KEY, next, manager);
      await this.audit.record({ actor, action: 'system_settings.updated', details: { fields: changed }, clientIp }, manager);
      return this.merge(next);
    });
    await this.changes.announce('system');
    return saved;
  }

  private merge(stored: StoredSystemSettings): SystemSettings {
    const base = this.defaults();
    return {
      time_zone: stored.time_zone ?? base.time_zone,
      digest_time: stored.digest_time ?? base.digest_time,
      weekly_report: { ...base.weekly_report, ...stored.weekly_report },
      monthly_report: { ...base.monthly_report, ...stored.monthly_report },
      retention: { ...base.retention, ...stored.retention },
      aggregation: { ...base.aggregation, ...stored.aggregation },
      // Once saved (even as null) the database value wins over MONITOR_STARRED_USERNAME.
      starred_username: stored.starred_username !== undefined ? stored.starred_username : base.starred_username,
    };
  }
}

function defined<T extends object>(value: T | undefined): Partial<T> {
  if (!value) return {};
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
