import { Controller, Get, HttpCode, Inject, Post, Query, Req } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import type { FastifyRequest } from 'fastify';
import { AuditLogService } from '../admin/audit-log.service';
import { CurrentAdmin, Principal, clientAddress } from '../admin/principal';
import { ListPageDto, listPage, PageQueryDto, pageWindow } from '../common/list-page';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { COOKIE_SCHEME, CSRF_SCHEME } from '../openapi';
import { RecoveredDeliveryEntity, RecoveredDeliveryStatus } from './recovered-delivery.entity';
import { RecoveredDeliveryRepository } from './recovered-delivery.repository';
import { RedeliverySweepService, SweepResult } from './redelivery-sweep.service';

type AdminPrincipal = Extract<Principal, { kind: 'admin' }>;

const STATUSES: RecoveredDeliveryStatus[] = ['missing', 'requested', 'recovered', 'given_up'];

export class RecoveredDeliveryDto {
  @ApiProperty({ description: 'GitHub\u2019s delivery guid (the X-GitHub-Delivery header)' }) guid!: string;
  @ApiProperty({ example: 'issues' }) event!: string;
  @ApiProperty({ nullable: true, type: String }) action!: string | null;
  @ApiProperty({ enum: STATUSES, description: 'missing: failed and not received; requested: a redelivery was asked for; recovered: received since; given_up: see reason' })
  status!: RecoveredDeliveryStatus;
  @ApiProperty({ description: 'Redeliveries asked for so far' }) requests!: number;
  @ApiProperty({ format: 'date-time', description: 'When GitHub first tried to deliver it' }) first_attempt_at!: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) last_requested_at!: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', description: 'When it was recovered or given up' }) resolved_at!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'Why it was given up, or why the last request failed' }) reason!: string | null;
}

export class RedeliverySweepDto {
  @ApiProperty({ description: 'false when the sweep did not run (see skipped)' }) ran!: boolean;
  @ApiProperty({ nullable: true, type: String, enum: ['disabled', 'not_configured', 'running_elsewhere'] }) skipped!: string | null;
  @ApiProperty({ description: 'Distinct deliveries in GitHub\u2019s list of the last 3 days' }) looked_at!: number;
  @ApiProperty({ description: 'Of those, failed and not received' }) failed!: number;
  @ApiProperty() requested!: number;
  @ApiProperty() recovered!: number;
  @ApiProperty() given_up!: number;
  @ApiProperty({ nullable: true, type: String, description: 'Why the sweep stopped early' }) error!: string | null;
  @ApiProperty({ format: 'date-time' }) started_at!: string;
  @ApiProperty({ format: 'date-time' }) finished_at!: string;
}

export class RecoveredDeliveryListDto extends ListPageDto {
  @ApiProperty({ description: 'MONITOR_REDELIVERY_ENABLED' }) enabled!: boolean;
  @ApiProperty({ description: 'MONITOR_REDELIVERY_INTERVAL in seconds' }) interval_seconds!: number;
  @ApiProperty({ nullable: true, type: RedeliverySweepDto, description: 'The last sweep on any instance; null before the first' }) last_sweep!: RedeliverySweepDto | null;
  @ApiProperty({ type: [RecoveredDeliveryDto] }) items!: RecoveredDeliveryDto[];
}

export class RecoveredDeliveryQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: STATUSES })
  @IsOptional()
  @IsIn(STATUSES, { message: `status must be one of ${STATUSES.join(', ')}` })
  status?: RecoveredDeliveryStatus;
}

function sweepDto(result: SweepResult): RedeliverySweepDto {
  return {
    ran: result.ran,
    skipped: result.skipped,
    looked_at: result.lookedAt,
    failed: result.failed,
    requested: result.requested,
    recovered: result.recovered,
    given_up: result.givenUp,
    error: result.error,
    started_at: result.startedAt,
    finished_at: result.finishedAt,
  };
}

function deliveryDto(row: RecoveredDeliveryEntity): RecoveredDeliveryDto {
  return {
    guid: row.guid,
    event: row.event,
    action: row.action,
    status: row.status,
    requests: row.requests,
    first_attempt_at: row.firstAttemptAt.toISOString(),
    last_requested_at: row.lastRequestedAt?.toISOString() ?? null,
    resolved_at: row.resolvedAt?.toISOString() ?? null,
    reason: row.reason,
  };
}

/** Webhook deliveries GitHub failed to bring here, and what the redelivery sweep did about them. */
@ApiTags('recovered-deliveries')
@ApiCookieAuth(COOKIE_SCHEME)
@Controller('api/v1/recovered-deliveries')
export class RecoveredDeliveriesController {
  constructor(
    @Inject(MONITOR_CONFIG) private readonly config: MonitorConfig,
    private readonly records: RecoveredDeliveryRepository,
    private readonly sweeps: RedeliverySweepService,
    private readonly audit: AuditLogService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Failed deliveries found by the redelivery sweep, newest first, with the last sweep' })
  @ApiOkResponse({ type: RecoveredDeliveryListDto })
  async list(@Query() query: RecoveredDeliveryQueryDto): Promise<RecoveredDeliveryListDto> {
    const window = pageWindow(query);
    const { rows, total } = await this.records.list(window, query.status);
    const last = await this.sweeps.lastSweep();
    return {
      ...listPage(rows.map(deliveryDto), total, window),
      enabled: this.config.redelivery.enabled,
      interval_seconds: Math.round(this.config.redelivery.intervalMs / 1000),
      last_sweep: last ? sweepDto(last) : null,
    };
  }

  @Post('check')
  @HttpCode(200)
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({ summary: 'Run the redelivery sweep now and answer what it did', description: 'skipped tells why it did not run: disabled, not_configured (no GitHub App), running_elsewhere (another instance is sweeping).' })
  @ApiOkResponse({ type: RedeliverySweepDto })
  async check(@CurrentAdmin() admin: AdminPrincipal, @Req() request: FastifyRequest): Promise<RedeliverySweepDto> {
    await this.audit.record({ actor: admin.username, action: 'redelivery.check_requested', clientIp: clientAddress(request) });
    return sweepDto(await this.sweeps.sweep());
  }
}
