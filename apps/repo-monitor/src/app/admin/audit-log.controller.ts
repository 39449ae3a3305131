import { Controller, Get, Query } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { COOKIE_SCHEME } from '../openapi';
import { AuditLogService } from './audit-log.service';
import { PageQueryDto } from '../common/list-page';
import { AuditLogPageDto } from './dto/audit-log.dto';

@ApiTags('audit-log')
@ApiCookieAuth(COOKIE_SCHEME)
@Controller('api/v1/audit-log')
export class AuditLogController {
  constructor(private readonly audit: AuditLogService) {}

  @Get()
  @ApiOperation({ summary: 'Admin actions, newest first' })
  @ApiOkResponse({ type: AuditLogPageDto })
  async list(@Query() query: PageQueryDto): Promise<AuditLogPageDto> {
    const page = query.page ?? 1;
    const perPage = query.per_page ?? 20;
    const { items, total } = await this.audit.list(page, perPage);
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
