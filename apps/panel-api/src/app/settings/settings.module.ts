import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { SettingsCipher } from './settings-cipher';
import { SettingsController } from './settings.controller';
import { SettingsFreshness } from './settings-freshness.interceptor';
import { SettingsService } from './settings.service';

/** The settings, in the database; import it and inject SettingsService to read or change settings. */
@Module({
  controllers: [SettingsController],
  providers: [SettingsCipher, SettingsService, { provide: APP_INTERCEPTOR, useClass: SettingsFreshness }],
  exports: [SettingsService],
})
export class SettingsModule {}
