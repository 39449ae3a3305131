import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ReadinessService } from '@shared/http-service';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { unlinkSync } from 'node:fs';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import { DataDirectory } from '../data-dir/data-directory';
import { createFileExclusive, readTextFile, writeJsonFileAtomic } from '../data-dir/json-file-store';
import { SystemJobGate } from '../ops/system-job-gate';
import { PanelMetrics } from '../metrics/metrics.service';
import { ClusterService } from '../cluster/cluster.service';

export const SCHEDULER_LOCK_TIMINGS = Symbol('SCHEDULER_LOCK_TIMINGS');

export interface SchedulerLockTimings {
  /** How often the holder refreshes the lock and a waiting instance tries to take it. */
  heartbeatMs: number;
  /** A lock whose heartbeat is older than this belongs to a hung or dead instance and is taken over. */
  staleAfterMs: number;
}

export const DEFAULT_SCHEDULER_LOCK_TIMINGS: SchedulerLockTimings = { heartbeatMs: 10_000, staleAfterMs: 60_000 };

/** The content of `.scheduler.lock`. */
export interface SchedulerLockFile {
  instance_id: string;
  pid: number;
  hostname: string;
  acquired_at: string;
  heartbeat_at: string;
}

export type LockListener = (held: boolean) => void;

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The scheduler lock (`.scheduler.lock`, APP_SCHEDULER_LOCK=1): with several instances on one data
 * directory only the holder registers sign, keep-alive and backup jobs. The file is created
 * exclusively; the holder refreshes its heartbeat and checks the file is still its own (when it is
 * not, it lets go at once); others retry on the same beat and take over a lock whose process is gone
 * (same host, pid not alive) or whose heartbeat is stale. With APP_SCHEDULER_LOCK=0 every instance
 * schedules.
 */
