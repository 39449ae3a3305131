import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CheckJobRow } from '../accounts/entities/check-job-row.entity';
import { SignLog } from '../runs/entities/sign-log.entity';
import { SettingsModule } from '../settings/settings.module';
import { MaintenanceScheduler } from './maintenance-scheduler';
import { SystemMaintenanceService } from './system-maintenance.service';

/**
 * The daily `system-maintenance` job (03:00 in the settings' time zone, scheduler lock holder only):
 * prunes old run history, sign_logs rows and finished status-check jobs. SchedulerRegistry comes
 * from the app's one global ScheduleModule.forRoot().
 */
@Module({
  imports: [TypeOrmModule.forFeature([SignLog, CheckJobRow]), SettingsModule],
  providers: [SystemMaintenanceService, MaintenanceScheduler],
  exports: [SystemMaintenanceService, MaintenanceScheduler],
})
export class MaintenanceModule {}
