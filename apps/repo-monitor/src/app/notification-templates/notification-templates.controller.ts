import { ApiErrorResponses } from '@shared/http-service';
import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post, Put, Query, Req } from '@nestjs/common';
import { ApiCookieAuth, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { CurrentAdmin, Principal, clientAddress } from '../admin/principal';
import { MonitorError } from '../common/monitor-error';
import { COOKIE_SCHEME, CSRF_SCHEME } from '../openapi';
import {
  NotificationTemplateDto,
  NotificationTemplateListDto,
  NotificationTemplatePreviewDto,
  NotificationTemplateQueryDto,
  PreviewNotificationTemplateDto,
  SaveNotificationTemplateDto,
} from './dto/notification-template.dto';
import { NotificationTemplatesService } from './notification-templates.service';

type AdminPrincipal = Extract<Principal, { kind: 'admin' }>;
const uuid = new ParseUUIDPipe({ version: '4', exceptionFactory: () => new MonitorError('validation_failed', 'id must be a template id', { field: 'id' }) });

@ApiTags('notification-templates')
@ApiCookieAuth(COOKIE_SCHEME)
@Controller('api/v1/notification-templates')
export class NotificationTemplatesController {
  constructor(private readonly templates: NotificationTemplatesService) {}

  @Get()
  @ApiOperation({ summary: 'Message templates of channels and rules', description: 'An event kind without a template gets the default message.' })
  @ApiOkResponse({ type: NotificationTemplateListDto })
  async list(@Query() query: NotificationTemplateQueryDto): Promise<NotificationTemplateListDto> {
    const items = await this.templates.list(query);
    return { items, total: items.length };
  }

  @Put()
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({
    summary: 'Set the template of a channel or rule for an event kind (created or replaced)',
    description:
      'Mustache, logic-less: {{value}} is escaped for the channel (Telegram HTML, Discord Markdown, Slack mrkdwn, plain text); {{{value}}}, partials and ' +
      'delimiter changes are refused. The rendered text is cut to the channel\'s length limit. A rule\'s template applies to what the rule routes and comes before the channel\'s.',
  })
  @ApiErrorResponses({ 400: 'validation_failed: the template does not parse, uses an unknown value, skips escaping or writes markup Telegram refuses', 409: 'conflict: saved meanwhile' })
  @ApiOkResponse({ type: NotificationTemplateDto })
  save(@Body() body: SaveNotificationTemplateDto, @CurrentAdmin() admin: AdminPrincipal, @Req() request: FastifyRequest): Promise<NotificationTemplateDto> {
    return this.templates.save(body, admin.username, clientAddress(request));
  }

  @Post('preview')
  @HttpCode(200)
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({ summary: 'Render a template (or the default) for a channel against a recent recorded event; changes nothing' })
  @ApiErrorResponses({ 400: 'validation_failed: the template is refused (see PUT)', 404: 'not_found: no event has the given event_id' })
  @ApiOkResponse({ type: NotificationTemplatePreviewDto })
  preview(@Body() body: PreviewNotificationTemplateDto): Promise<NotificationTemplatePreviewDto> {
    return this.templates.preview(body);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({ summary: 'Reset to the default: delete the template' })
  @ApiErrorResponses({ 404: 'not_found: no such notification template' })
  @ApiNoContentResponse()
  async reset(@Param('id', uuid) id: string, @CurrentAdmin() admin: AdminPrincipal, @Req() request: FastifyRequest): Promise<void> {
    await this.templates.reset(id, admin.username, clientAddress(request));
  }
}
