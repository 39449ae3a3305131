import { Injectable } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';

/**
 * Whether this instance may run the system jobs (automatic backup, maintenance, keep-alive). With
 * several instances on one data directory only the holder of the scheduler lock may; the lock
 * feature installs its check with `setCheck`. Until one is installed, this instance may.
 */
@Injectable()
export class SystemJobGate {
  private check: () => boolean = () => true;
  private reason = 'no scheduler lock in use';

  setCheck(check: () => boolean, reason: string): void {
    this.check = check;
    this.reason = reason;
  }

  mayRun(): boolean {
    return this.check();
  }

  describe(): string {
    return this.reason;
  }
}

/**
 * The one way system jobs get on the scheduler: an interval under `name` in Nest's SchedulerRegistry
 * (replacing an earlier one of that name), whose ticks run only while `gate` allows it.
 */
export function registerSystemInterval(
  registry: SchedulerRegistry,
  gate: SystemJobGate,
  name: string,
  intervalMs: number,
  run: () => Promise<void>,
): void {
  removeSystemInterval(registry, name);
  const timer = setInterval(() => {
    if (gate.mayRun()) void run();
  }, intervalMs);
  timer.unref();
  registry.addInterval(name, timer);
}

export function removeSystemInterval(registry: SchedulerRegistry, name: string): void {
  if (registry.doesExist('interval', name)) registry.deleteInterval(name);
}
