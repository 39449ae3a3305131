import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountsModule } from '../accounts/accounts.module';
import { KeywordHitsModule } from '../keyword-hits/keyword-hits.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { RunsModule } from '../runs/runs.module';
import { SettingsModule } from '../settings/settings.module';
import { SignTasksModule } from '../sign-tasks/sign-tasks.module';
import { ListenerWatermark } from './entities/listener-watermark.entity';
import { HitPushService } from './hit-push.service';
import { KeywordListenersService } from './keyword-listeners.service';
import { WatermarkStore } from './watermark-store';

/**
 * Keyword listeners of listen tasks. Their state is on GET /api/ops/runtime-status
 * (`keyword_listeners`); a configuration import restarts them through its after-import hook.
 */
@Module({
  imports: [TypeOrmModule.forFeature([ListenerWatermark]), AccountsModule, SettingsModule, SignTasksModule, RunsModule, NotificationsModule, KeywordHitsModule],
  providers: [WatermarkStore, HitPushService, KeywordListenersService],
  exports: [KeywordListenersService],
})
export class ListenersModule {}
