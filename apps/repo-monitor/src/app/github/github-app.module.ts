import { Module } from '@nestjs/common';
import { GithubAppSettingsModule } from '../github-app-settings/github-app-settings.module';
import { GitHubAppCredentialSource, GitHubOctokits, SettingsGitHubAppCredentials } from './github-octokits';

/** The process's one GitHub App client (GitHubOctokits), shared by the sync and the AI features. */
@Module({
  imports: [GithubAppSettingsModule],
  providers: [{ provide: GitHubAppCredentialSource, useClass: SettingsGitHubAppCredentials }, GitHubOctokits],
  exports: [GitHubOctokits],
})
export class GitHubAppModule {}
