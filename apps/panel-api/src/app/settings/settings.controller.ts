import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { BEARER_SCHEME } from '../openapi';
import { settingsView, SettingsViewDto } from './dto/settings-view.dto';
import { toSettingsPatch, UpdateSettingsDto } from './dto/update-settings.dto';
import { InvalidSettingsError, SettingsService } from './settings.service';
import { ValidationFailed } from '../common/panel-error';

@ApiTags('settings')
@ApiBearerAuth(BEARER_SCHEME)
@ApiUnauthorizedResponse({ description: 'Missing or invalid access token' })
@Controller('api/config/settings')
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  @Get()
  @ApiOperation({ summary: 'Read the global, AI and Telegram API settings; secrets only as *_set flags' })
  @ApiOkResponse({ type: SettingsViewDto })
  read(): SettingsViewDto {
    return this.view();
  }

  @Put()
  @ApiOperation({
    summary: 'Change some settings',
    description:
      'Partial update. Absent fields stay as they are. For secrets an empty string keeps the stored value and null clears it. ' +
      'Unknown or out-of-range fields answer 400 and change nothing. Changing webdav_url or ai_base_url to another server ' +
        '(scheme, host or port) while a password or API key is stored needs that secret again (or null to clear it): a stored ' +
        'secret is never sent to a new destination.',
  })
  @ApiOkResponse({ type: SettingsViewDto, description: 'The settings after the change' })
  @ApiBadRequestResponse({ description: 'Unknown or invalid field, or a URL moved to another server without its secret; nothing was changed' })
  async update(@Body() body: UpdateSettingsDto): Promise<SettingsViewDto> {
    try {
      await this.settings.update(toSettingsPatch(body));
    } catch (error) {
      if (error instanceof InvalidSettingsError) throw new ValidationFailed(error.problems.join('; '), error.fields);
      throw error;
    }
    return this.view();
  }

  private view(): SettingsViewDto {
    return settingsView(this.settings.getGlobal(), this.settings.getAi(), this.settings.getTelegramApi());
  }
}
