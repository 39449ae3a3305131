import { Body, Controller, Get, Put, Req } from '@nestjs/common';
import { ApiConflictResponse, ApiCookieAuth, ApiOkResponse, ApiOperation, ApiSecurity, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { CurrentAdmin, Principal, clientAddress } from '../admin/principal';
import { COOKIE_SCHEME, CSRF_SCHEME } from '../openapi';
import { AiSettingsService } from './ai-settings.service';
import { AiSettingsDto, UpdateAiSettingsDto } from './dto/ai-settings.dto';

@ApiTags('ai')
@ApiCookieAuth(COOKIE_SCHEME)
@Controller('api/v1/ai/config')
export class AiSettingsController {
  constructor(private readonly settings: AiSettingsService) {}

  @Get()
  @ApiOperation({ summary: 'Effective AI settings; the API key only as api_key_set' })
  @ApiOkResponse({ type: AiSettingsDto })
  get(): Promise<AiSettingsDto> {
    return this.settings.describe();
  }

  @Put()
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({ summary: 'Change unlocked AI settings; applies without restart' })
  @ApiOkResponse({ type: AiSettingsDto })
  @ApiConflictResponse({ description: 'ai_field_locked (details.field): the field is set by environment' })
  @ApiServiceUnavailableResponse({ description: 'encryption_unavailable: an API key cannot be stored without MONITOR_ENCRYPTION_KEY' })
  update(
    @Body() body: UpdateAiSettingsDto,
    @CurrentAdmin() admin: Extract<Principal, { kind: 'admin' }>,
    @Req() request: FastifyRequest,
  ): Promise<AiSettingsDto> {
    return this.settings.update(body, admin.username, clientAddress(request));
  }
}
