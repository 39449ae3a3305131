import { Module } from '@nestjs/common';
import { AiSettingsModule } from '../ai-settings/ai-settings.module';
import { DeliveriesModule } from '../deliveries/deliveries.module';
import { EventsModule } from '../events/events.module';
import { GitHubAppModule } from '../github/github-app.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { ProcessingModule } from '../processing/processing.module';
import { RepositoriesModule } from '../repositories/repositories.module';
import { SecurityAlertsModule } from '../security-alerts/security-alerts.module';
import { WorkItemsModule } from '../work-items/work-items.module';
import { WorkflowRunsModule } from '../workflow-runs/workflow-runs.module';
import { DatabaseWorkModule } from '../../database/database-work.module';
import { SettingsModule } from '../settings/settings.module';
import { SystemSettingsModule } from '../system-settings/system-settings.module';
import { AiClient } from './ai-client';
import { AiController, DigestsController } from './ai.controller';
import { AiGitHubSource, OctokitAiGitHubSource } from './ai-github-source';
import { DigestRepository } from './digest.repository';
import { DigestService } from './digest.service';
import { AiNotificationEnricher } from './notification-ai-enricher';
import { PrReviewRepository } from './pr-review.repository';
import { PrReviewService } from './pr-review.service';

/**
 * The AI features: the client over the effective settings, digests on schedule (template fallback),
 * real-time triage / diagnosis / release summaries as a notification enricher, PR review and audit,
 * and the console's connectivity test.
 */
@Module({
  imports: [
    DatabaseWorkModule,
    AiSettingsModule,
    SettingsModule,
    SystemSettingsModule,
    GitHubAppModule,
    ProcessingModule,
    DeliveriesModule,
    RepositoriesModule,
    WorkItemsModule,
    WorkflowRunsModule,
    SecurityAlertsModule,
    EventsModule,
    NotificationsModule,
  ],
  controllers: [AiController, DigestsController],
  providers: [
    AiClient,
    { provide: AiGitHubSource, useClass: OctokitAiGitHubSource },
    AiNotificationEnricher,
    PrReviewService,
    DigestService,
    DigestRepository,
    PrReviewRepository,
  ],
  exports: [AiClient, DigestService, DigestRepository, PrReviewService],
})
export class AiModule {}
