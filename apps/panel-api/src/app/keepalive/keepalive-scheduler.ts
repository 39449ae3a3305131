import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { SystemJobGate } from '../ops/system-job-gate';
import { SettingsService } from '../settings/settings.service';
import { KEEPALIVE_CRON, KEEPALIVE_JOB_ID, registerKeepaliveJob, unregisterKeepaliveJob } from './keepalive-schedule';
import { KeepaliveService } from './keepalive.service';
import { ClusterService } from '../cluster/cluster.service';

/**
 * Keeps the daily keep-alive job in the time zone of the settings. On SQLite it is registered through
 * SystemJobGate (only the scheduler lock holder has it); with replicas on PostgreSQL every replica has
 * it and wakes the accounts it owns, so an account is woken by the one replica that holds its session.
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
    private readonly cluster: ClusterService,
  ) {}

  onApplicationBootstrap(): void {
    this.register();
    this.stopListening = this.settings.onChange((change) => {
      if (change.global && this.settings.getGlobal().timezone !== this.timeZone) this.register();
    });
  }

  onModuleDestroy(): void {
    this.stopListening?.();
    if (this.cluster.active) unregisterKeepaliveJob(this.registry);
    else this.gate.release(KEEPALIVE_JOB_ID);
  }

  /** Hands the job (in the current time zone) to the gate: registered only while this instance holds the scheduler lock. */
  private register(): void {
    const timeZone = this.settings.getGlobal().timezone;
    this.timeZone = timeZone;
    const register = () =>
      registerKeepaliveJob(this.registry, timeZone, async () => {
        try {
          await this.keepalive.runScheduled();
        } catch (error) {
          this.logger.error({ err: error }, 'Scheduled device keep-alive failed');
        }
      });
    if (this.cluster.active) {
      register();
      return;
    }
    this.gate.manage(KEEPALIVE_JOB_ID, {
      kind: 'cron',
      schedule: KEEPALIVE_CRON,
      timeZone,
      register,
      unregister: () => unregisterKeepaliveJob(this.registry),
    });
  }
}
