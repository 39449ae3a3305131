import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { SystemJobGate } from '../ops/system-job-gate';
import { SettingsService } from '../settings/settings.service';
import { registerKeepaliveJob, unregisterKeepaliveJob } from './keepalive-schedule';
import { KeepaliveService } from './keepalive.service';

/** Keeps the daily keep-alive job registered in the time zone of the settings. */
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
    unregisterKeepaliveJob(this.registry);
  }

  private register(): void {
    this.timeZone = this.settings.getGlobal().timezone;
    registerKeepaliveJob(this.registry, this.timeZone, async () => {
      // With several instances on one data directory only the scheduler lock holder wakes the sessions.
      if (!this.gate.mayRun()) return;
      try {
        await this.keepalive.runScheduled();
      } catch (error) {
        this.logger.error({ err: error }, 'Scheduled device keep-alive failed');
      }
    });
  }
}
