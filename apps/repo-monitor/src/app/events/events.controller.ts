import { Controller, Get, Query } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { FindOptionsWhere } from 'typeorm';
import { ListPage, ListPageDto, listPage, PageQueryDto, pageWindow, MAX_ROW_ID, QueryInteger } from '../common/list-page';
import { AGENT_SCHEME, COOKIE_SCHEME } from '../openapi';
import { DatabaseWork } from '../processing/database-work';
import { EVENT_CATEGORIES, EventCategory, EventEntity } from './event.entity';

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
  @ApiProperty() occurred_at!: string;
  @ApiProperty() created_at!: string;

  static of(row: EventEntity): EventDto {
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
}

@ApiTags('events')
@ApiCookieAuth(COOKIE_SCHEME)
@ApiSecurity(AGENT_SCHEME)
@Controller('api/v1/events')
export class EventsController {
  constructor(private readonly database: DatabaseWork) {}

  @Get()
  @ApiOperation({ summary: 'Recorded events, newest first' })
  @ApiOkResponse({ type: EventListDto })
  async list(@Query() query: EventQueryDto): Promise<ListPage<EventDto>> {
    const window = pageWindow(query);
    const where: FindOptionsWhere<EventEntity> = {};
    if (query.repository_id) where.repositoryId = query.repository_id;
    if (query.category) where.category = query.category;
    const [rows, total] = await this.database.dataSource
      .getRepository(EventEntity)
      .findAndCount({ where, order: { id: 'DESC' }, skip: window.skip, take: window.perPage });
    return listPage(rows.map(EventDto.of), total, window);
  }
}
