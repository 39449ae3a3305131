import { Controller, Get, Query } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsIn, IsOptional, Matches } from 'class-validator';
import { ListPageDto, listPage, PageQueryDto, pageWindow } from '../common/list-page';
import { COOKIE_SCHEME } from '../openapi';
import { isAppliedEvent } from './handled-events';
import { DeliveryStatus } from './webhook-delivery.entity';
import { WebhookDeliveryRepository } from './webhook-delivery.repository';
import { REJECTION_REASONS, RejectionReason, WebhookRejectionEntity } from './webhook-rejection.entity';
import { MAX_KEPT_REJECTIONS, WebhookRejectionRepository } from './webhook-rejection.repository';

const DELIVERY_STATUSES = ['accepted', 'processed', 'failed', 'duplicate'] as const;

export class WebhookDeliveryDto {
  @ApiProperty() id!: number;
  @ApiProperty({ description: 'X-GitHub-Delivery' }) delivery_id!: string;
  @ApiProperty({ description: 'X-GitHub-Event' }) event!: string;
  @ApiProperty({ nullable: true, type: String }) action!: string | null;
  @ApiProperty({ nullable: true, type: String }) repository_full_name!: string | null;
  @ApiProperty({ enum: DELIVERY_STATUSES, description: 'accepted: stored, not processed yet; processed; failed: given up after its attempts; duplicate: a delivery id seen before' })
  status!: DeliveryStatus;
  @ApiProperty() attempts!: number;
  @ApiProperty({ nullable: true, type: String, description: 'Why the last processing attempt failed' }) last_error!: string | null;
  @ApiProperty({ description: 'Whether repo-monitor acts on this kind of event; other kinds are stored and ignored' }) handled!: boolean;
  @ApiProperty({ format: 'date-time' }) received_at!: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) processed_at!: string | null;
}

export class WebhookDeliveryListDto extends ListPageDto {
  @ApiProperty({ type: [WebhookDeliveryDto] }) items!: WebhookDeliveryDto[];
}

export class WebhookDeliveryQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: DELIVERY_STATUSES }) @IsOptional() @IsIn(DELIVERY_STATUSES) status?: DeliveryStatus;
  @ApiPropertyOptional({ description: 'An event name, e.g. pull_request' })
  @IsOptional()
  @Matches(/^[a-z0-9_.-]{1,64}$/, { message: 'event must be an event name such as pull_request' })
  event?: string;
}

export class WebhookRejectionDto {
  @ApiProperty() id!: number;
  @ApiProperty({ format: 'date-time' }) received_at!: string;
  @ApiProperty({
    enum: REJECTION_REASONS,
    description:
      'no_secret: no inbound webhook secret is configured (503); bad_signature: X-Hub-Signature-256 missing or not matching (401); ' +
      'too_many_bad_signatures: the sender was throttled (429); too_large: body over 1 MiB (413); missing_headers / malformed_headers: ' +
      'X-GitHub-Delivery or X-GitHub-Event absent or malformed (400); malformed_body: not a JSON object (400); unsupported_content_type (415); ' +
      'unavailable: the service was stopping (503); other',
  })
  reason!: RejectionReason;
  @ApiProperty() http_status!: number;
  @ApiProperty({ nullable: true, type: String, description: 'The service\u2019s answer (never the request body)' }) detail!: string | null;
  @ApiProperty({ nullable: true, type: String }) delivery_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) event!: string | null;
  @ApiProperty({ nullable: true, type: String }) remote_address!: string | null;
  @ApiProperty({ nullable: true, type: String }) user_agent!: string | null;
  @ApiProperty({ nullable: true, type: Number, description: 'Content-Length as sent' }) body_bytes!: number | null;

  static of(row: WebhookRejectionEntity): WebhookRejectionDto {
    return {
      id: row.id,
      received_at: row.receivedAt.toISOString(),
      reason: row.reason,
      http_status: row.httpStatus,
      detail: row.detail,
      delivery_id: row.deliveryId,
      event: row.event,
      remote_address: row.remoteAddress,
      user_agent: row.userAgent,
      body_bytes: row.bodyBytes,
    };
  }
}

export class WebhookRejectionListDto extends ListPageDto {
  @ApiProperty({ type: [WebhookRejectionDto] }) items!: WebhookRejectionDto[];
}

export class WebhookRejectionQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: REJECTION_REASONS }) @IsOptional() @IsIn(REJECTION_REASONS) reason?: RejectionReason;
}

/** The inbound webhook deliveries the console shows: those accepted and stored, and those refused (admin only). */
@ApiTags('deliveries')
@ApiCookieAuth(COOKIE_SCHEME)
@Controller('api/v1/deliveries')
export class DeliveriesController {
  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly rejections: WebhookRejectionRepository,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Accepted webhook deliveries, newest first, without their payloads' })
  @ApiOkResponse({ type: WebhookDeliveryListDto })
  async list(@Query() query: WebhookDeliveryQueryDto): Promise<WebhookDeliveryListDto> {
    const window = pageWindow(query);
    const { rows, total } = await this.deliveries.page({ status: query.status, event: query.event }, window);
    const items = rows.map(
      (row): WebhookDeliveryDto => ({
        id: row.id,
        delivery_id: row.deliveryId,
        event: row.event,
        action: row.action,
        repository_full_name: row.repositoryFullName,
        status: row.status,
        attempts: row.attempts,
        last_error: row.lastError,
        handled: row.event === 'ping' || isAppliedEvent(row.event),
        received_at: row.receivedAt.toISOString(),
        processed_at: row.processedAt?.toISOString() ?? null,
      }),
    );
    return listPage(items, total, window);
  }

  @Get('rejected')
  @ApiOperation({ summary: `Requests to POST /webhooks/github that were refused, newest first: the reason, never the body (the newest ${MAX_KEPT_REJECTIONS} are kept)` })
  @ApiOkResponse({ type: WebhookRejectionListDto })
  async rejected(@Query() query: WebhookRejectionQueryDto): Promise<WebhookRejectionListDto> {
    const window = pageWindow(query);
    const { rows, total } = await this.rejections.page(query.reason, window);
    return listPage(rows.map((row) => WebhookRejectionDto.of(row)), total, window);
  }
}
