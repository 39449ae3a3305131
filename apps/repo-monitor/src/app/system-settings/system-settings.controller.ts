import { Body, Controller, Get, Put, Req } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { CurrentAdmin, Principal, clientAddress } from '../admin/principal';
import { COOKIE_SCHEME, CSRF_SCHEME } from '../openapi';
import { SystemSettingsDto, UpdateSystemSettingsDto } from './dto/system-settings.dto';
import { SystemSettingsService } from './system-settings.service';

@ApiTags('system')
@ApiCookieAuth(COOKIE_SCHEME)
@Controller('api/v1/system/settings')
export class SystemSettingsController {
  constructor(private readonly settings: SystemSettingsService) {}

  @Get()
  @ApiOperation({ summary: 'General settings: time zone, digest and reports, retention, aggregation, starred user' })
  @ApiOkResponse({ type: SystemSettingsDto })
  get(): Promise<SystemSettingsDto> {
    return this.settings.current();
  }

  @Put()
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({ summary: 'Change general settings (partial); applies without restart' })
  @ApiOkResponse({ type: SystemSettingsDto })
  update(
    @Body() body: UpdateSystemSettingsDto,
    @CurrentAdmin() admin: Extract<Principal, { kind: 'admin' }>,
    @Req() request: FastifyRequest,
  ): Promise<SystemSettingsDto> {
    return this.settings.update(body, admin.username, clientAddress(request));
  }
}
