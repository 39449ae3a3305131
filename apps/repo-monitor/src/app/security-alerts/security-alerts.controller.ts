import { ApiErrorResponses } from '@shared/config';
import { Body, Controller, Get, Param, Patch, Query } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { SearchText, whereContains } from '../common/list-filters';
import { ListPage, ListPageDto, listPage, PageQueryDto, pageWindow, RowIdPipe, MAX_ROW_ID, QueryInteger } from '../common/list-page';
import { MonitorError } from '../common/monitor-error';
import { AGENT_SCHEME, COOKIE_SCHEME, CSRF_SCHEME } from '../openapi';
import { DatabaseWork } from '../processing/database-work';
import { SECURITY_ALERT_KINDS, SecurityAlertEntity, SecurityAlertKind } from './security-alert.entity';

export class SecurityAlertDto {
  @ApiProperty() id!: number;
  @ApiProperty() repository_id!: number;
  @ApiProperty({ enum: SECURITY_ALERT_KINDS }) kind!: string;
  @ApiProperty() number!: number;
  @ApiProperty() state!: string;
  @ApiProperty({ nullable: true, type: String }) severity!: string | null;
  @ApiProperty() summary!: string;
  @ApiProperty() html_url!: string;
  @ApiProperty({ description: 'Ignored alerts send no notifications' }) ignored!: boolean;
  @ApiProperty() updated_at!: string;

  static of(row: SecurityAlertEntity): SecurityAlertDto {
    return {
      id: row.id,
      repository_id: row.repositoryId,
      kind: row.kind,
      number: row.number,
      state: row.state,
      severity: row.severity,
      summary: row.summary,
      html_url: row.htmlUrl,
      ignored: row.ignored,
      updated_at: row.updatedAt.toISOString(),
    };
  }
}

export class SecurityAlertListDto extends ListPageDto {
  @ApiProperty({ type: [SecurityAlertDto] }) items!: SecurityAlertDto[];
}

export class SecurityAlertQueryDto extends PageQueryDto {
  @QueryInteger({ min: 1, max: MAX_ROW_ID }) repository_id?: number;
  @ApiPropertyOptional({ enum: SECURITY_ALERT_KINDS }) @IsOptional() @IsIn(SECURITY_ALERT_KINDS) kind?: SecurityAlertKind;
  @ApiPropertyOptional()
  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  ignored?: boolean;

  @ApiPropertyOptional({ description: 'open, fixed, dismissed, resolved, ...' }) @IsOptional() @IsString() @MaxLength(32) state?: string;
  @ApiPropertyOptional({ description: 'critical, high, medium, low, ...' }) @IsOptional() @IsString() @MaxLength(32) severity?: string;
  @SearchText('Text in the summary, ignoring case') q?: string;
}

export class UpdateSecurityAlertDto {
  @ApiProperty({ description: 'true: no further notifications for this alert' }) @IsBoolean() ignored!: boolean;
}

@ApiTags('security-alerts')
@ApiCookieAuth(COOKIE_SCHEME)
@ApiSecurity(AGENT_SCHEME)
@Controller('api/v1/security-alerts')
export class SecurityAlertsController {
  constructor(private readonly database: DatabaseWork) {}

  @Get()
  @ApiOperation({ summary: 'Dependabot, code scanning and secret scanning alerts' })
  @ApiOkResponse({ type: SecurityAlertListDto })
  async list(@Query() query: SecurityAlertQueryDto): Promise<ListPage<SecurityAlertDto>> {
    const window = pageWindow(query);
    const builder = this.database.dataSource.getRepository(SecurityAlertEntity).createQueryBuilder('alert');
    if (query.repository_id) builder.andWhere('alert.repositoryId = :repositoryId', { repositoryId: query.repository_id });
    if (query.kind) builder.andWhere('alert.kind = :kind', { kind: query.kind });
    if (query.ignored !== undefined) builder.andWhere('alert.ignored = :ignored', { ignored: query.ignored });
    if (query.state) builder.andWhere('alert.state = :state', { state: query.state });
    if (query.severity) builder.andWhere('alert.severity = :severity', { severity: query.severity });
    whereContains(builder, ['alert.summary'], query.q);
    const [rows, total] = await builder
      .orderBy('alert.updatedAt', 'DESC')
      .addOrderBy('alert.id', 'DESC')
      .skip(window.skip)
      .take(window.perPage)
      .getManyAndCount();
    return listPage(rows.map(SecurityAlertDto.of), total, window);
  }

  @Patch(':id')
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({ summary: 'Ignore an alert (no more notifications for it) or stop ignoring it' })
  @ApiErrorResponses({ 404: 'not_found: no such alert' })
  @ApiOkResponse({ type: SecurityAlertDto })
  async update(@Param('id', new RowIdPipe()) id: number, @Body() body: UpdateSecurityAlertDto): Promise<SecurityAlertDto> {
    const store = this.database.dataSource.getRepository(SecurityAlertEntity);
    const row = await store.findOne({ where: { id } });
    if (!row) throw new MonitorError('not_found', 'no such alert');
    row.ignored = body.ignored;
    row.ignoredAt = body.ignored ? new Date() : null;
    row.updatedAt = new Date();
    await this.database.transaction((manager) => manager.save(row));
    return SecurityAlertDto.of(row);
  }
}
