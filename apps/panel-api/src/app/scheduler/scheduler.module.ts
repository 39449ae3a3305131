import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { overridableProvider } from '../common/provider-overrides';
import { RunsModule } from '../runs/runs.module';
import { SettingsModule } from '../settings/settings.module';
import { SignTasksModule } from '../sign-tasks/sign-tasks.module';
import { SchedulePreviewController } from './schedule-preview.controller';
import { ScheduledJobsController } from './scheduled-jobs.controller';
import { DEFAULT_SCHEDULER_LOCK_TIMINGS, SCHEDULER_LOCK_TIMINGS, SchedulerLockService } from './scheduler-lock.service';
import { SignScheduler } from './sign-scheduler.service';

/**
 * The scheduler lock (which also gates the system jobs through SystemJobGate), the sign jobs and
 * GET /api/ops/scheduled-jobs.
 */
@Module({
  // SchedulerRegistry comes from the app's one global ScheduleModule.forRoot() (in AppModule);
  // a second forRoot would create a second registry and split the job list.
  imports: [AccountsModule, SettingsModule, SignTasksModule, RunsModule],
  controllers: [ScheduledJobsController, SchedulePreviewController],
  providers: [overridableProvider(SCHEDULER_LOCK_TIMINGS, () => DEFAULT_SCHEDULER_LOCK_TIMINGS), SchedulerLockService, SignScheduler],
  exports: [SchedulerLockService, SignScheduler],
})
export class SchedulerModule {}
