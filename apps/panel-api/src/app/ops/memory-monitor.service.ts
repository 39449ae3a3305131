import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { RuntimeStatusRegistry } from './runtime-status.registry';

export interface MemorySample {
  at: string;
  rss_bytes: number;
  heap_total_bytes: number;
  heap_used_bytes: number;
  external_bytes: number;
  array_buffers_bytes: number;
}

export const MEMORY_SAMPLE_INTERVAL_MS = 60_000;
export const MEMORY_SAMPLES_KEPT = 60;

/** Reads the process's memory; `read` is process.memoryUsage, which a test may replace. */
export function sampleNow(read: () => NodeJS.MemoryUsage = () => process.memoryUsage()): MemorySample {
  const usage = read();
  return {
    at: new Date().toISOString(),
    rss_bytes: usage.rss,
    heap_total_bytes: usage.heapTotal,
    heap_used_bytes: usage.heapUsed,
    external_bytes: usage.external,
    array_buffers_bytes: usage.arrayBuffers,
  };
}

/**
 * Samples process and heap memory once a minute and keeps the last hour, so a slow leak shows as
 * a trend rather than one number. The timer is unref'd: it never keeps the process alive.
 */
@Injectable()
export class MemoryMonitor implements OnModuleInit, OnModuleDestroy {
  private timer?: NodeJS.Timeout;
  private startedAt?: Date;
  private readonly samples: MemorySample[] = [];
  private peakRssBytes = 0;
  private failing = false;
  private readonly logger = new Logger(MemoryMonitor.name);

  constructor(private readonly runtimeStatus: RuntimeStatusRegistry) {}

  /**
   * One sample, or none when reading fails: `process.memoryUsage()` reads /proc and throws EMFILE
   * when the process is out of file descriptors (a connection flood), and a throw in the timer
   * would end the process. The first failure of a streak is logged, and the next success.
   */
  sample(read?: () => NodeJS.MemoryUsage): MemorySample | undefined {
    try {
      const sample = sampleNow(read);
      if (this.failing) this.logger.log('Memory sampling works again');
      this.failing = false;
      return sample;
    } catch (error) {
      if (!this.failing) this.logger.warn(`Memory sampling failed (${(error as Error).message}); skipping samples until it works again`);
      this.failing = true;
      return undefined;
    }
  }

  onModuleInit(): void {
    this.start();
    this.runtimeStatus.register('memory_monitor', () => ({
      state: this.isRunning() ? 'running' : 'stopped',
      details: { samples: this.samples.length, peak_rss_bytes: this.peakRssBytes },
    }));
  }

  onModuleDestroy(): void {
    this.stop();
  }

  start(intervalMs = MEMORY_SAMPLE_INTERVAL_MS): void {
    if (this.timer) return;
    this.startedAt = new Date();
    this.record(this.sample());
    this.timer = setInterval(() => this.record(this.sample()), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  isRunning(): boolean {
    return this.timer !== undefined;
  }

  snapshot(): {
    running: boolean;
    started_at: string | null;
    sample_interval_seconds: number;
    current: MemorySample;
    peak_rss_bytes: number;
    samples: MemorySample[];
  } {
    const current = sampleNow();
    this.peakRssBytes = Math.max(this.peakRssBytes, current.rss_bytes);
    return {
      running: this.isRunning(),
      started_at: this.startedAt?.toISOString() ?? null,
      sample_interval_seconds: MEMORY_SAMPLE_INTERVAL_MS / 1000,
      current,
      peak_rss_bytes: this.peakRssBytes,
      samples: [...this.samples],
    };
  }

  private record(sample: MemorySample | undefined): void {
    if (!sample) return;
    this.samples.push(sample);
    if (this.samples.length > MEMORY_SAMPLES_KEPT) this.samples.shift();
    this.peakRssBytes = Math.max(this.peakRssBytes, sample.rss_bytes);
  }
}
