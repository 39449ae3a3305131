import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DataDirectory } from '../data-dir/data-directory';
import { SettingsCipher } from './settings-cipher';
import { SettingsController } from './settings.controller';
import { SettingsFreshness } from './settings-freshness.interceptor';
import { SettingsService } from './settings.service';

/**
 * The settings, in the database; import it and inject SettingsService to read or change settings.
 * The service is created loaded (files of an earlier version imported, the table read), so every
 * provider that reads a setting finds them.
 */
@Module({
  controllers: [SettingsController],
  providers: [
    SettingsCipher,
    {
      provide: SettingsService,
      useFactory: async (dataDirectory: DataDirectory, cipher: SettingsCipher, dataSource: DataSource) => {
        const service = new SettingsService(dataDirectory, cipher, dataSource);
        await service.load();
        return service;
      },
      inject: [DataDirectory, SettingsCipher, getDataSourceToken()],
    },
    { provide: APP_INTERCEPTOR, useClass: SettingsFreshness },
  ],
  exports: [SettingsService],
})
export class SettingsModule {}
