import { DynamicModule, Module, RequestMethod } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { TypeOrmModule } from '@nestjs/typeorm';
import { loggerParams } from '@shared/http-service';
import { LoggerModule } from 'nestjs-pino';
import { dataSourceOptions } from '../database/data-source-options';
import { DatabaseWorkModule } from '../database/database-work.module';
import { MonitorConfigModule } from './config/config.module';
import { MonitorConfig } from './config/monitor-config';
import { HealthModule } from './health/health.module';
import { AdminModule } from './admin/admin.module';
import { AuditLogModule } from './admin/audit-log.module';
import { AiSettingsModule } from './ai-settings/ai-settings.module';
import { GithubAppSettingsModule } from './github-app-settings/github-app-settings.module';
import { NotificationChannelsModule } from './notification-channels/notification-channels.module';
import { OutboundModule } from './outbound/outbound.module';
import { SettingsModule } from './settings/settings.module';
import { SystemSettingsModule } from './system-settings/system-settings.module';
import { AiModule } from './ai/ai.module';
import { AgentAccessModule } from './agent-access/agent-access.module';
import { MetricsModule } from './metrics/metrics.module';
import { SystemVersionModule } from './system-version/system-version.module';
import { RetentionModule } from './retention/retention.module';
import { DashboardModule } from './dashboard/dashboard.module';
import { GithubAppManifestModule } from './github-app-settings/github-app-manifest.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { GITHUB_WEBHOOK_PATH } from './webhooks/body-parsers';
import { ProcessingModule } from './processing/processing.module';
import { GitHubModule } from './github/github.module';
import { EventsModule } from './events/events.module';
import { RepositoriesModule } from './repositories/repositories.module';
import { InstallationsModule } from './installations/installations.module';
import { WorkItemsModule } from './work-items/work-items.module';
import { WorkflowRunsModule } from './workflow-runs/workflow-runs.module';
import { SecurityAlertsModule } from './security-alerts/security-alerts.module';
import { NotificationsModule } from './notifications/notifications.module';
import { RedeliveryModule } from './redelivery/redelivery.module';

@Module({})
export class AppModule {
  static register(config: MonitorConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        MonitorConfigModule.register(config),
        // The one SchedulerRegistry of the app: feature modules register their jobs in it.
        ScheduleModule.forRoot(),
        // The webhook receiver, the hottest route, logs its request line without pino-http (create-app.ts).
        LoggerModule.forRoot(loggerParams(config.log, [{ path: GITHUB_WEBHOOK_PATH.slice(1), method: RequestMethod.POST }])),
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
        DatabaseWorkModule,
        // Watching repositories. Data flows one way, and so do the imports: webhooks (and github's
        // polling) hand deliveries to processing, processing writes the records (events,
        // repositories, installations, work items, workflow runs, security alerts), and recording an
        // event queues its notifications. architecture.spec.ts fails on an import against that flow
        // and on any cycle between folders.
        RepositoriesModule,
        WorkItemsModule,
        WorkflowRunsModule,
        SecurityAlertsModule,
        InstallationsModule,
        WebhooksModule,
        ProcessingModule,
        EventsModule,
        NotificationsModule,
        GitHubModule,
        MetricsModule,
        AgentAccessModule,
        AiModule,
        SystemVersionModule,
        RetentionModule,
        DashboardModule,
        GithubAppManifestModule,
        RedeliveryModule,
      ],
    };
  }
}
