import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { SchedulerRegistry } from '@nestjs/schedule';
import { BEARER_SCHEME } from '../openapi';
import { RuntimeStatusRegistry } from '../ops/runtime-status.registry';
import { SystemJobGate } from '../ops/system-job-gate';
import { SchedulerLockService } from './scheduler-lock.service';
import { SIGN_JOB_PREFIX } from './sign-scheduler.service';

export class ScheduledJobDto {
  @ApiProperty({ example: 'sign-main-daily-checkin' }) id!: string;
  @ApiProperty({ enum: ['sign', 'system'] }) type!: string;
  @ApiProperty({ enum: ['cron', 'interval'] }) kind!: string;
  @ApiProperty({ nullable: true, type: String, example: '0 0 8 * * *' }) schedule!: string | null;
  @ApiProperty({ nullable: true, type: String }) time_zone!: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) next_run_at!: string | null;
  @ApiProperty({ description: 'False for a system job listed for information on an instance without the scheduler lock: it is not registered here' }) runs_here!: boolean;
}

export class ScheduledJobListDto {
  @ApiProperty({ type: [ScheduledJobDto] }) jobs!: ScheduledJobDto[];
  @ApiProperty() total!: number;
  @ApiProperty({ description: 'Whether this instance holds the scheduler lock (always true with APP_SCHEDULER_LOCK=0)' }) lock_held!: boolean;
}

@ApiTags('ops')
@ApiBearerAuth(BEARER_SCHEME)
@ApiUnauthorizedResponse({ description: 'Missing or invalid access token' })
@Controller('api/ops')
export class ScheduledJobsController {
  constructor(
    private readonly registry: SchedulerRegistry,
    private readonly lock: SchedulerLockService,
    private readonly gate: SystemJobGate,
    private readonly runtimeStatus: RuntimeStatusRegistry,
  ) {}

  @Get('scheduled-jobs')
  @ApiOperation({
    summary: 'Every scheduled job (sign jobs, keep-alive, maintenance, automatic backup) with its next run time',
    description:
      'Jobs are registered only on the instance that holds the scheduler lock. On another instance the system jobs appear for information with runs_here=false and no next run; sign jobs are listed by the holder only.',
  })
  @ApiOkResponse({ type: ScheduledJobListDto })
  async list(): Promise<ScheduledJobListDto> {
    const jobs: ScheduledJobDto[] = [];
    const managed = new Map(this.gate.managed().map((job) => [job.name, job]));
    for (const [id, job] of this.registry.getCronJobs()) {
      let next: string | null = null;
      try {
        next = job.isActive ? job.nextDate().toUTC().toISO() : null;
      } catch {
        next = null;
      }
      jobs.push({
        id,
        type: id.startsWith(SIGN_JOB_PREFIX) ? 'sign' : 'system',
        kind: 'cron',
        schedule: String(job.cronTime.source),
        time_zone: job.cronTime.timeZone ?? null,
        next_run_at: next,
        runs_here: true,
      });
    }
    const intervals = this.registry.getIntervals();
    if (intervals.length) {
      const components = await this.runtimeStatus.collect();
      const knownNextRuns = new Map<string, string>();
      for (const component of Object.values(components)) {
        const details = component.details ?? {};
        if (typeof details['job'] === 'string' && typeof details['next_run_at'] === 'string') knownNextRuns.set(details['job'], details['next_run_at']);
      }
      for (const id of intervals) {
        const next = managed.get(id)?.nextRunAt?.toISOString() ?? knownNextRuns.get(id) ?? null;
        jobs.push({ id, type: 'system', kind: 'interval', schedule: null, time_zone: null, next_run_at: next, runs_here: true });
      }
    }
    // System jobs the lock holder runs, shown here for information.
    for (const job of managed.values()) {
      if (job.registered) continue;
      jobs.push({ id: job.name, type: 'system', kind: job.kind, schedule: job.schedule, time_zone: job.timeZone, next_run_at: null, runs_here: false });
    }
    jobs.sort((a, b) => a.id.localeCompare(b.id));
    return { jobs, total: jobs.length, lock_held: this.lock.isHeld() };
  }
}
