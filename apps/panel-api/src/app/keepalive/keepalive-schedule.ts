import { SchedulerRegistry } from '@nestjs/schedule';
import { CronJob } from 'cron';

export const KEEPALIVE_JOB_ID = 'system-device-keepalive';
/** Daily at 03:30 in the configured time zone. */
export const KEEPALIVE_CRON = '30 3 * * *';

/**
 * Registers (or re-registers, after a time zone change) the daily keep-alive job. The one place the
 * job is created; KeepaliveScheduler calls it (through SystemJobGate on SQLite, so only the scheduler lock holder has it).
 */
export function registerKeepaliveJob(registry: SchedulerRegistry, timeZone: string, tick: () => Promise<unknown>): CronJob {
  if (registry.doesExist('cron', KEEPALIVE_JOB_ID)) registry.deleteCronJob(KEEPALIVE_JOB_ID);
  const job = CronJob.from({
    cronTime: KEEPALIVE_CRON,
    timeZone,
    start: false,
    onTick: () => {
      void tick().catch(() => undefined);
    },
  });
  registry.addCronJob(KEEPALIVE_JOB_ID, job);
  job.start();
  return job;
}

export function unregisterKeepaliveJob(registry: SchedulerRegistry): void {
  if (registry.doesExist('cron', KEEPALIVE_JOB_ID)) registry.deleteCronJob(KEEPALIVE_JOB_ID);
}
