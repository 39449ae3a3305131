import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { readdir, rmdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { In, LessThan, Repository } from 'typeorm';
import { CheckJobRow } from '../accounts/entities/check-job-row.entity';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import { DataDirectory } from '../data-dir/data-directory';
import { readJsonObjectFile } from '../data-dir/json-file-store';
import { SignLog } from '../runs/entities/sign-log.entity';

/** Finished account status-check jobs (`check_jobs` rows, and an earlier version's `.signer/jobs/` files) are kept this long. */
export const CHECK_JOB_RETENTION_DAYS = 7;
const DAY_MS = 86_400_000;
const FINISHED_CHECK_JOB_STATES = new Set(['completed', 'failed', 'canceled', 'interrupted']);

export interface MaintenanceReport {
  started_at: string;
  duration_ms: number;
  history_retention_days: number;
  history_files_removed: number;
  history_folders_removed: number;
  sign_logs_removed: number;
  check_jobs_removed: number;
  /** Files that could not be removed or read, with the reason; the rest of the run goes on. */
  problems: string[];
}

/**
 * The work of the daily `system-maintenance` job: run history older than APP_HISTORY_RETENTION_DAYS
 * (flow-log files under `.signer/history/<task>/`, by the time they were written, and `sign_logs`
 * rows, by created_at) and finished status-check jobs older than a week (`check_jobs` rows, by their
 * last change, and an earlier version's job files under `.signer/jobs/`).
 * Running jobs and anything that cannot be read are left alone.
 */
@Injectable()
export class SystemMaintenanceService {
  private readonly logger = new Logger(SystemMaintenanceService.name);

  constructor(
    @Inject(PANEL_CONFIG) private readonly config: PanelConfig,
    private readonly dataDirectory: DataDirectory,
    @InjectRepository(SignLog) private readonly signLogs: Repository<SignLog>,
    @InjectRepository(CheckJobRow) private readonly checkJobs: Repository<CheckJobRow>,
  ) {}

  async run(now = new Date()): Promise<MaintenanceReport> {
    const started = performance.now();
    const retentionDays = this.config.runs.historyRetentionDays;
    const historyCutoff = new Date(now.getTime() - retentionDays * DAY_MS);
    const problems: string[] = [];
    const history = await this.pruneHistoryFiles(historyCutoff, problems);
    let signLogsRemoved = 0;
    try {
      signLogsRemoved = (await this.signLogs.delete({ createdAt: LessThan(historyCutoff) })).affected ?? 0;
    } catch (error) {
      problems.push(`sign_logs: ${error instanceof Error ? error.message : String(error)}`);
    }
    const checkJobsRemoved = await this.pruneCheckJobs(new Date(now.getTime() - CHECK_JOB_RETENTION_DAYS * DAY_MS), problems);
    const report: MaintenanceReport = {
      started_at: now.toISOString(),
      duration_ms: Math.round(performance.now() - started),
      history_retention_days: retentionDays,
      history_files_removed: history.files,
      history_folders_removed: history.folders,
      sign_logs_removed: signLogsRemoved,
      check_jobs_removed: checkJobsRemoved,
      problems,
    };
    const summary =
      `System maintenance: removed ${report.history_files_removed} history file(s) and ${report.sign_logs_removed} sign_logs row(s) older than ${retentionDays} days, ` +
      `${report.history_folders_removed} empty history folder(s), ${report.check_jobs_removed} finished status-check job(s) older than ${CHECK_JOB_RETENTION_DAYS} days`;
    if (problems.length) this.logger.warn(`${summary}; ${problems.length} problem(s): ${problems.slice(0, 5).join('; ')}`);
    else this.logger.log(summary);
    return report;
  }

  private async pruneHistoryFiles(cutoff: Date, problems: string[]): Promise<{ files: number; folders: number }> {
    let files = 0;
    let folders = 0;
    for (const task of await entries(this.dataDirectory.signerHistory)) {
      const folder = join(this.dataDirectory.signerHistory, task);
      if (!(await isDirectory(folder))) continue;
      const names = await entries(folder);
      let left = names.length;
      for (const name of names) {
        if (!name.endsWith('.json')) continue;
        const path = join(folder, name);
        try {
          if ((await stat(path)).mtime < cutoff) {
            await unlink(path);
            files += 1;
            left -= 1;
          }
        } catch (error) {
          problems.push(`${path}: ${(error as Error).message}`);
        }
      }
      if (left === 0) {
        try {
          await rmdir(folder);
          folders += 1;
        } catch (error) {
          // A run of that task may have written a new file meanwhile; the folder stays then.
          if ((error as NodeJS.ErrnoException).code !== 'ENOTEMPTY') problems.push(`${folder}: ${(error as Error).message}`);
        }
      }
    }
    return { files, folders };
  }

  private async pruneCheckJobs(cutoff: Date, problems: string[]): Promise<number> {
    let removed = 0;
    try {
      removed += (await this.checkJobs.delete({ status: In([...FINISHED_CHECK_JOB_STATES]), updatedAt: LessThan(cutoff.getTime()) })).affected ?? 0;
    } catch (error) {
      problems.push(`check_jobs: ${error instanceof Error ? error.message : String(error)}`);
    }
    const folder = join(this.dataDirectory.signer, 'jobs');
    for (const name of await entries(folder)) {
      if (!name.endsWith('.json') || name.startsWith('.')) continue;
      const path = join(folder, name);
      try {
        const job = readJsonObjectFile(path);
        if (!job || !FINISHED_CHECK_JOB_STATES.has(String(job['status']))) continue;
        const finished = Date.parse(String(job['finished_at'] ?? job['updated_at'] ?? ''));
        if (!Number.isFinite(finished) || finished >= cutoff.getTime()) continue;
        await unlink(path);
        removed += 1;
      } catch (error) {
        problems.push(`${path}: ${(error as Error).message}`);
      }
    }
    return removed;
  }
}

async function entries(folder: string): Promise<string[]> {
  try {
    return (await readdir(folder)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
