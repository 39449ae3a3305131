import { ApiErrorResponses } from '@shared/http-service';
import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Req } from '@nestjs/common';
import { ApiCookieAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { CurrentAdmin, Principal, clientAddress } from '../admin/principal';
import { MonitorError } from '../common/monitor-error';
import { COOKIE_SCHEME, CSRF_SCHEME } from '../openapi';
import {
  CreateNotificationRuleDto,
  ImportNotificationRulesDto,
  NotificationRuleDto,
  NotificationRuleListDto,
  NotificationRulesExportDto,
  ReorderNotificationRulesDto,
  UpdateNotificationRuleDto,
} from './dto/notification-rule.dto';
import { NotificationRulesService } from './notification-rules.service';

type AdminPrincipal = Extract<Principal, { kind: 'admin' }>;
const uuid = new ParseUUIDPipe({ version: '4', exceptionFactory: () => new MonitorError('validation_failed', 'id must be a rule id', { field: 'id' }) });

@ApiTags('notification-rules')
@ApiCookieAuth(COOKIE_SCHEME)
@Controller('api/v1/notification-rules')
export class NotificationRulesController {
  constructor(private readonly rules: NotificationRulesService) {}

  @Get()
  @ApiOperation({
    summary: 'Routing rules, in the order they are consulted',
    description: 'With no enabled rule every channel\'s kind filter decides; once one is enabled, an event goes only where rules send it.',
  })
  @ApiOkResponse({ type: NotificationRuleListDto })
  async list(): Promise<NotificationRuleListDto> {
    const items = await this.rules.list();
    return { items, total: items.length };
  }

  @Get('export')
  @ApiOperation({ summary: 'Every rule, in order, as a document POST /import takes back' })
  @ApiOkResponse({ type: NotificationRulesExportDto })
  exportRules(): Promise<NotificationRulesExportDto> {
    return this.rules.exportRules();
  }

  @Post('import')
  @HttpCode(200)
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({ summary: 'Replace every rule with the given ones, in their order (all or nothing)' })
  @ApiErrorResponses({ 400: 'validation_failed: a rule is malformed, names a channel that does not exist, or repeats a name' })
  @ApiOkResponse({ type: NotificationRuleListDto })
  async importRules(@Body() body: ImportNotificationRulesDto, @CurrentAdmin() admin: AdminPrincipal, @Req() request: FastifyRequest): Promise<NotificationRuleListDto> {
    const items = await this.rules.importRules(body, admin.username, clientAddress(request));
    return { items, total: items.length };
  }

  @Post('reorder')
  @HttpCode(200)
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({ summary: 'Put the rules in a new order (every rule id, once)' })
  @ApiErrorResponses({ 400: 'validation_failed: ids does not list every rule exactly once' })
  @ApiOkResponse({ type: NotificationRuleListDto })
  async reorder(@Body() body: ReorderNotificationRulesDto, @CurrentAdmin() admin: AdminPrincipal, @Req() request: FastifyRequest): Promise<NotificationRuleListDto> {
    const items = await this.rules.reorder(body.ids, admin.username, clientAddress(request));
    return { items, total: items.length };
  }

  @Get(':id')
  @ApiOperation({ summary: 'One rule' })
  @ApiErrorResponses({ 404: 'not_found: no such notification rule' })
  @ApiOkResponse({ type: NotificationRuleDto })
  get(@Param('id', uuid) id: string): Promise<NotificationRuleDto> {
    return this.rules.get(id);
  }

  @Post()
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({ summary: 'Add a rule at the end of the order' })
  @ApiErrorResponses({ 400: 'validation_failed: a field is malformed, a channel does not exist, or there are 100 rules already', 409: 'conflict: the name is taken' })
  @ApiCreatedResponse({ type: NotificationRuleDto })
  create(@Body() body: CreateNotificationRuleDto, @CurrentAdmin() admin: AdminPrincipal, @Req() request: FastifyRequest): Promise<NotificationRuleDto> {
    return this.rules.create(body, admin.username, clientAddress(request));
  }

  @Patch(':id')
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({ summary: 'Change a rule; fields left out stay as they are, match and route are replaced whole' })
  @ApiErrorResponses({ 404: 'not_found: no such notification rule', 409: 'conflict: the name is taken' })
  @ApiOkResponse({ type: NotificationRuleDto })
  update(
    @Param('id', uuid) id: string,
    @Body() body: UpdateNotificationRuleDto,
    @CurrentAdmin() admin: AdminPrincipal,
    @Req() request: FastifyRequest,
  ): Promise<NotificationRuleDto> {
    return this.rules.update(id, body, admin.username, clientAddress(request));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({ summary: 'Delete a rule' })
  @ApiErrorResponses({ 404: 'not_found: no such notification rule' })
  @ApiNoContentResponse()
  async remove(@Param('id', uuid) id: string, @CurrentAdmin() admin: AdminPrincipal, @Req() request: FastifyRequest): Promise<void> {
    await this.rules.remove(id, admin.username, clientAddress(request));
  }
}
