import { Injectable, Logger } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';

/** A system job that is on the scheduler only while this instance may run system jobs. */
export interface ManagedSystemJob {
  kind: 'cron' | 'interval';
  /** The cron expression, or null for intervals. */
  schedule: string | null;
  timeZone: string | null;
  /** Interval jobs: the period, so the next run can be told. */
  intervalMs?: number;
  /** Puts the job on the SchedulerRegistry (replacing one of that name). */
  register(): void;
  /** Takes it off again; must not fail when it is not there. */
  unregister(): void;
}

/** A managed system job as GET /api/ops/scheduled-jobs shows it. */
export interface ManagedSystemJobView {
  name: string;
  kind: 'cron' | 'interval';
  schedule: string | null;
  timeZone: string | null;
  registered: boolean;
  /** Intervals registered here: when the next tick is due. */
  nextRunAt: Date | null;
}

/**
 * Whether this instance may run the system jobs (automatic backup, maintenance, keep-alive). With
 * several instances on one data directory only the holder of the scheduler lock may; the lock
 * feature installs its check with `setCheck` and calls `refresh` whenever the lock changes hands.
 * Until a check is installed, this instance may.
 *
 * System jobs are put on the scheduler through `manage`: the gate registers them while this instance
 * may run them and removes them when it may not, so a non-holder has no system job at all.
 */
@Injectable()
export class SystemJobGate {
  private readonly logger = new Logger(SystemJobGate.name);

  /** Logs a background interval's failure (the run goes on at its next tick). */
  reportIntervalFailure(name: string, error: unknown): void {
    this.logger.error({ err: error }, `The system job ${name} failed`);
  }
  private check: () => boolean = () => true;
  private reason = 'no scheduler lock in use';
  private readonly jobs = new Map<string, { job: ManagedSystemJob; registeredAt?: number }>();

  setCheck(check: () => boolean, reason: string): void {
    this.check = check;
    this.reason = reason;
    this.refresh();
  }

  mayRun(): boolean {
    return this.check();
  }

  describe(): string {
    return this.reason;
  }

  /** Takes over a system job under `name` (replacing an earlier one): registered now if this instance may run it. */
  manage(name: string, job: ManagedSystemJob): void {
    this.release(name);
    this.jobs.set(name, { job });
    if (this.mayRun()) this.registerJob(name);
  }

  /** Unregisters the job and forgets it. */
  release(name: string): void {
    const entry = this.jobs.get(name);
    if (!entry) return;
    entry.job.unregister();
    this.jobs.delete(name);
  }

  /** Registers or removes every managed job after the check's answer may have changed (the lock changed hands). */
  refresh(): void {
    const allowed = this.mayRun();
    for (const [name, entry] of this.jobs) {
      if (allowed && entry.registeredAt === undefined) this.registerJob(name);
      if (!allowed && entry.registeredAt !== undefined) {
        entry.job.unregister();
        entry.registeredAt = undefined;
      }
    }
  }

  managed(): ManagedSystemJobView[] {
    const now = Date.now();
    return [...this.jobs].map(([name, { job, registeredAt }]) => {
      let nextRunAt: Date | null = null;
      if (registeredAt !== undefined && job.kind === 'interval' && job.intervalMs) {
        const periods = Math.max(1, Math.ceil((now - registeredAt) / job.intervalMs));
        nextRunAt = new Date(registeredAt + periods * job.intervalMs);
      }
      return { name, kind: job.kind, schedule: job.schedule, timeZone: job.timeZone, registered: registeredAt !== undefined, nextRunAt };
    });
  }

  private registerJob(name: string): void {
    const entry = this.jobs.get(name);
    if (!entry) return;
    try {
      entry.job.register();
      entry.registeredAt = Date.now();
    } catch (error) {
      this.logger.error({ err: error }, `Could not register the system job ${name}`);
    }
  }
}

/**
 * The one way interval system jobs get on the scheduler: an interval under `name` in Nest's
 * SchedulerRegistry (replacing an earlier one of that name) that exists only while `gate` allows
 * system jobs here; the gate adds and removes it as the scheduler lock changes hands.
 */
export function registerSystemInterval(
  registry: SchedulerRegistry,
  gate: SystemJobGate,
  name: string,
  intervalMs: number,
  run: () => Promise<void>,
): void {
  gate.manage(name, {
    kind: 'interval',
    schedule: null,
    timeZone: null,
    intervalMs,
    register: () => {
      deleteInterval(registry, name);
      // A failing run (or gate check) is logged; it must never become an unhandled rejection that ends the process.
      const fail = (error: unknown) => gate.reportIntervalFailure(name, error);
      const timer = setInterval(() => {
        try {
          if (gate.mayRun()) run().catch(fail);
        } catch (error) {
          fail(error);
        }
      }, intervalMs);
      timer.unref();
      registry.addInterval(name, timer);
    },
    unregister: () => deleteInterval(registry, name),
  });
}

/** Removes the interval for good (also from the gate, so it does not come back when the lock changes hands). */
export function removeSystemInterval(registry: SchedulerRegistry, name: string, gate: SystemJobGate): void {
  gate.release(name);
  deleteInterval(registry, name);
}

function deleteInterval(registry: SchedulerRegistry, name: string): void {
  if (registry.doesExist('interval', name)) registry.deleteInterval(name);
}