@Injectable()
export class SchedulerLockService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(SchedulerLockService.name);
  readonly instanceId = randomUUID();
  private held = false;
  private acquiredAt?: string;
  private timer?: NodeJS.Timeout;
  private readonly listeners = new Set<LockListener>();
  private lastHolder?: SchedulerLockFile;

  constructor(
    @Inject(PANEL_CONFIG) private readonly config: PanelConfig,
    private readonly dataDirectory: DataDirectory,
    private readonly readiness: ReadinessService,
    private readonly gate: SystemJobGate,
    @Inject(SCHEDULER_LOCK_TIMINGS) private readonly timings: SchedulerLockTimings,
    private readonly metrics: PanelMetrics,
    private readonly cluster: ClusterService,
  ) {}

  /** The file lock is used on SQLite with APP_SCHEDULER_LOCK=1; replicas on PostgreSQL follow the cluster leader instead. */
  get enabled(): boolean {
    return this.config.scheduler.lockEnabled && !this.cluster.active;
  }

  onModuleInit(): void {
    this.dataDirectory.prepare();
    if (this.cluster.active) {
      this.gate.setCheck(() => this.cluster.isLeader(), 'jobs run only on the cluster leader (replicas on PostgreSQL)');
      this.readiness.addDetail('scheduler_lock', () => this.describe());
      this.metrics.watchSchedulerLock(this);
      this.cluster.onLeaderChange((leader) => this.setHeld(leader));
      return;
    }
    this.gate.setCheck(() => this.isHeld(), this.enabled ? 'jobs run only on the holder of .scheduler.lock' : 'scheduler lock disabled (APP_SCHEDULER_LOCK=0)');
    this.readiness.addDetail('scheduler_lock', () => this.describe());
    this.metrics.watchSchedulerLock(this);
    this.tick();
    if (this.enabled) {
      this.timer = setInterval(() => this.tick(), this.timings.heartbeatMs);
      this.timer.unref();
    }
  }

  onApplicationShutdown(): void {
    this.release();
  }

  isHeld(): boolean {
    if (this.cluster.active) return this.cluster.isLeader();
    return !this.enabled || this.held;
  }

  /** Called with the new state whenever this instance gains or loses the lock; returns the unsubscribe function. */
  onChange(listener: LockListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  describe(): Record<string, unknown> {
    if (this.cluster.active) return { enabled: false, held: this.isHeld(), instance_id: this.instanceId, holder: null, replaced_by: 'cluster leader lease (GET /api/ops/cluster)' };
    return {
      enabled: this.enabled,
      held: this.isHeld(),
      instance_id: this.instanceId,
      holder: this.enabled ? (this.held ? this.content() : this.lastHolder ?? null) : null,
    };
  }

  /** Stops heartbeats and removes the lock file when it is this instance's. */
  release(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (!this.enabled || !this.held) return;
    if (this.readLock()?.instance_id === this.instanceId) {
      try {
        unlinkSync(this.dataDirectory.schedulerLockFile);
      } catch {
        /* already gone */
      }
    }
    this.setHeld(false);
  }

  /** One heartbeat: refresh (or notice the loss of) a held lock, or try to take a free or abandoned one. */
  tick(): void {
    if (!this.enabled) {
      if (!this.held) this.setHeld(true);
      return;
    }
    try {
      if (this.held) {
        const current = this.readLock();
        if (current?.instance_id !== this.instanceId) {
          this.logger.warn(`Scheduler lock was taken by ${current ? `${current.hostname}:${current.pid}` : 'nobody (file removed)'}; unregistering jobs`);
          this.lastHolder = current;
          this.setHeld(false);
          return;
        }
        writeJsonFileAtomic(this.dataDirectory.schedulerLockFile, this.content());
        return;
      }
      this.acquiredAt = new Date().toISOString();
      if (createFileExclusive(this.dataDirectory.schedulerLockFile, `${JSON.stringify(this.content(), null, 2)}\n`)) {
        this.logger.log('Holding the scheduler lock; this instance schedules jobs');
        this.setHeld(true);
        return;
      }
      const holder = this.readLock();
      this.lastHolder = holder;
      const abandoned = this.abandonReason(holder);
      if (!abandoned) return;
      this.logger.warn(`Taking over the scheduler lock: ${abandoned}`);
      try {
        unlinkSync(this.dataDirectory.schedulerLockFile);
      } catch {
        /* another instance removed it first */
      }
      if (createFileExclusive(this.dataDirectory.schedulerLockFile, `${JSON.stringify(this.content(), null, 2)}\n`)) this.setHeld(true);
    } catch (error) {
      this.logger.error({ err: error }, 'Scheduler lock heartbeat failed');
    }
  }

  private abandonReason(holder: SchedulerLockFile | undefined): string | undefined {
    if (!holder) return 'the lock file is unreadable';
    if (holder.hostname === hostname() && !processAlive(holder.pid)) return `process ${holder.pid} is gone`;
    const age = Date.now() - Date.parse(holder.heartbeat_at);
    if (!Number.isFinite(age) || age > this.timings.staleAfterMs) return `no heartbeat from ${holder.hostname}:${holder.pid} for ${Math.round(age / 1000)} s`;
    return undefined;
  }

  private readLock(): SchedulerLockFile | undefined {
    try {
      const text = readTextFile(this.dataDirectory.schedulerLockFile);
      if (text === undefined) return undefined;
      const parsed = JSON.parse(text) as Partial<SchedulerLockFile>;
      if (typeof parsed.instance_id !== 'string' || typeof parsed.pid !== 'number' || typeof parsed.heartbeat_at !== 'string') return undefined;
      return parsed as SchedulerLockFile;
    } catch {
      return undefined;
    }
  }

  private content(): SchedulerLockFile {
    const now = new Date().toISOString();
    return { instance_id: this.instanceId, pid: process.pid, hostname: hostname(), acquired_at: this.acquiredAt ?? now, heartbeat_at: now };
  }

  private setHeld(held: boolean): void {
    if (this.held === held) return;
    this.held = held;
    // With replicas the leader lease decides; the flag only mirrors it for change detection.
    // System jobs (keep-alive, backups, maintenance) are registered only on the holder.
    this.gate.refresh();
    for (const listener of this.listeners) {
      try {
        listener(held);
      } catch (error) {
        this.logger.error({ err: error }, 'A scheduler lock listener failed');
      }
    }
  }
}
