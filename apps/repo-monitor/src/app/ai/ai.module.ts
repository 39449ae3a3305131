import { Module } from '@nestjs/common';
import { AiSettingsModule } from '../ai-settings/ai-settings.module';
import { EventsModule } from '../events/events.module';
import { GithubAppSettingsModule } from '../github-app-settings/github-app-settings.module';
import { GitHubAppCredentialSource, SettingsGitHubAppCredentials } from '../github/octokit-github-client';
import { NotificationsModule } from '../notifications/notifications.module';
import { DatabaseWorkModule } from '../processing/database-work.module';
import { SettingsModule } from '../settings/settings.module';
import { SystemSettingsModule } from '../system-settings/system-settings.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { AiClient } from './ai-client';
import { AiController, DigestsController } from './ai.controller';
import { AiGitHubSource, OctokitAiGitHubSource } from './ai-github-source';
import { DigestService } from './digest.service';
import { AiNotificationEnricher } from './notification-ai-enricher';
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
    GithubAppSettingsModule,
    WebhooksModule,
    EventsModule,
    NotificationsModule,
  ],
  controllers: [AiController, DigestsController],
  providers: [
    AiClient,
    { provide: GitHubAppCredentialSource, useClass: SettingsGitHubAppCredentials },
    { provide: AiGitHubSource, useClass: OctokitAiGitHubSource },
    AiNotificationEnricher,
    PrReviewService,
    DigestService,
  ],
  exports: [AiClient, DigestService, PrReviewService],
})
export class AiModule {}
