import { Module } from '@nestjs/common';
import { GithubAppSettingsController } from './github-app-settings.controller';
import { GithubAppSettingsService } from './github-app-settings.service';

/** GitHub App settings; other features inject GithubAppSettingsService.current() for effective values. */
@Module({
  controllers: [GithubAppSettingsController],
  providers: [GithubAppSettingsService],
  exports: [GithubAppSettingsService],
})
export class GithubAppSettingsModule {}
