import { ApiErrorResponses } from '@shared/config';
import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { ListPage, ListPageDto, listPage, PageQueryDto, pageWindow, RowIdPipe } from '../common/list-page';
import { MonitorError } from '../common/monitor-error';
import { AGENT_SCHEME, COOKIE_SCHEME, CSRF_SCHEME } from '../openapi';
import { DatabaseWork } from '../processing/database-work';
import { NotificationMessage } from './notification-message';
import { NotificationOutboxService } from './notification-outbox.service';
import { OUTBOX_STATES, OutboxEntryEntity, OutboxState } from './outbox-entry.entity';

export class OutboxEntryDto {
  @ApiProperty() id!: number;
  @ApiProperty() idempotency_key!: string;
  @ApiProperty({ nullable: true, type: Number }) event_id!: number | null;
  @ApiProperty() channel_id!: string;
  @ApiProperty({ enum: ['telegram', 'http_webhook'] }) channel_kind!: string;
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

export class OutboxListDto extends ListPageDto {
  @ApiProperty({ type: [OutboxEntryDto] }) items!: OutboxEntryDto[];
}

export class OutboxQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: OUTBOX_STATES }) @IsOptional() @IsIn(OUTBOX_STATES) state?: OutboxState;
}

@ApiTags('notifications')
@ApiCookieAuth(COOKIE_SCHEME)
@ApiSecurity(AGENT_SCHEME)
@Controller('api/v1/notifications/outbox')
export class NotificationsController {
  constructor(
    private readonly database: DatabaseWork,
    private readonly outbox: NotificationOutboxService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The notification outbox, newest first' })
  @ApiOkResponse({ type: OutboxListDto })
  async list(@Query() query: OutboxQueryDto): Promise<ListPage<OutboxEntryDto>> {
    const window = pageWindow(query);
    const [rows, total] = await this.database.dataSource
      .getRepository(OutboxEntryEntity)
      .findAndCount({ where: query.state ? { state: query.state } : {}, order: { id: 'DESC' }, skip: window.skip, take: window.perPage });
    return listPage(rows.map(OutboxEntryDto.of), total, window);
  }

  @Post(':id/retry')
  @HttpCode(200)
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({ summary: 'Send a dead entry again now, with a fresh backoff schedule' })
  @ApiErrorResponses({ 404: 'not_found: no such outbox entry', 409: 'conflict: only dead entries can be retried' })
  @ApiOkResponse({ type: OutboxEntryDto })
  async retry(@Param('id', new RowIdPipe()) id: number): Promise<OutboxEntryDto> {
    const store = this.database.dataSource.getRepository(OutboxEntryEntity);
    const now = new Date();
    const changed = await this.database.transaction(async (manager) => {
      const result = await manager
        .getRepository(OutboxEntryEntity)
        .update({ id, state: 'dead' }, { state: 'pending', attempts: 0, nextAttemptAt: now, updatedAt: now });
      return result.affected ?? 0;
    });
    const row = await store.findOne({ where: { id } });
    if (!row) throw new MonitorError('not_found', 'no such outbox entry');
    if (changed === 0) throw new MonitorError('conflict', `only dead entries can be retried (this one is ${row.state})`);
    this.outbox.notifyCommitted();
    return OutboxEntryDto.of(row);
  }
}
