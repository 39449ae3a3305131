import { Module } from '@nestjs/common';
import { AdminModule } from '../admin/admin.module';
import { GithubAppManifestController } from './github-app-manifest.controller';
import { GithubAppManifestService } from './github-app-manifest.service';
import { GithubAppSettingsModule } from './github-app-settings.module';
import { GithubManifestConverter, OctokitManifestConverter } from './github-manifest-converter';

/**
 * The one-click "Create GitHub App" (GitHub's App manifest flow). Its own module because the return
 * from GitHub resolves the admin session itself, and the admin module already depends on the App settings.
 */
@Module({
  imports: [AdminModule, GithubAppSettingsModule],
  controllers: [GithubAppManifestController],
  providers: [GithubAppManifestService, { provide: GithubManifestConverter, useClass: OctokitManifestConverter }],
})
export class GithubAppManifestModule {}
