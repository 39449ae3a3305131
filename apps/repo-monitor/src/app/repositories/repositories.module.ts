import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { GitHubModule } from '../github/github.module';
import { InstallationsController } from '../installations/installations.controller';
import { NotificationsModule } from '../notifications/notifications.module';
import { DatabaseWorkModule } from '../processing/database-work.module';
import { ProcessingModule } from '../processing/processing.module';
import { SecurityAlertsController } from '../security-alerts/security-alerts.controller';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { WorkItemsController } from '../work-items/work-items.controller';
import { WorkflowRunsController } from '../workflow-runs/workflow-runs.controller';
import { RepositoriesController } from './repositories.controller';

/**
 * Everything about watching repositories: inbound webhooks, their processing, GitHub polling,
 * notifications, and the console's read API over the records.
 */
@Module({
  imports: [DatabaseWorkModule, WebhooksModule, ProcessingModule, EventsModule, NotificationsModule, GitHubModule],
  controllers: [RepositoriesController, WorkItemsController, WorkflowRunsController, SecurityAlertsController, InstallationsController],
})
export class RepositoryMonitoringModule {}
