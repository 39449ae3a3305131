import { ApiErrorResponses } from '@shared/http-service';
import { Body, Controller, Get, Param, Patch, Query } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { SearchText } from '../common/list-filters';
import { ListPage, ListPageDto, listPage, PageQueryDto, pageWindow, RowIdPipe, MAX_ROW_ID, QueryInteger } from '../common/list-page';
import { MonitorError } from '../common/monitor-error';
import { AGENT_SCHEME, COOKIE_SCHEME, CSRF_SCHEME } from '../openapi';
import { SECURITY_ALERT_KINDS, SecurityAlertEntity, SecurityAlertKind } from './security-alert.entity';
import { SecurityAlertRepository } from './security-alert.repository';

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
  constructor(private readonly alerts: SecurityAlertRepository) {}

  @Get()
  @ApiOperation({ summary: 'Dependabot, code scanning and secret scanning alerts' })
  @ApiOkResponse({ type: SecurityAlertListDto })
  async list(@Query() query: SecurityAlertQueryDto): Promise<ListPage<SecurityAlertDto>> {
    const window = pageWindow(query);
    const found = await this.alerts.find(
      { repositoryId: query.repository_id, kind: query.kind, ignored: query.ignored, state: query.state, severity: query.severity, text: query.q },
      window,
    );
    return listPage(found.rows.map(SecurityAlertDto.of), found.total, window);
  }

  @Patch(':id')
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({ summary: 'Ignore an alert (no more notifications for it) or stop ignoring it' })
  @ApiErrorResponses({ 404: 'not_found: no such alert' })
  @ApiOkResponse({ type: SecurityAlertDto })
  async update(@Param('id', new RowIdPipe()) id: number, @Body() body: UpdateSecurityAlertDto): Promise<SecurityAlertDto> {
    const row = await this.alerts.setIgnored(id, body.ignored, new Date());
    if (!row) throw new MonitorError('not_found', 'no such alert');
    return SecurityAlertDto.of(row);
  }
}
