import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { SystemJobGate } from '../ops/system-job-gate';
import { SettingsService } from '../settings/settings.service';
import { KEEPALIVE_CRON, KEEPALIVE_JOB_ID, registerKeepaliveJob, unregisterKeepaliveJob } from './keepalive-schedule';
import { KeepaliveService } from './keepalive.service';

/**
 * Keeps the daily keep-alive job in the time zone of the settings, registered through SystemJobGate:
 * with several instances on one data directory only the scheduler lock holder has it.
 */
@Injectable()
export class KeepaliveScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(KeepaliveScheduler.name);
  private timeZone?: string;
  private stopListening?: () => void;

  constructor(
    private readonly registry: SchedulerRegistry,
    private readonly settings: SettingsService,
    private readonly keepalive: KeepaliveService,
    private readonly gate: SystemJobGate,
  ) {}

  onApplicationBootstrap(): void {
    this.register();
    this.stopListening = this.settings.onChange((change) => {
      if (change.global && this.settings.getGlobal().timezone !== this.timeZone) this.register();
    });
  }

  onModuleDestroy(): void {
    this.stopListening?.();
    this.gate.release(KEEPALIVE_JOB_ID);
  }

  /** Hands the job (in the current time zone) to the gate: registered only while this instance holds the scheduler lock. */
  private register(): void {
    const timeZone = this.settings.getGlobal().timezone;
    this.timeZone = timeZone;
    this.gate.manage(KEEPALIVE_JOB_ID, {
      kind: 'cron',
      schedule: KEEPALIVE_CRON,
      timeZone,
      register: () =>
        registerKeepaliveJob(this.registry, timeZone, async () => {
          try {
            await this.keepalive.runScheduled();
          } catch (error) {
            this.logger.error({ err: error }, 'Scheduled device keep-alive failed');
          }
        }),
      unregister: () => unregisterKeepaliveJob(this.registry),
    });
  }
}
