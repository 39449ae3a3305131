import { Injectable } from '@nestjs/common';
import { IsNull } from 'typeorm';
import { EVENT_CATEGORIES, EventCategory, EventEntity } from '../events/event.entity';
import { EventDto } from '../events/events.controller';
import { GithubAppSettingsService } from '../github-app-settings/github-app-settings.service';
import { InstallationEntity } from '../installations/installation.entity';
import { NotificationChannelEntity } from '../notification-channels/notification-channel.entity';
import { OutboxEntryDto } from '../notifications/notifications.controller';
import { OutboxEntryEntity } from '../notifications/outbox-entry.entity';
import { DatabaseWork } from '../processing/database-work';
import { RepositoryEntity } from '../repositories/repository.entity';
import { SecurityAlertEntity } from '../security-alerts/security-alert.entity';
import { SystemSettingsService } from '../system-settings/system-settings.service';
import { WebhookDeliveryEntity } from '../webhooks/webhook-delivery.entity';
import { WorkflowRunEntity } from '../workflow-runs/workflow-run.entity';
import { WorkItemEntity } from '../work-items/work-item.entity';
import { BUCKET_SECONDS, bucketDay, lastLocalDays } from './day-buckets';
import { ChecklistEntryDto, DashboardDto, DeliverySummaryDto, EventsPerDayDto, NotificationsPerDayDto, OutboxHealthDto } from './dto/dashboard.dto';

export const DASHBOARD_DAYS = 14;
const RECENT = 10;

type CountRow = { bucket: number | string; count: number | string };

/** Everything the console's dashboard shows, counted by the server in the configured time zone. */
@Injectable()
export class DashboardService {
  constructor(
    private readonly database: DatabaseWork,
    private readonly githubApp: GithubAppSettingsService,
    private readonly systemSettings: SystemSettingsService,
  ) {}

  async dashboard(now = new Date()): Promise<DashboardDto> {
    const timeZone = (await this.systemSettings.current()).time_zone;
    const window = lastLocalDays(now, timeZone, DASHBOARD_DAYS);
    const manager = this.database.dataSource.manager;

    const github = await this.githubApp.current();
    const installations = await manager.count(InstallationEntity, { where: { removedAt: IsNull() } });
    const repositories = await manager.count(RepositoryEntity, { where: { status: 'active' } });
    const testedChannels = await manager.count(NotificationChannelEntity, { where: { enabled: true, lastTestOk: true } });
    const checklist: ChecklistEntryDto[] = [
      // What the service signs in to GitHub as the App with: the effective App id and private key,
      // from the environment or set in the console. The client id is only shown, never used to sign in.
      { key: 'github_app_credentials', done: Boolean(github.appId && github.privateKey) },
      { key: 'inbound_webhook_secret', done: github.webhookSecrets.length > 0 },
      { key: 'installation', done: installations > 0 },
      { key: 'repository', done: repositories > 0 },
      { key: 'channel_tested', done: testedChannels > 0 },
    ];

    const tiles = {
      repositories,
      installations,
      open_issues: await manager.count(WorkItemEntity, { where: { kind: 'issue', state: 'open' } }),
      open_pull_requests: await manager.count(WorkItemEntity, { where: { kind: 'pull_request', state: 'open' } }),
      open_security_alerts: await manager.count(SecurityAlertEntity, { where: { state: 'open', ignored: false } }),
      failed_workflow_runs: await manager
        .getRepository(WorkflowRunEntity)
        .createQueryBuilder('run')
        .where('run.conclusion = :failure', { failure: 'failure' })
        .andWhere('run.updatedAt >= :start', { start: this.database.time(window.start) })
        .getCount(),
      enabled_channels: await manager.count(NotificationChannelEntity, { where: { enabled: true } }),
    };

    const recentDeliveries = await manager.getRepository(WebhookDeliveryEntity).find({
      select: { id: true, deliveryId: true, event: true, action: true, repositoryFullName: true, status: true, lastError: true, receivedAt: true, processedAt: true },
      order: { id: 'DESC' },
      take: RECENT,
    });
    return {
      time_zone: timeZone,
      generated_at: now.toISOString(),
      checklist,
      setup_complete: checklist.every((item) => item.done),
      tiles,
      events_per_day: await this.eventsPerDay(window.days, window.start, timeZone),
      notifications_per_day: await this.notificationsPerDay(window.days, window.start, timeZone),
      outbox: await this.outboxHealth(now),
      recent_events: (await manager.find(EventEntity, { order: { id: 'DESC' }, take: RECENT })).map(EventDto.of),
      recent_deliveries: recentDeliveries.map(
        (row): DeliverySummaryDto => ({
          id: row.id,
          delivery_id: row.deliveryId,
          event: row.event,
          action: row.action,
          repository: row.repositoryFullName,
          status: row.status,
          last_error: row.lastError,
          received_at: row.receivedAt.toISOString(),
          processed_at: row.processedAt?.toISOString() ?? null,
        }),
      ),
      recent_notifications: (await manager.find(OutboxEntryEntity, { order: { id: 'DESC' }, take: RECENT })).map(OutboxEntryDto.of),
    };
  }

