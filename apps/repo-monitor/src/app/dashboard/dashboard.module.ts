import { Module } from '@nestjs/common';
import { GithubAppSettingsModule } from '../github-app-settings/github-app-settings.module';
import { SystemSettingsModule } from '../system-settings/system-settings.module';
import { DashboardController } from './dashboard.controller';
import { DashboardService } from './dashboard.service';

/** GET /api/v1/dashboard: what the console's first page shows. */
@Module({
  imports: [GithubAppSettingsModule, SystemSettingsModule],
  controllers: [DashboardController],
  providers: [DashboardService],
})
export class DashboardModule {}
