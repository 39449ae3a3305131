import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CronJob } from 'cron';
import { RetentionReport, RetentionService } from './retention.service';

export const RETENTION_JOB_ID = 'retention';
/** Daily at 03:30 UTC, a quiet hour for most installations. */
export const RETENTION_CRON = '30 3 * * *';

/** Registers the daily `retention` job in the app's SchedulerRegistry. */
@Injectable()
export class RetentionScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(RetentionScheduler.name);
  private running?: Promise<RetentionReport | undefined>;

  constructor(
    private readonly registry: SchedulerRegistry,
    private readonly retention: RetentionService,
  ) {}

  onApplicationBootstrap(): void {
    const job = CronJob.from({ cronTime: RETENTION_CRON, timeZone: 'UTC', start: false, onTick: () => void this.tick() });
    this.registry.addCronJob(RETENTION_JOB_ID, job);
    job.start();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.registry.doesExist('cron', RETENTION_JOB_ID)) this.registry.deleteCronJob(RETENTION_JOB_ID);
    await this.running;
  }

  /** The job's handler: one pass at a time; a tick during a pass joins it. Never throws. */
  tick(): Promise<RetentionReport | undefined> {
    this.running ??= this.retention
      .run()
      .catch((error: unknown) => {
        this.logger.error(`retention failed: ${(error as Error).message}`);
        return undefined;
      })
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }
}
