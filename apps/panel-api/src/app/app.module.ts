import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoggerModule } from 'nestjs-pino';
import { dataSourceOptions } from '../database/data-source-options';
import { loggerParams } from '@shared/config';
import { PanelConfigModule } from './config/config.module';
import { PanelConfig } from './config/panel-config';
import { HealthModule } from './health/health.module';
import { AuthModule } from './auth/auth.module';
import { DataDirectoryModule } from './data-dir/data-directory.module';
import { LegacyModule } from './legacy/legacy.module';
import { SettingsModule } from './settings/settings.module';
import { OpsModule } from './ops/ops.module';

@Module({})
export class AppModule {
  static register(config: PanelConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PanelConfigModule.register(config),
        LoggerModule.forRoot(loggerParams(config.log)),
        TypeOrmModule.forRoot({ ...dataSourceOptions(config.database), retryAttempts: 5, retryDelay: 2000 }),
        HealthModule,
        DataDirectoryModule,
        AuthModule,
        SettingsModule,
        LegacyModule,
        OpsModule,
      ],
    };
  }
}
