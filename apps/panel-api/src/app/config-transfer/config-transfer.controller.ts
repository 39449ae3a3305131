import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { BEARER_SCHEME } from '../openapi';
import { ConfigTransferService } from './config-transfer.service';
import { ConfigImportDto, ImportPreviewDto, ImportResultDto, SignNameParamDto } from './dto/config-transfer.dto';

const EXPORT_DOCUMENT = {
  type: 'object',
  description: '{ _meta: { format: "tg-signpulse-config-export", version: 1, … }, signs: [...], monitors: [...], settings: { global, ai, telegram_api } }',
  additionalProperties: true,
} as const;

@ApiTags('configuration')
@ApiBearerAuth(BEARER_SCHEME)
@ApiUnauthorizedResponse({ description: 'Missing or invalid access token' })
@Controller('api/config')
export class ConfigTransferController {
  constructor(private readonly transfer: ConfigTransferService) {}

  @Get('export/all')
  @ApiOperation({ summary: 'Export tasks, monitors and global, AI and Telegram API settings; secrets masked, no sessions' })
  @ApiOkResponse({ schema: EXPORT_DOCUMENT })
  exportAll(): Promise<Record<string, unknown>> {
    return this.transfer.exportAll();
  }

  @Get('export/sign/:name')
  @ApiOperation({ summary: 'Export one sign task (secrets masked)' })
  @ApiOkResponse({ schema: EXPORT_DOCUMENT })
  @ApiNotFoundResponse({ description: 'No sign task of that name' })
  exportSign(@Param() params: SignNameParamDto): Promise<Record<string, unknown>> {
    return this.transfer.exportSign(params.name);
  }

  @Post('import-preview')
  @HttpCode(200)
  @ApiOperation({ summary: 'What an import would create, overwrite, skip or refuse; writes nothing' })
  @ApiOkResponse({ type: ImportPreviewDto })
  @ApiBadRequestResponse({ description: 'config_json is not a JSON object' })
  preview(@Body() body: ConfigImportDto): Promise<ImportPreviewDto> {
    return this.transfer.preview(body.config_json, body.overwrite ?? false);
  }

  @Post('import/all')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Import a configuration export: checked completely first, then written all or nothing',
    description:
      'Secret fields holding ***MASKED***, ***, MASKED or REDACTED keep the stored secret. Afterwards the scheduler re-syncs and ' +
      'keyword listeners restart. Accounts must be logged in (again): sessions are never part of the configuration.',
  })
  @ApiOkResponse({ type: ImportResultDto })
  @ApiBadRequestResponse({ description: 'Every problem found; nothing was changed' })
  importAll(@Body() body: ConfigImportDto): Promise<ImportResultDto> {
    return this.transfer.importAll(body.config_json, body.overwrite ?? false);
  }

  @Post('import/sign')
  @HttpCode(200)
  @ApiOperation({ summary: 'Import one sign task (its document, or an export holding exactly one)' })
  @ApiOkResponse({ type: ImportResultDto })
  @ApiBadRequestResponse({ description: 'Every problem found; nothing was changed' })
  importSign(@Body() body: ConfigImportDto): Promise<ImportResultDto> {
    return this.transfer.importSign(body.config_json, body.overwrite ?? false);
  }
}
