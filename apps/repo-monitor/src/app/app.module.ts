import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { loggerParams } from '@shared/config';
import { LoggerModule } from 'nestjs-pino';
import { dataSourceOptions } from '../database/data-source-options';
import { MonitorConfigModule } from './config/config.module';
import { MonitorConfig } from './config/monitor-config';
import { HealthModule } from './health/health.module';

@Module({})
export class AppModule {
  static register(config: MonitorConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        MonitorConfigModule.register(config),
        LoggerModule.forRoot(loggerParams(config.log)),
        TypeOrmModule.forRoot({ ...dataSourceOptions(config.database), retryAttempts: 2, retryDelay: 1000 }),
        HealthModule,
      ],
    };
  }
}
