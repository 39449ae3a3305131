import { ApiErrorResponses } from '@shared/http-service';
import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Query, Req } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCookieAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiSecurity,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { PageQueryDto } from '../common/list-page';
import { CurrentAdmin, Principal, clientAddress } from '../admin/principal';
import { COOKIE_SCHEME, CSRF_SCHEME } from '../openapi';
import {
  ChannelTestResultDto,
  CreatedNotificationChannelDto,
  CreateNotificationChannelDto,
  NotificationChannelDto,
  NotificationChannelPageDto,
  ToggleNotificationChannelDto,
  UpdateNotificationChannelDto,
} from './dto/notification-channel.dto';
import { NotificationChannelsService } from './notification-channels.service';

type AdminPrincipal = Extract<Principal, { kind: 'admin' }>;
const uuid = new ParseUUIDPipe({ version: '4' });

@ApiTags('notification-channels')
@ApiCookieAuth(COOKIE_SCHEME)
@Controller('api/v1/notification-channels')
export class NotificationChannelsController {
  constructor(private readonly channels: NotificationChannelsService) {}

  @Get()
  @ApiOperation({ summary: 'Notification channels (secrets only as secret_set)' })
  @ApiOkResponse({ type: NotificationChannelPageDto })
  async list(@Query() query: PageQueryDto): Promise<NotificationChannelPageDto> {
    const page = query.page ?? 1;
    const perPage = query.per_page ?? 20;
    return { ...(await this.channels.list(page, perPage)), page, per_page: perPage };
  }

  @Get(':id')
  @ApiOperation({ summary: 'One notification channel' })
  @ApiOkResponse({ type: NotificationChannelDto })
  @ApiNotFoundResponse()
  get(@Param('id', uuid) id: string): Promise<NotificationChannelDto> {
    return this.channels.get(id);
  }

  @Post()
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({
    summary: 'Create a channel: telegram, http_webhook, discord, slack, teams, ntfy, bark, gotify or email',
    description: 'A webhook channel without a secret gets a generated Standard Webhooks secret (whsec_…), answered once in secret.',
  })
  @ApiCreatedResponse({ type: CreatedNotificationChannelDto })
  @ApiConflictResponse({ description: 'conflict: the name is taken' })
  @ApiServiceUnavailableResponse({ description: 'encryption_unavailable: MONITOR_ENCRYPTION_KEY is not set' })
  create(@Body() body: CreateNotificationChannelDto, @CurrentAdmin() admin: AdminPrincipal, @Req() request: FastifyRequest): Promise<CreatedNotificationChannelDto> {
    return this.channels.create(body, admin.username, clientAddress(request));
  }

  @Patch(':id')
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({ summary: 'Change a channel; fields left out stay as they are' })
  @ApiErrorResponses({ 409: 'conflict: the name is taken', 503: 'encryption_unavailable: a new secret cannot be stored without MONITOR_ENCRYPTION_KEY' })
  @ApiOkResponse({ type: NotificationChannelDto })
  @ApiNotFoundResponse()
  update(
    @Param('id', uuid) id: string,
    @Body() body: UpdateNotificationChannelDto,
    @CurrentAdmin() admin: AdminPrincipal,
    @Req() request: FastifyRequest,
  ): Promise<NotificationChannelDto> {
    return this.channels.update(id, body, admin.username, clientAddress(request));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({ summary: 'Delete a channel' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse()
  async remove(@Param('id', uuid) id: string, @CurrentAdmin() admin: AdminPrincipal, @Req() request: FastifyRequest): Promise<void> {
    await this.channels.remove(id, admin.username, clientAddress(request));
  }

  @Post(':id/toggle')
  @HttpCode(200)
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({ summary: 'Enable or disable a channel' })
  @ApiErrorResponses({ 404: 'not_found: no such notification channel' })
  @ApiOkResponse({ type: NotificationChannelDto })
  toggle(
    @Param('id', uuid) id: string,
    @Body() body: ToggleNotificationChannelDto,
    @CurrentAdmin() admin: AdminPrincipal,
    @Req() request: FastifyRequest,
  ): Promise<NotificationChannelDto> {
    return this.channels.setEnabled(id, body.enabled, admin.username, clientAddress(request));
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({
    summary: 'Replace a webhook channel\'s signing secret with a generated Standard Webhooks secret',
    description: 'The new whsec_ secret is answered once in secret and signs every delivery from now on; the old one stops working at once.',
  })
  @ApiOkResponse({ type: CreatedNotificationChannelDto })
  @ApiNotFoundResponse()
  rotateSecret(@Param('id', uuid) id: string, @CurrentAdmin() admin: AdminPrincipal, @Req() request: FastifyRequest): Promise<CreatedNotificationChannelDto> {
    return this.channels.rotateSecret(id, admin.username, clientAddress(request));
  }

  @Post(':id/test')
  @HttpCode(200)
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({ summary: 'Send one test message through the channel and report the result' })
  @ApiErrorResponses({ 404: 'not_found: no such notification channel', 409: 'conflict: the channel has no secret', 503: 'encryption_unavailable: the stored secret cannot be read with the configured master key' })
  @ApiOkResponse({ type: ChannelTestResultDto })
  test(@Param('id', uuid) id: string, @CurrentAdmin() admin: AdminPrincipal, @Req() request: FastifyRequest): Promise<ChannelTestResultDto> {
    return this.channels.test(id, admin.username, clientAddress(request));
  }
}
