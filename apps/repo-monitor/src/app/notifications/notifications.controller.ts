import { ApiErrorResponses } from '@shared/http-service';
import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { ListPage, ListPageDto, listPage, MAX_ROW_ID, PageQueryDto, pageWindow, QueryInteger, RowIdPipe } from '../common/list-page';
import { MonitorError } from '../common/monitor-error';
import { AGENT_SCHEME, COOKIE_SCHEME, CSRF_SCHEME } from '../openapi';
import { NotificationChannelRepository } from '../notification-channels/notification-channel.repository';
import { CHANNEL_KINDS } from '../notification-channels/notification-channel.entity';
import { NotificationMessage } from './notification-message';
import { NotificationOutboxService } from './notification-outbox.service';
import { OUTBOX_STATES, OutboxEntryEntity, OutboxState } from '../outbox/outbox-entry.entity';
import { OutboxRepository } from '../outbox/outbox.repository';

export class OutboxEntryDto {
  @ApiProperty() id!: number;
  @ApiProperty() idempotency_key!: string;
  @ApiProperty({ nullable: true, type: Number }) event_id!: number | null;
  @ApiProperty() channel_id!: string;
  @ApiProperty({ enum: CHANNEL_KINDS }) channel_kind!: string;
  @ApiProperty({ enum: ['single', 'aggregate', 'burst'] }) role!: string;
  @ApiProperty({ nullable: true, type: Number, description: 'The merged entry this one went out with' }) aggregated_into!: number | null;
  @ApiProperty() item_count!: number;
  @ApiProperty({ enum: OUTBOX_STATES }) state!: string;
  @ApiProperty() attempts!: number;
  @ApiProperty() next_attempt_at!: string;
  @ApiProperty({ nullable: true, type: String }) last_error_code!: string | null;
  @ApiProperty({ nullable: true, type: String }) last_error!: string | null;
  @ApiProperty({ nullable: true, type: String }) sent_at!: string | null;
  @ApiProperty() title!: string;
  @ApiProperty() created_at!: string;

  static of(row: OutboxEntryEntity): OutboxEntryDto {
    let title = '';
    try {
      title = (JSON.parse(row.message) as NotificationMessage).title;
    } catch {
      title = '';
    }
    return {
      id: row.id,
      idempotency_key: row.idempotencyKey,
      event_id: row.eventId,
      channel_id: row.channelId,
      channel_kind: row.channelKind,
      role: row.role,
      aggregated_into: row.aggregatedInto,
      item_count: row.itemCount,
      state: row.state,
      attempts: row.attempts,
      next_attempt_at: row.nextAttemptAt.toISOString(),
      last_error_code: row.lastErrorCode,
      last_error: row.lastError,
      sent_at: row.sentAt?.toISOString() ?? null,
      title,
      created_at: row.createdAt.toISOString(),
    };
  }
}

/** What the notification says, without its rendered bodies or the webhook event object. */
export class OutboxPayloadSummaryDto {
  @ApiProperty({ description: 'Event kind (`issues.opened`), or `summary.aggregate` / `summary.burst` for merged messages' }) kind!: string;
  @ApiProperty() category!: string;
  @ApiProperty({ nullable: true, type: String }) repository!: string | null;
  @ApiProperty() title!: string;
  @ApiProperty({ description: 'The plain-text body, cut to 2,000 characters' }) body_text!: string;
  @ApiProperty({ nullable: true, type: String }) url!: string | null;
  @ApiProperty({ nullable: true, type: String }) occurred_at!: string | null;
}

export class OutboxEntryDetailDto extends OutboxEntryDto {
  @ApiProperty({ nullable: true, type: String, description: 'The channel name; null when the channel was deleted' }) channel_name!: string | null;
  @ApiProperty({ nullable: true, type: OutboxPayloadSummaryDto, description: 'null when the stored message cannot be read' })
  payload!: OutboxPayloadSummaryDto | null;
  @ApiProperty({ type: [Number], description: 'Ids of the entries merged into this aggregate or burst summary (at most 100)' })
  merged_entry_ids!: number[];
  @ApiProperty() updated_at!: string;
}

export class OutboxListDto extends ListPageDto {
  @ApiProperty({ type: [OutboxEntryDto] }) items!: OutboxEntryDto[];
}

const CHANNEL_ID_RULE = /^[A-Za-z0-9_-]{1,64}$/;

