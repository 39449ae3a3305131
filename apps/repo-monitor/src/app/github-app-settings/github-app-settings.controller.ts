import { ApiErrorResponses } from '@shared/http-service';
import { Body, Controller, Get, Put, Req } from '@nestjs/common';
import { ApiConflictResponse, ApiCookieAuth, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { CurrentAdmin, Principal, clientAddress } from '../admin/principal';
import { COOKIE_SCHEME, CSRF_SCHEME } from '../openapi';
import { GithubAppSettingsDto, UpdateGithubAppSettingsDto } from './dto/github-app-settings.dto';
import { GithubAppSettingsService } from './github-app-settings.service';

@ApiTags('github-app')
@ApiCookieAuth(COOKIE_SCHEME)
@Controller('api/v1/github/app')
export class GithubAppSettingsController {
  constructor(private readonly settings: GithubAppSettingsService) {}

  @Get()
  @ApiOperation({ summary: 'GitHub App settings (secrets only as *_set flags) and which fields the environment locks' })
  @ApiOkResponse({ type: GithubAppSettingsDto })
  get(): Promise<GithubAppSettingsDto> {
    return this.settings.describe();
  }

  @Put()
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({ summary: 'Change unlocked GitHub App settings; applies without restart', description: 'null clears a stored field.' })
  @ApiOkResponse({ type: GithubAppSettingsDto })
  @ApiConflictResponse({ description: 'github_field_locked (details.field): the field is set by environment' })
  @ApiErrorResponses({ 503: 'encryption_unavailable: the private key or webhook secret cannot be stored without MONITOR_ENCRYPTION_KEY' })
  update(
    @Body() body: UpdateGithubAppSettingsDto,
    @CurrentAdmin() admin: Extract<Principal, { kind: 'admin' }>,
    @Req() request: FastifyRequest,
  ): Promise<GithubAppSettingsDto> {
    return this.settings.update(body, admin.username, clientAddress(request));
  }
}