  /** SQL for the quarter hour since the epoch a stored UTC time falls in, on either driver. */
  private bucket(column: string): string {
    return this.database.isSqlite
      ? `CAST(strftime('%s', ${column}) AS INTEGER) / ${BUCKET_SECONDS}`
      : `FLOOR(EXTRACT(EPOCH FROM ${column}) / ${BUCKET_SECONDS})`;
  }

  private async eventsPerDay(days: string[], start: Date, timeZone: string): Promise<EventsPerDayDto[]> {
    const rows: Array<CountRow & { category: string }> = await this.database.dataSource.query(
      `SELECT ${this.bucket('"occurred_at"')} AS "bucket", "category", COUNT(*) AS "count" FROM "events"
        WHERE "occurred_at" >= ${this.database.placeholder(1)} GROUP BY 1, 2`,
      [this.database.time(start)],
    );
    const perDay = new Map(days.map((date) => [date, Object.fromEntries(EVENT_CATEGORIES.map((category) => [category, 0])) as Record<EventCategory, number>]));
    for (const row of rows) {
      const counts = perDay.get(bucketDay(Number(row.bucket), timeZone));
      if (counts && row.category in counts) counts[row.category as EventCategory] += Number(row.count);
    }
    return days.map((date) => {
      const byCategory = perDay.get(date) as Record<EventCategory, number>;
      return { date, total: Object.values(byCategory).reduce((sum, value) => sum + value, 0), by_category: byCategory };
    });
  }

  /** Sent: delivered that day. Failed: went dead that day (its last attempt) and not retried since. */
  private async notificationsPerDay(days: string[], start: Date, timeZone: string): Promise<NotificationsPerDayDto[]> {
    const since = [this.database.time(start)];
    const p1 = this.database.placeholder(1);
    const sent: CountRow[] = await this.database.dataSource.query(
      `SELECT ${this.bucket('"sent_at"')} AS "bucket", COUNT(*) AS "count" FROM "notification_outbox"
        WHERE "state" = 'sent' AND "sent_at" >= ${p1} GROUP BY 1`,
      since,
    );
    const failed: CountRow[] = await this.database.dataSource.query(
      `SELECT ${this.bucket('"updated_at"')} AS "bucket", COUNT(*) AS "count" FROM "notification_outbox"
        WHERE "state" = 'dead' AND "updated_at" >= ${p1} GROUP BY 1`,
      since,
    );
    const perDay = new Map(days.map((date) => [date, { date, sent: 0, failed: 0 }]));
    for (const [rows, field] of [
      [sent, 'sent'],
      [failed, 'failed'],
    ] as const) {
      for (const row of rows) {
        const day = perDay.get(bucketDay(Number(row.bucket), timeZone));
        if (day) day[field] += Number(row.count);
      }
    }
    return days.map((date) => perDay.get(date) as NotificationsPerDayDto);
  }

  private async outboxHealth(now: Date): Promise<OutboxHealthDto> {
    const store = this.database.dataSource.getRepository(OutboxEntryEntity);
    const oldest = await store.findOne({ where: { state: 'pending' }, select: { id: true, createdAt: true }, order: { createdAt: 'ASC', id: 'ASC' } });
    return {
      pending: await store.count({ where: { state: 'pending' } }),
      sending: await store.count({ where: { state: 'sending' } }),
      dead: await store.count({ where: { state: 'dead' } }),
      oldest_pending_at: oldest?.createdAt.toISOString() ?? null,
      oldest_pending_age_seconds: oldest ? Math.max(0, Math.floor((now.getTime() - oldest.createdAt.getTime()) / 1000)) : null,
    };
  }
}
