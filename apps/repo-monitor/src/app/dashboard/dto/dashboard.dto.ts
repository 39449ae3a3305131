import { ApiProperty } from '@nestjs/swagger';
import { EVENT_CATEGORIES } from '../../common/event-category';
import { EventDto } from '../../events/events.controller';
import { OutboxEntryDto } from '../../notifications/notifications.controller';

export const CHECKLIST_ITEMS = ['github_app_credentials', 'inbound_webhook_secret', 'installation', 'repository', 'channel_tested'] as const;
export type ChecklistItem = (typeof CHECKLIST_ITEMS)[number];

export class ChecklistEntryDto {
  @ApiProperty({
    enum: CHECKLIST_ITEMS,
    description:
      'github_app_credentials: App id and private key in effect (environment or console); inbound_webhook_secret: a secret GitHub signs deliveries with; ' +
      'installation: the App is installed on an account; repository: at least one active watched repository; ' +
      'channel_tested: an enabled notification channel whose last test passed',
  })
  key!: ChecklistItem;
  @ApiProperty() done!: boolean;
}

export class DashboardTilesDto {
  @ApiProperty({ description: 'Active watched repositories' }) repositories!: number;
  @ApiProperty({ description: 'Installations not removed' }) installations!: number;
  @ApiProperty() open_issues!: number;
  @ApiProperty() open_pull_requests!: number;
  @ApiProperty({ description: 'Open security alerts that are not ignored' }) open_security_alerts!: number;
  @ApiProperty({ description: 'Workflow runs that concluded as failed (failure, timed_out, cancelled, action_required, startup_failure) within the 14 days shown' }) failed_workflow_runs!: number;
  @ApiProperty({ description: 'Enabled notification channels' }) enabled_channels!: number;
}

export class EventsPerDayDto {
  @ApiProperty({ description: 'Local date YYYY-MM-DD in the configured time zone' }) date!: string;
  @ApiProperty() total!: number;
  @ApiProperty({
    description: 'Events of the day per category',
    type: 'object',
    properties: Object.fromEntries(EVENT_CATEGORIES.map((category) => [category, { type: 'integer' }])),
    required: [...EVENT_CATEGORIES],
  })
  by_category!: Record<(typeof EVENT_CATEGORIES)[number], number>;
}

export class NotificationsPerDayDto {
  @ApiProperty({ description: 'Local date YYYY-MM-DD in the configured time zone' }) date!: string;
  @ApiProperty({ description: 'Notifications delivered that day' }) sent!: number;
  @ApiProperty({ description: 'Notifications that gave up (went dead) that day and were not retried since' }) failed!: number;
}

export class OutboxHealthDto {
  @ApiProperty({ description: 'Waiting to be sent (including aggregates waiting for their window)' }) pending!: number;
  @ApiProperty({ description: 'Being sent right now' }) sending!: number;
  @ApiProperty({ description: 'Gave up; can be retried' }) dead!: number;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', description: 'When the oldest pending entry was written' })
  oldest_pending_at!: string | null;
  @ApiProperty({ nullable: true, type: Number, description: 'Its age in seconds' }) oldest_pending_age_seconds!: number | null;
}

export class DeliverySummaryDto {
  @ApiProperty() id!: number;
  @ApiProperty({ description: 'X-GitHub-Delivery' }) delivery_id!: string;
  @ApiProperty({ description: 'X-GitHub-Event' }) event!: string;
  @ApiProperty({ nullable: true, type: String }) action!: string | null;
  @ApiProperty({ nullable: true, type: String }) repository!: string | null;
  @ApiProperty({ enum: ['accepted', 'processed', 'failed', 'duplicate'] }) status!: string;
  @ApiProperty({ nullable: true, type: String }) last_error!: string | null;
  @ApiProperty({ format: 'date-time' }) received_at!: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) processed_at!: string | null;
}

export class DashboardDto {
  @ApiProperty({ description: 'The configured time zone the days are counted in' }) time_zone!: string;
  @ApiProperty({ format: 'date-time' }) generated_at!: string;
  @ApiProperty({ type: [ChecklistEntryDto], description: 'Onboarding steps in order, read from the current state' }) checklist!: ChecklistEntryDto[];
  @ApiProperty({ description: 'Every checklist step is done' }) setup_complete!: boolean;
  @ApiProperty({ type: DashboardTilesDto }) tiles!: DashboardTilesDto;
  @ApiProperty({ type: [EventsPerDayDto], description: 'The last 14 local days, oldest first, today last' }) events_per_day!: EventsPerDayDto[];
  @ApiProperty({ type: [NotificationsPerDayDto], description: 'The last 14 local days, oldest first, today last' })
  notifications_per_day!: NotificationsPerDayDto[];
  @ApiProperty({ type: OutboxHealthDto }) outbox!: OutboxHealthDto;
  @ApiProperty({ type: [EventDto], description: 'The 10 newest events' }) recent_events!: EventDto[];
  @ApiProperty({ type: [DeliverySummaryDto], description: 'The 10 newest inbound GitHub deliveries' }) recent_deliveries!: DeliverySummaryDto[];
  @ApiProperty({ type: [OutboxEntryDto], description: 'The 10 newest notifications' }) recent_notifications!: OutboxEntryDto[];
}
