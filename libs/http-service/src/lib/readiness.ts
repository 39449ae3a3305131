export type ReadinessDetail = () => unknown;

/**
 * Readiness of this instance: false until startup has finished, then true. Feature modules add
 * what /readyz should report about them (the scheduler lock, read-only state) as named details.
 */
export class ReadinessService {
  private ready = false;
  private readonly details = new Map<string, ReadinessDetail>();

  markReady(): void {
    this.ready = true;
  }

  markNotReady(): void {
    this.ready = false;
  }

  isReady(): boolean {
    return this.ready;
  }

  addDetail(name: string, detail: ReadinessDetail): void {
    this.details.set(name, detail);
  }

  describe(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, detail] of this.details) out[name] = detail();
    return out;
  }
}
