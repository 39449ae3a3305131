import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountsModule } from '../accounts/accounts.module';
import { overridableProvider } from '../common/provider-overrides';
import { NotificationsModule } from '../notifications/notifications.module';
import { SettingsModule } from '../settings/settings.module';
import { SettingsService } from '../settings/settings.service';
import { SignTasksModule } from '../sign-tasks/sign-tasks.module';
import { AccountRunLock } from './account-run-lock';
import { ActionRunner } from './action-runner';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import { AI_CLIENT, OpenAiCompatibleClient } from './ai-client';
import { AiTestController } from './ai-test.controller';
import { BatchController } from './batch.controller';
import { PendingRerun } from './entities/pending-rerun.entity';
import { SignLog } from './entities/sign-log.entity';
import { RunHistoryService } from './run-history.service';
import { RunRegistry } from './run-registry';
import { DEFAULT_RUN_TIMINGS, RUN_TIMINGS } from './run-timings';
import { RunsController } from './runs.controller';
import { RunStarter } from './run-starter';
import { SentMessageDeletions } from './sent-message-deletions';
import { TaskRunner } from './task-runner.service';

/**
 * Running tasks: the action runner (actions 1-7 and 9 over the TelegramGateway and the AI port), the
 * task runner with its in-memory registry, persistent history and the sign-log event stream.
 * Keyword listeners import this module and inject ActionRunner for `continue` follow-ups.
 */
@Module({
  imports: [TypeOrmModule.forFeature([SignLog, PendingRerun]), AccountsModule, SettingsModule, SignTasksModule, NotificationsModule],
  controllers: [RunsController, BatchController, AiTestController],
  providers: [
    overridableProvider(AI_CLIENT, (settings: SettingsService, config: PanelConfig) => new OpenAiCompatibleClient(settings, config), [SettingsService, PANEL_CONFIG]),
    overridableProvider(RUN_TIMINGS, () => DEFAULT_RUN_TIMINGS),
    ActionRunner,
    RunRegistry,
    AccountRunLock,
    RunHistoryService,
    SentMessageDeletions,
    TaskRunner,
    RunStarter,
  ],
  exports: [ActionRunner, TaskRunner, RunRegistry, RunHistoryService, SentMessageDeletions, RUN_TIMINGS],
})
export class RunsModule {}