export class OutboxQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: OUTBOX_STATES }) @IsOptional() @IsIn(OUTBOX_STATES) state?: OutboxState;
  @ApiPropertyOptional({ description: 'Only entries for this notification channel' })
  @IsOptional()
  @IsString()
  @Matches(CHANNEL_ID_RULE, { message: 'channel_id must be a channel id' })
  channel_id?: string;
  @QueryInteger({ min: 1, max: MAX_ROW_ID, description: 'Only entries of this event (GET /api/v1/events)' }) event_id?: number;
}

export class RetryDeadDto {
  @ApiPropertyOptional({ description: 'Only dead entries of this channel; left out: every dead entry' })
  @IsOptional()
  @IsString()
  @Matches(CHANNEL_ID_RULE, { message: 'channel_id must be a channel id' })
  channel_id?: string;
}

export class RetryDeadResultDto {
  @ApiProperty({ description: 'How many dead entries were queued again' }) retried!: number;
}

const MAX_BODY_SUMMARY = 2000;

function payloadSummary(raw: string): OutboxPayloadSummaryDto | null {
  try {
    const message = JSON.parse(raw) as Partial<NotificationMessage>;
    return {
      kind: typeof message.kind === 'string' ? message.kind : '',
      category: typeof message.category === 'string' ? message.category : '',
      repository: typeof message.repository === 'string' ? message.repository : null,
      title: typeof message.title === 'string' ? message.title : '',
      body_text: typeof message.bodyPlain === 'string' ? message.bodyPlain.slice(0, MAX_BODY_SUMMARY) : '',
      url: typeof message.url === 'string' ? message.url : null,
      occurred_at: typeof message.occurredAt === 'string' ? message.occurredAt : null,
    };
  } catch {
    return null;
  }
}

@ApiTags('notifications')
@ApiCookieAuth(COOKIE_SCHEME)
@ApiSecurity(AGENT_SCHEME)
@Controller('api/v1/notifications/outbox')
export class NotificationsController {
  constructor(
    private readonly entries: OutboxRepository,
    private readonly outbox: NotificationOutboxService,
    private readonly channels: NotificationChannelRepository,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The notification outbox, newest first' })
  @ApiOkResponse({ type: OutboxListDto })
  async list(@Query() query: OutboxQueryDto): Promise<ListPage<OutboxEntryDto>> {
    const window = pageWindow(query);
    const found = await this.entries.find({ state: query.state, channelId: query.channel_id, eventId: query.event_id }, window);
    return listPage(found.rows.map(OutboxEntryDto.of), found.total, window);
  }

  @Post('retry-dead')
  @HttpCode(200)
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({ summary: 'Send every dead entry (of one channel, or all) again now, each with a fresh backoff schedule' })
  @ApiOkResponse({ type: RetryDeadResultDto })
  async retryDead(@Body() body: RetryDeadDto): Promise<RetryDeadResultDto> {
    const retried = await this.entries.retryDead({ channelId: body.channel_id }, new Date());
    if (retried > 0) this.outbox.notifyCommitted();
    return { retried };
  }

  @Get(':id')
  @ApiOperation({ summary: 'One outbox entry: attempts, last error, next try and what it says' })
  @ApiErrorResponses({ 404: 'not_found: no such outbox entry' })
  @ApiOkResponse({ type: OutboxEntryDetailDto })
  async get(@Param('id', new RowIdPipe()) id: number): Promise<OutboxEntryDetailDto> {
    const row = await this.entries.findById(id);
    if (!row) throw new MonitorError('not_found', 'no such outbox entry');
    const channelName = (await this.channels.findById(row.channelId))?.name ?? null;
    const merged = row.role === 'single' ? [] : await this.entries.memberIds(row.id, 100);
    return {
      ...OutboxEntryDto.of(row),
      channel_name: channelName,
      payload: payloadSummary(row.message),
      merged_entry_ids: merged,
      updated_at: row.updatedAt.toISOString(),
    };
  }

  @Post(':id/retry')
  @HttpCode(200)
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({ summary: 'Send a dead entry again now, with a fresh backoff schedule' })
  @ApiErrorResponses({ 404: 'not_found: no such outbox entry', 409: 'conflict: only dead entries can be retried' })
  @ApiOkResponse({ type: OutboxEntryDto })
  async retry(@Param('id', new RowIdPipe()) id: number): Promise<OutboxEntryDto> {
    const changed = await this.entries.retryDead({ id }, new Date());
    const row = await this.entries.findById(id);
    if (!row) throw new MonitorError('not_found', 'no such outbox entry');
    if (changed === 0) throw new MonitorError('conflict', `only dead entries can be retried (this one is ${row.state})`);
    this.outbox.notifyCommitted();
    return OutboxEntryDto.of(row);
  }
}
