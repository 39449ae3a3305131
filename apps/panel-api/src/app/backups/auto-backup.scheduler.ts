import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { RuntimeStatusRegistry } from '../ops/runtime-status.registry';
import { registerSystemInterval, removeSystemInterval, SystemJobGate } from '../ops/system-job-gate';
import { SettingsService } from '../settings/settings.service';
import { BackupArchiveService } from './backup-archive.service';
import { BackupService } from './backup.service';
import { BackupKeyService } from './backup-key.service';
import { JobClaims } from '../cluster/job-claims';

export const AUTO_BACKUP_JOB = 'system-auto-backup';

/**
 * Keeps the `system-auto-backup` interval in step with the settings: registered while
 * auto_backup_enabled is on, re-registered when the interval changes, removed when switched off.
 */
@Injectable()
export class AutoBackupScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(AutoBackupScheduler.name);
  private intervalHours?: number;
  private nextRunAt?: Date;
  private unsubscribe?: () => void;

  constructor(
    private readonly registry: SchedulerRegistry,
    private readonly gate: SystemJobGate,
    private readonly settings: SettingsService,
    private readonly backups: BackupService,
    private readonly archives: BackupArchiveService,
    private readonly runtimeStatus: RuntimeStatusRegistry,
    private readonly keys: BackupKeyService,
    private readonly claims: JobClaims,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.archives.removeLeftoverWorkFiles();
    // Replicas: the shared backup key exists (a data directory's .backup_key imported) from the first start on.
    if (this.keys.inDatabase) {
      await this.keys.key().catch((error: unknown) => this.logger.warn(`The shared backup key could not be read or created: ${error instanceof Error ? error.message : String(error)}`));
    }
    await this.backups.reconcileLocalIndex().catch((error: unknown) => this.logger.warn(`The index of local backups could not be updated: ${error instanceof Error ? error.message : String(error)}`));
    this.sync();
    this.unsubscribe = this.settings.onChange((change) => {
      if (change.global) this.sync();
    });
    this.runtimeStatus.register('auto_backup', () => {
      const last = this.backups.lastAutomaticRun();
      return {
        state: this.intervalHours === undefined ? 'disabled' : this.gate.mayRun() ? 'running' : 'idle',
        details: {
          job: AUTO_BACKUP_JOB,
          interval_hours: this.intervalHours ?? null,
          next_run_at: this.nextRunAt?.toISOString() ?? null,
          gate: this.gate.describe(),
          last_run: last ?? null,
        },
      };
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
    removeSystemInterval(this.registry, AUTO_BACKUP_JOB, this.gate);
  }

  /** When the next automatic backup is due; undefined while automatic backups are off. */
  nextRun(): Date | undefined {
    return this.nextRunAt;
  }

  sync(): void {
    const settings = this.settings.getGlobal();
    const wanted = settings.auto_backup_enabled ? settings.auto_backup_interval_hours : undefined;
    if (wanted === this.intervalHours && (wanted === undefined || this.registry.doesExist('interval', AUTO_BACKUP_JOB))) return;
    this.intervalHours = wanted;
    if (wanted === undefined) {
      removeSystemInterval(this.registry, AUTO_BACKUP_JOB, this.gate);
      this.nextRunAt = undefined;
      this.logger.log('Automatic backups are off');
      return;
    }
    const intervalMs = wanted * 3600 * 1000;
    this.nextRunAt = new Date(Date.now() + intervalMs);
    registerSystemInterval(this.registry, this.gate, AUTO_BACKUP_JOB, intervalMs, async () => {
      this.nextRunAt = new Date(Date.now() + intervalMs);
      try {
        // Replicas: the leader runs it, and the run of each interval is claimed in the database, so a
        // leader that took over within an interval another leader already backed up does not repeat it.
        const slot = Math.floor(Date.now() / intervalMs) * intervalMs;
        if (!(await this.claims.claimForLeader(AUTO_BACKUP_JOB, slot))) {
          this.logger.log(`Automatic backup of the interval from ${new Date(slot).toISOString()} is done or claimed by another replica`);
          return;
        }
        try {
          await this.backups.runAutomaticBackup();
        } finally {
          await this.claims.finish({ job: AUTO_BACKUP_JOB, dueAt: slot }, 'done');
        }
      } catch (error) {
        this.logger.error({ err: error }, 'Automatic backup crashed');
      }
    });
    this.logger.log(`Automatic backups every ${wanted} h`);
  }
}
