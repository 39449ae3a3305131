import { Controller, Get, Query } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { COOKIE_SCHEME } from '../openapi';
import { AuditLogService } from './audit-log.service';
import { IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { PageQueryDto } from '../common/list-page';
import { AuditLogPageDto } from './dto/audit-log.dto';

export class AuditLogQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'An action (`auth.login`) or a family of actions (`auth`, `notification_channel`)', maxLength: 64 })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  @Matches(/^[a-z_]+(\.[a-z_]+)?$/, { message: 'action must look like auth or auth.login' })
  action?: string;

  @ApiPropertyOptional({ description: 'Who acted: a user name, or `system` for the service itself', maxLength: 64 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  actor?: string;
}

@ApiTags('audit-log')
@ApiCookieAuth(COOKIE_SCHEME)
@Controller('api/v1/audit-log')
export class AuditLogController {
  constructor(private readonly audit: AuditLogService) {}

  @Get()
  @ApiOperation({ summary: 'Admin actions, newest first; narrowed by action (or family) and by who acted' })
  @ApiOkResponse({ type: AuditLogPageDto })
  async list(@Query() query: AuditLogQueryDto): Promise<AuditLogPageDto> {
    const page = query.page ?? 1;
    const perPage = query.per_page ?? 20;
    const { items, total } = await this.audit.list(page, perPage, { action: query.action, actor: query.actor });
    return {
      items: items.map((entry) => ({
        id: entry.id,
        created_at: entry.createdAt.toISOString(),
        actor: entry.actor,
        action: entry.action,
        target: entry.target,
        details: entry.details ? (JSON.parse(entry.details) as Record<string, unknown>) : null,
        client_ip: entry.clientIp,
      })),
      page,
      per_page: perPage,
      total,
    };
  }
}
