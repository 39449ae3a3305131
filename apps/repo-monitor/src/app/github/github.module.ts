import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { ProcessingModule } from '../processing/processing.module';
import { GitHubClient } from './github-client';
import { GithubAppSettingsModule } from '../github-app-settings/github-app-settings.module';
import { SystemSettingsModule } from '../system-settings/system-settings.module';
import { GitHubSyncService, SettingsStarredUsername, StarredUsernameSource } from './github-sync.service';
import { GitHubAppCredentialSource, OctokitGitHubClient, SettingsGitHubAppCredentials } from './octokit-github-client';
import { StarredReleasesController } from './starred-releases.controller';

@Module({
  imports: [ProcessingModule, EventsModule, NotificationsModule, GithubAppSettingsModule, SystemSettingsModule],
  controllers: [StarredReleasesController],
  providers: [
    { provide: GitHubAppCredentialSource, useClass: SettingsGitHubAppCredentials },
    { provide: GitHubClient, useClass: OctokitGitHubClient },
    { provide: StarredUsernameSource, useClass: SettingsStarredUsername },
    GitHubSyncService,
  ],
  exports: [GitHubSyncService, GitHubClient],
})
export class GitHubModule {}
