import { Injectable } from '@nestjs/common';
import { EVENT_CATEGORIES, EventCategory } from '../common/event-category';
import { WebhookDeliveryRepository } from '../deliveries/webhook-delivery.repository';
import { EventRepository } from '../events/event.repository';
import { EventDto } from '../events/events.controller';
import { GithubAppSettingsService } from '../github-app-settings/github-app-settings.service';
import { InstallationRepository } from '../installations/installation.repository';
import { NotificationChannelRepository } from '../notification-channels/notification-channel.repository';
import { OutboxEntryDto } from '../notifications/notifications.controller';
import { OutboxRepository } from '../outbox/outbox.repository';
import { RepositoryRepository } from '../repositories/repository.repository';
import { SecurityAlertRepository } from '../security-alerts/security-alert.repository';
import { SystemSettingsService } from '../system-settings/system-settings.service';
import { FAILED_RUN_CONCLUSIONS } from '../workflow-runs/run-conclusions';
import { WorkflowRunRepository } from '../workflow-runs/workflow-run.repository';
import { WorkItemRepository } from '../work-items/work-item.repository';
import { BUCKET_SECONDS, bucketDay, lastLocalDays } from './day-buckets';
import { ChecklistEntryDto, DashboardDto, DeliverySummaryDto, EventsPerDayDto, NotificationsPerDayDto, OutboxHealthDto } from './dto/dashboard.dto';

export const DASHBOARD_DAYS = 14;
const RECENT = 10;

/**
 * Everything the console's dashboard shows, counted by the server in the configured time zone. Each
 * figure is asked of the repository of its aggregate.
 */
@Injectable()
export class DashboardService {
  constructor(
    private readonly githubApp: GithubAppSettingsService,
    private readonly systemSettings: SystemSettingsService,
    private readonly installationRecords: InstallationRepository,
    private readonly repositoryRecords: RepositoryRepository,
    private readonly channelRecords: NotificationChannelRepository,
    private readonly workItemRecords: WorkItemRepository,
    private readonly alertRecords: SecurityAlertRepository,
    private readonly runRecords: WorkflowRunRepository,
    private readonly eventRecords: EventRepository,
    private readonly outboxRecords: OutboxRepository,
    private readonly deliveryRecords: WebhookDeliveryRepository,
  ) {}

  async dashboard(now = new Date()): Promise<DashboardDto> {
    const timeZone = (await this.systemSettings.current()).time_zone;
    const window = lastLocalDays(now, timeZone, DASHBOARD_DAYS);

    const github = await this.githubApp.current();
    const installations = await this.installationRecords.countActive();
    const repositories = await this.repositoryRecords.countActive();
    const testedChannels = await this.channelRecords.countEnabled({ testedOk: true });
    const checklist: ChecklistEntryDto[] = [
      // What the service signs in to GitHub as the App with: the effective App id and private key,
      // from the environment or set in the console. The client id is only shown, never used to sign in.
      { key: 'github_app_credentials', done: Boolean(github.appId && github.privateKey) },
      { key: 'inbound_webhook_secret', done: github.webhookSecrets.length > 0 },
      { key: 'installation', done: installations > 0 },
      { key: 'repository', done: repositories > 0 },
      { key: 'channel_tested', done: testedChannels > 0 },
    ];

    const open = await this.workItemRecords.countOpenByKind();
    const tiles = {
      repositories,
      installations,
      open_issues: open.issue,
      open_pull_requests: open.pull_request,
      open_security_alerts: await this.alertRecords.countOpen(),
      failed_workflow_runs: await this.runRecords.countConcluded(FAILED_RUN_CONCLUSIONS, window.start),
      enabled_channels: await this.channelRecords.countEnabled(),
    };

    const recentDeliveries = await this.deliveryRecords.latest(RECENT);
    return {
      time_zone: timeZone,
      generated_at: now.toISOString(),
      checklist,
      setup_complete: checklist.every((item) => item.done),
      tiles,
      events_per_day: await this.eventsPerDay(window.days, window.start, timeZone),
      notifications_per_day: await this.notificationsPerDay(window.days, window.start, timeZone),
      outbox: await this.outboxHealth(now),
      recent_events: await this.recentEvents(),
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
      recent_notifications: (await this.outboxRecords.latest(RECENT)).map(OutboxEntryDto.of),
    };
  }

  private async eventsPerDay(days: string[], start: Date, timeZone: string): Promise<EventsPerDayDto[]> {
    const rows = await this.eventRecords.countPerBucketAndCategory(start, BUCKET_SECONDS);
    const perDay = new Map(days.map((date) => [date, Object.fromEntries(EVENT_CATEGORIES.map((category) => [category, 0])) as Record<EventCategory, number>]));
    for (const row of rows) {
      const counts = perDay.get(bucketDay(row.bucket, timeZone));
      if (counts && row.category in counts) counts[row.category as EventCategory] += row.count;
    }
    return days.map((date) => {
      const byCategory = perDay.get(date) as Record<EventCategory, number>;
      return { date, total: Object.values(byCategory).reduce((sum, value) => sum + value, 0), by_category: byCategory };
    });
  }

  /** Sent: delivered that day. Failed: went dead that day (its last attempt) and not retried since. */
  private async notificationsPerDay(days: string[], start: Date, timeZone: string): Promise<NotificationsPerDayDto[]> {
    const sent = await this.outboxRecords.sentPerBucket(start, BUCKET_SECONDS);
    const failed = await this.outboxRecords.deadPerBucket(start, BUCKET_SECONDS);
    const perDay = new Map(days.map((date) => [date, { date, sent: 0, failed: 0 }]));
    for (const [rows, field] of [
      [sent, 'sent'],
      [failed, 'failed'],
    ] as const) {
      for (const row of rows) {
        const day = perDay.get(bucketDay(row.bucket, timeZone));
        if (day) day[field] += row.count;
      }
    }
    return days.map((date) => perDay.get(date) as NotificationsPerDayDto);
  }

  /** The newest events, each with where its notifications stand. */
  private async recentEvents(): Promise<EventDto[]> {
    const rows = await this.eventRecords.latest(RECENT);
    const entries = await this.outboxRecords.stateOfEvents(rows.map((row) => row.id));
    return rows.map((row) => EventDto.of(row, entries.get(row.id)));
  }

  private async outboxHealth(now: Date): Promise<OutboxHealthDto> {
    const oldest = await this.outboxRecords.oldestPendingAt();
    return {
      pending: await this.outboxRecords.countInState('pending'),
      sending: await this.outboxRecords.countInState('sending'),
      dead: await this.outboxRecords.countInState('dead'),
      oldest_pending_at: oldest?.toISOString() ?? null,
      oldest_pending_age_seconds: oldest ? Math.max(0, Math.floor((now.getTime() - oldest.getTime()) / 1000)) : null,
    };
  }
}
