import { Module } from '@nestjs/common';
import { DeliveriesModule } from '../deliveries/deliveries.module';
import { EventsModule } from '../events/events.module';
import { GithubAppSettingsModule } from '../github-app-settings/github-app-settings.module';
import { InstallationsModule } from '../installations/installations.module';
import { NotificationChannelsModule } from '../notification-channels/notification-channels.module';
import { OutboxModule } from '../outbox/outbox.module';
import { RepositoriesModule } from '../repositories/repositories.module';
import { SecurityAlertsModule } from '../security-alerts/security-alerts.module';
import { SystemSettingsModule } from '../system-settings/system-settings.module';
import { WorkItemsModule } from '../work-items/work-items.module';
import { WorkflowRunsModule } from '../workflow-runs/workflow-runs.module';
import { DashboardController } from './dashboard.controller';
import { DashboardService } from './dashboard.service';

/** GET /api/v1/dashboard: what the console's first page shows, asked of the records' repositories. */
@Module({
  imports: [
    DeliveriesModule,
    GithubAppSettingsModule,
    SystemSettingsModule,
    InstallationsModule,
    RepositoriesModule,
    NotificationChannelsModule,
    OutboxModule,
    WorkItemsModule,
    WorkflowRunsModule,
    SecurityAlertsModule,
    EventsModule,
  ],
  controllers: [DashboardController],
  providers: [DashboardService],
})
export class DashboardModule {}
