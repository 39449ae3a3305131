import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { KeywordHit } from '../keyword-hits/entities/keyword-hit.entity';
import { SignLog } from '../runs/entities/sign-log.entity';
import { RunsModule } from '../runs/runs.module';
import { SettingsModule } from '../settings/settings.module';
import { DashboardController } from './dashboard.controller';
import { DashboardService } from './dashboard.service';

/** What the web app's dashboard and history pages read: per-day counts and runs across tasks. */
@Module({
  imports: [TypeOrmModule.forFeature([SignLog, KeywordHit]), RunsModule, SettingsModule],
  controllers: [DashboardController],
  providers: [DashboardService],
})
export class DashboardModule {}
