import { Injectable } from '@nestjs/common';

/** What one part of the running service says about itself on GET /api/ops/runtime-status. */
export interface RuntimeComponentStatus {
  /** `running`, `idle`, `disabled`, `stopped`, `degraded` or `error`; features pick the one that fits. */
  state: 'running' | 'idle' | 'disabled' | 'stopped' | 'degraded' | 'error';
  details?: Record<string, unknown>;
}

export type RuntimeStatusReporter = () => RuntimeComponentStatus | Promise<RuntimeComponentStatus>;

/**
 * Features (scheduler, listeners, automatic backups, memory monitor) register a reporter under a
 * name; the runtime-status endpoint asks every reporter when it is called, so the answer is live.
 */
@Injectable()
export class RuntimeStatusRegistry {
  private readonly reporters = new Map<string, RuntimeStatusReporter>();

  register(name: string, reporter: RuntimeStatusReporter): void {
    this.reporters.set(name, reporter);
  }

  unregister(name: string): void {
    this.reporters.delete(name);
  }

  names(): string[] {
    return [...this.reporters.keys()].sort();
  }

  /** A reporter that throws is shown as `error` with its message instead of failing the whole answer. */
  async collect(): Promise<Record<string, RuntimeComponentStatus>> {
    const out: Record<string, RuntimeComponentStatus> = {};
    for (const name of this.names()) {
      const reporter = this.reporters.get(name);
      if (!reporter) continue;
      try {
        out[name] = await reporter();
      } catch (error) {
        out[name] = { state: 'error', details: { message: error instanceof Error ? error.message : String(error) } };
      }
    }
    return out;
  }
}
