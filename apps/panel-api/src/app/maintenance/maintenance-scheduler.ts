import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CronJob } from 'cron';
import { RuntimeStatusRegistry } from '../ops/runtime-status.registry';
import { SystemJobGate } from '../ops/system-job-gate';
import { SettingsService } from '../settings/settings.service';
import { MaintenanceReport, SystemMaintenanceService } from './system-maintenance.service';

export const MAINTENANCE_JOB_ID = 'system-maintenance';
/** Daily at 03:00 in the configured time zone. */
export const MAINTENANCE_CRON = '0 3 * * *';

/**
 * Keeps the daily `system-maintenance` job in the time zone of the settings, registered through
 * SystemJobGate so that only the scheduler lock holder has it.
 */
@Injectable()
export class MaintenanceScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(MaintenanceScheduler.name);
  private timeZone?: string;
  private stopListening?: () => void;
  private running?: Promise<MaintenanceReport | undefined>;
  private lastReport?: MaintenanceReport;

  constructor(
    private readonly registry: SchedulerRegistry,
    private readonly settings: SettingsService,
    private readonly gate: SystemJobGate,
    private readonly maintenance: SystemMaintenanceService,
    private readonly runtimeStatus: RuntimeStatusRegistry,
  ) {}

  onApplicationBootstrap(): void {
    this.register();
    this.stopListening = this.settings.onChange((change) => {
      if (change.global && this.settings.getGlobal().timezone !== this.timeZone) this.register();
    });
    this.runtimeStatus.register('maintenance', () => ({
      state: this.running ? 'running' : this.gate.mayRun() ? 'idle' : 'disabled',
      details: { job: MAINTENANCE_JOB_ID, gate: this.gate.describe(), last_run: this.lastReport ?? null },
    }));
  }

  async onModuleDestroy(): Promise<void> {
    this.stopListening?.();
    this.gate.release(MAINTENANCE_JOB_ID);
    await this.running;
  }

  /** The job's tick (also what tests call): one maintenance pass at a time; a tick during a pass joins it. */
  tick(): Promise<MaintenanceReport | undefined> {
    this.running ??= this.maintenance
      .run()
      .then((report) => {
        this.lastReport = report;
        return report;
      })
      .catch((error: unknown) => {
        this.logger.error({ err: error }, 'System maintenance failed');
        return undefined;
      })
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  private register(): void {
    const timeZone = this.settings.getGlobal().timezone;
    this.timeZone = timeZone;
    this.gate.manage(MAINTENANCE_JOB_ID, {
      kind: 'cron',
      schedule: MAINTENANCE_CRON,
      timeZone,
      register: () => {
        if (this.registry.doesExist('cron', MAINTENANCE_JOB_ID)) this.registry.deleteCronJob(MAINTENANCE_JOB_ID);
        const job = CronJob.from({ cronTime: MAINTENANCE_CRON, timeZone, start: false, onTick: () => void this.tick() });
        this.registry.addCronJob(MAINTENANCE_JOB_ID, job);
        job.start();
      },
      unregister: () => {
        if (this.registry.doesExist('cron', MAINTENANCE_JOB_ID)) this.registry.deleteCronJob(MAINTENANCE_JOB_ID);
      },
    });
  }
}
