import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { InstallationsModule } from '../installations/installations.module';
import { ProcessingModule } from '../processing/processing.module';
import { RepositoriesModule } from '../repositories/repositories.module';
import { WorkItemsModule } from '../work-items/work-items.module';
import { GitHubClient } from './github-client';
import { SystemSettingsModule } from '../system-settings/system-settings.module';
import { GitHubSyncService, SettingsStarredUsername, StarredUsernameSource } from './github-sync.service';
import { GitHubAppModule } from './github-app.module';
import { OctokitGitHubClient } from './octokit-github-client';
import { ExternalRepositoriesController } from './external-repositories.controller';
import { StarredReleaseTrackerRepository } from './starred-release-tracker.repository';
import { StarredReleasesController } from './starred-releases.controller';

@Module({
  imports: [ProcessingModule, EventsModule, NotificationsModule, GitHubAppModule, SystemSettingsModule, RepositoriesModule, InstallationsModule, WorkItemsModule],
  controllers: [ExternalRepositoriesController, StarredReleasesController],
  providers: [
    { provide: GitHubClient, useClass: OctokitGitHubClient },
    { provide: StarredUsernameSource, useClass: SettingsStarredUsername },
    GitHubSyncService,
    StarredReleaseTrackerRepository,
  ],
  exports: [GitHubSyncService, GitHubClient],
})
export class GitHubModule {}
