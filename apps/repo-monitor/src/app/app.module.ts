import { DynamicModule, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { TypeOrmModule } from '@nestjs/typeorm';
import { loggerParams } from '@shared/config';
import { LoggerModule } from 'nestjs-pino';
import { dataSourceOptions } from '../database/data-source-options';
import { MonitorConfigModule } from './config/config.module';
import { MonitorConfig } from './config/monitor-config';
import { HealthModule } from './health/health.module';
import { AdminModule } from './admin/admin.module';
import { AuditLogModule } from './admin/audit-log.module';
import { AiSettingsModule } from './ai-settings/ai-settings.module';
import { GithubAppSettingsModule } from './github-app-settings/github-app-settings.module';
import { NotificationChannelsModule } from './notification-channels/notification-channels.module';
import { OutboundModule } from './outbound/outbound.module';
import { RepositoryMonitoringModule } from './repositories/repositories.module';
import { SettingsModule } from './settings/settings.module';
import { SystemSettingsModule } from './system-settings/system-settings.module';
import { AiModule } from './ai/ai.module';
import { AgentAccessModule } from './agent-access/agent-access.module';
import { MetricsModule } from './metrics/metrics.module';
import { SystemVersionModule } from './system-version/system-version.module';
import { RetentionModule } from './retention/retention.module';
import { DashboardModule } from './dashboard/dashboard.module';
import { GithubAppManifestModule } from './github-app-settings/github-app-manifest.module';

@Module({})
export class AppModule {
  static register(config: MonitorConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        MonitorConfigModule.register(config),
        // The one SchedulerRegistry of the app: feature modules register their jobs in it.
        ScheduleModule.forRoot(),
        LoggerModule.forRoot(loggerParams(config.log)),
        TypeOrmModule.forRoot({ ...dataSourceOptions(config.database), retryAttempts: 2, retryDelay: 1000 }),
        HealthModule,
        OutboundModule,
        SettingsModule,
        AuditLogModule,
        AdminModule,
        GithubAppSettingsModule,
        NotificationChannelsModule,
        AiSettingsModule,
        SystemSettingsModule,
        RepositoryMonitoringModule,
        MetricsModule,
        AgentAccessModule,
        AiModule,
        SystemVersionModule,
        RetentionModule,
        DashboardModule,
        GithubAppManifestModule,
      ],
    };
  }
}
