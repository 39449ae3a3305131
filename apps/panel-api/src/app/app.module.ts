import { DynamicModule, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoggerModule } from 'nestjs-pino';
import { dataSourceOptions } from '../database/data-source-options';
import { loggerParams } from '@shared/http-service';
import { PanelConfigModule } from './config/config.module';
import { PanelConfig } from './config/panel-config';
import { HealthModule } from './health/health.module';
import { MetricsModule } from './metrics/metrics.module';
import { AuthModule } from './auth/auth.module';
import { DataDirectoryModule } from './data-dir/data-directory.module';
import { LegacyModule } from './legacy/legacy.module';
import { SettingsModule } from './settings/settings.module';
import { OpsModule } from './ops/ops.module';
import { NotificationsModule } from './notifications/notifications.module';
import { BackupsModule } from './backups/backups.module';
import { ConfigTransferModule } from './config-transfer/config-transfer.module';
import { ProviderOverride, ProviderOverridesModule } from './common/provider-overrides';
import { AccountsModule } from './accounts/accounts.module';
import { AccountChatsModule } from './account-chats/account-chats.module';
import { DevicesModule } from './devices/devices.module';
import { KeepaliveModule } from './keepalive/keepalive.module';
import { SafetyModule } from './safety/safety.module';
import { TaskRecipesModule } from './task-recipes/task-recipes.module';
import { SignTasksModule } from './sign-tasks/sign-tasks.module';
import { RunsModule } from './runs/runs.module';
import { DashboardModule } from './dashboard/dashboard.module';
import { SchedulerModule } from './scheduler/scheduler.module';
import { EventsModule } from './events/events.module';
import { KeywordHitsModule } from './keyword-hits/keyword-hits.module';
import { ListenersModule } from './listeners/listeners.module';
import { MaintenanceModule } from './maintenance/maintenance.module';
import { ClusterModule } from './cluster/cluster.module';
import { SharedSecretsModule } from './shared-secrets/shared-secrets.module';

@Module({})
export class AppModule {
  static register(config: PanelConfig, options: { overrides?: readonly ProviderOverride[] } = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PanelConfigModule.register(config),
        ProviderOverridesModule.register(options.overrides ?? []),
        // The one SchedulerRegistry of the app: feature modules register their jobs in it.
        ScheduleModule.forRoot(),
        LoggerModule.forRoot(loggerParams(config.log)),
        TypeOrmModule.forRoot({ ...dataSourceOptions(config.database), retryAttempts: 5, retryDelay: 2000 }),
        HealthModule,
        MetricsModule,
        DataDirectoryModule,
        SharedSecretsModule,
        AuthModule,
        SettingsModule,
        LegacyModule,
        OpsModule,
        ClusterModule,
        NotificationsModule,
        BackupsModule,
        ConfigTransferModule,
        AccountsModule,
        DevicesModule,
        AccountChatsModule,
        KeepaliveModule,
        SafetyModule,
        TaskRecipesModule,
        SignTasksModule,
        RunsModule,
        SchedulerModule,
        EventsModule,
        KeywordHitsModule,
        ListenersModule,
        MaintenanceModule,
        DashboardModule,
      ],
    };
  }
}
