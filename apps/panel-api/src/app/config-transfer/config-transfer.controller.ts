import { Body, Controller, Get, HttpCode, Param, Post, UseInterceptors } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { BEARER_SCHEME } from '../openapi';
import { ConfigDocumentAsText } from './config-document-as-text.interceptor';
import { ConfigTransferService, ImportOptions } from './config-transfer.service';
import { ConfigImportDto, ImportPreviewDto, ImportResultDto, SignNameParamDto } from './dto/config-transfer.dto';
import { BodyLimit, CONFIG_IMPORT_BODY_LIMITS } from '../common/request-limits';

const EXPORT_DOCUMENT = {
  type: 'object',
  description:
    '{ _meta: { format: "tg-signpulse-config-export", version: 1, … }, signs: { "task@account": {...} }, monitors: {}, settings: { global, ai, telegram } } — the reference panel\'s shape',
  additionalProperties: true,
} as const;

function optionsOf(body: ConfigImportDto): ImportOptions {
  return { overwrite: body.overwrite ?? false, selected: body.selected, defaultAccount: body.default_account };
}

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
  @UseInterceptors(ConfigDocumentAsText)
  @BodyLimit(CONFIG_IMPORT_BODY_LIMITS)
  @HttpCode(200)
  @ApiOperation({
    summary: 'What an import would create, overwrite, skip or refuse, item by item, with every field mapped, defaulted or dropped; writes nothing',
  })
  @ApiOkResponse({ type: ImportPreviewDto })
  @ApiBadRequestResponse({ description: 'config_json is not a JSON object' })
  preview(@Body() body: ConfigImportDto): Promise<ImportPreviewDto> {
    return this.transfer.preview(body.config_json, optionsOf(body));
  }

  @Post('import/all')
  @UseInterceptors(ConfigDocumentAsText)
  @BodyLimit(CONFIG_IMPORT_BODY_LIMITS)
  @HttpCode(200)
  @ApiOperation({
    summary: 'Import the selected items of a configuration document (every item without a selection), all or nothing',
    description:
      'Reads the reference panel\'s exports (signs and monitors keyed by name), tg-signer monitors and this panel\'s exports. Secret fields holding ' +
      '***MASKED***, ***, MASKED or REDACTED (or left out) keep the stored secret. Afterwards the keyword listeners restart; a listener that ' +
      'does not start is reported with ok: false. Accounts must be logged in (again): sessions are never part of the configuration.',
  })
  @ApiOkResponse({ type: ImportResultDto })
  @ApiBadRequestResponse({ description: 'Every problem found; nothing was changed' })
  importAll(@Body() body: ConfigImportDto): Promise<ImportResultDto> {
    return this.transfer.importAll(body.config_json, optionsOf(body));
  }

  @Post('import/sign')
  @UseInterceptors(ConfigDocumentAsText)
  @BodyLimit(CONFIG_IMPORT_BODY_LIMITS)
  @HttpCode(200)
  @ApiOperation({ summary: 'Import one sign task (its document, or an export holding exactly one)' })
  @ApiOkResponse({ type: ImportResultDto })
  @ApiBadRequestResponse({ description: 'Every problem found; nothing was changed' })
  importSign(@Body() body: ConfigImportDto): Promise<ImportResultDto> {
    return this.transfer.importSign(body.config_json, optionsOf(body));
  }
}
