import { ApiErrorResponses } from '@shared/http-service';
import { Controller, Get, Query } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { QueryDateTime, SearchText } from '../common/list-filters';
import { ListPage, ListPageDto, listPage, PageQueryDto, pageWindow, MAX_ROW_ID, QueryInteger } from '../common/list-page';
import { MonitorError } from '../common/monitor-error';
import { AGENT_SCHEME, COOKIE_SCHEME } from '../openapi';
import { OutboxState } from '../outbox/outbox-entry.entity';
import { OutboxRepository } from '../outbox/outbox.repository';
import { EventEntity } from './event.entity';
import { EventRepository } from './event.repository';
import { EVENT_CATEGORIES, EventCategory } from '../common/event-category';

export const NOTIFICATION_STANDINGS = ['not_notified', 'queued', 'failing', 'failed', 'sent', 'suppressed', 'notified'] as const;
export type NotificationStanding = (typeof NOTIFICATION_STANDINGS)[number];

/** One word for an event's notifications, from its outbox entries: the worst that is true of any of them. */
export function notificationStanding(notified: boolean, entries: ReadonlyArray<{ state: OutboxState; attempts: number }>): NotificationStanding {
  if (entries.length === 0) return notified ? 'notified' : 'not_notified';
  if (entries.some((entry) => entry.state === 'dead')) return 'failed';
  const open = entries.filter((entry) => entry.state === 'pending' || entry.state === 'sending');
  if (open.some((entry) => entry.attempts > 0)) return 'failing';
  if (open.length > 0) return 'queued';
  if (entries.some((entry) => entry.state === 'sent')) return 'sent';
  return 'suppressed';
}

export class EventDto {
  @ApiProperty() id!: number;
  @ApiProperty({ nullable: true, type: Number }) repository_id!: number | null;
  @ApiProperty() kind!: string;
  @ApiProperty({ enum: EVENT_CATEGORIES }) category!: string;
  @ApiProperty() title!: string;
  @ApiProperty() body_text!: string;
  @ApiProperty({ nullable: true, type: String }) html_url!: string | null;
  @ApiProperty({ nullable: true, type: String }) actor!: string | null;
  @ApiProperty({ description: 'Dedupe fingerprint (SHA-256 of the event identity)' }) fingerprint!: string;
  @ApiProperty({ description: 'Whether a notification was queued' }) notified!: boolean;
  @ApiProperty({
    enum: NOTIFICATION_STANDINGS,
    description:
      'Where its notifications stand: not_notified (none was queued); queued (waiting for its first try); failing (tried and failed, ' +
      'to be tried again); failed (given up: dead); sent; suppressed (held back, e.g. quiet hours); notified (queued, its entries since removed)',
  })
  notification!: NotificationStanding;
  @ApiProperty() occurred_at!: string;
  @ApiProperty() created_at!: string;

  static of(row: EventEntity, entries: ReadonlyArray<{ state: OutboxState; attempts: number }> = []): EventDto {
    return {
      id: row.id,
      repository_id: row.repositoryId,
      kind: row.kind,
      category: row.category,
      title: row.title,
      body_text: row.bodyText,
      html_url: row.htmlUrl,
      actor: row.actor,
      fingerprint: row.fingerprint,
      notified: row.notified,
      notification: notificationStanding(row.notified, entries),
      occurred_at: row.occurredAt.toISOString(),
      created_at: row.createdAt.toISOString(),
    };
  }
}

export class EventListDto extends ListPageDto {
  @ApiProperty({ type: [EventDto] }) items!: EventDto[];
}

export class EventQueryDto extends PageQueryDto {
  @QueryInteger({ min: 1, max: MAX_ROW_ID }) repository_id?: number;
  @ApiPropertyOptional({ enum: EVENT_CATEGORIES }) @IsOptional() @IsIn(EVENT_CATEGORIES) category?: EventCategory;

  @ApiPropertyOptional({
    description: 'An event kind (`issues.opened`) or a family of kinds (`issues` matches `issues.opened`, `issues.closed`, ...)',
    maxLength: 64,
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  @Matches(/^[a-z_]+(\.[a-z_]+)?$/, { message: 'kind must look like issues or issues.opened' })
  kind?: string;

  @QueryDateTime('Only events that happened at or after this time') since?: string;
  @QueryDateTime('Only events that happened before this time') until?: string;
  @SearchText('Text in the title, body or actor, ignoring case') q?: string;
}

@ApiTags('events')
@ApiCookieAuth(COOKIE_SCHEME)
@ApiSecurity(AGENT_SCHEME)
@Controller('api/v1/events')
export class EventsController {
  constructor(
    private readonly events: EventRepository,
    private readonly outbox: OutboxRepository,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Recorded events, newest first, filtered by repository, category, kind, time and text' })
  @ApiErrorResponses({ 400: 'validation_failed: a filter is malformed, or since is not before until' })
  @ApiOkResponse({ type: EventListDto })
  async list(@Query() query: EventQueryDto): Promise<ListPage<EventDto>> {
    const window = pageWindow(query);
    const since = query.since ? new Date(query.since) : undefined;
    const until = query.until ? new Date(query.until) : undefined;
    if (since && until && since.getTime() >= until.getTime()) {
      throw new MonitorError('validation_failed', 'since must be before until', { field: 'since' });
    }
    const found = await this.events.find(
      { repositoryId: query.repository_id, category: query.category, kind: query.kind, since, until, text: query.q },
      window,
    );
    const entries = await this.outbox.stateOfEvents(found.rows.map((row) => row.id));
    return listPage(
      found.rows.map((row) => EventDto.of(row, entries.get(row.id))),
      found.total,
      window,
    );
  }
}
