import { SchedulerRegistry } from '@nestjs/schedule';
import { requestJson } from '@shared/testing';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { loadPanelConfig } from '../src/app/config/panel-config';
import { MAINTENANCE_JOB_ID, MaintenanceScheduler } from '../src/app/maintenance/maintenance-scheduler';
import { SignLog } from '../src/app/runs/entities/sign-log.entity';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';

const DAY_MS = 86_400_000;

interface JobList {
  jobs: Array<{ id: string; type: string; kind: string; schedule: string | null; time_zone: string | null; runs_here: boolean; next_run_at: string | null }>;
}

describe('system-maintenance job: prunes old run history, sign_logs rows and finished status-check jobs', () => {
  let panel: RunningPanel;
  let token: string;

  beforeAll(async () => {
    panel = await startPanel({ env: { APP_HISTORY_RETENTION_DAYS: '30' } });
    token = await loginAsAdmin(panel);
  });

  afterAll(async () => {
    await panel?.close();
  });

  const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);

  const historyFile = (task: string, ageDays: number): string => {
    const folder = join(panel.dataDir, '.signer', 'history', task);
    mkdirSync(folder, { recursive: true });
    const path = join(folder, `${randomUUID()}.json`);
    writeFileSync(path, JSON.stringify({ task_name: task, flow_log: [] }));
    const at = daysAgo(ageDays);
    utimesSync(path, at, at);
    return path;
  };

  const checkJob = (status: string, finishedDaysAgo: number): string => {
    const folder = join(panel.dataDir, '.signer', 'jobs');
    mkdirSync(folder, { recursive: true });
    const jobId = randomUUID();
    const at = daysAgo(finishedDaysAgo).toISOString();
    const path = join(folder, `${jobId}.json`);
    writeFileSync(
      path,
      JSON.stringify({ job_id: jobId, status, account_names: [], created_at: at, updated_at: at, finished_at: status === 'running' ? null : at }),
    );
    return path;
  };

  it('is registered daily at 03:00 in the configured time zone', async () => {
    const settings = await requestJson(panel.url, '/api/config/settings', { method: 'PUT', token, body: { timezone: 'Asia/Shanghai' } });
    expect(settings.status).toBeLessThan(300);
    const list = await requestJson<JobList>(panel.url, '/api/ops/scheduled-jobs', { token });
    const job = list.body.jobs.find((entry) => entry.id === MAINTENANCE_JOB_ID);
    expect(job).toMatchObject({ type: 'system', kind: 'cron', schedule: '0 3 * * *', time_zone: 'Asia/Shanghai', runs_here: true });
    // 03:00 in Shanghai (UTC+8) is 19:00 UTC.
    expect(new Date(job?.next_run_at ?? '').getUTCHours()).toBe(19);
    expect(new Date(job?.next_run_at ?? '').getUTCMinutes()).toBe(0);
  });

  it('removes only what is older than APP_HISTORY_RETENTION_DAYS (files and rows) and finished check jobs older than a week', async () => {
    const oldOnly = historyFile('gone-task', 40);
    const oldMixed = historyFile('kept-task', 45);
    const recentMixed = historyFile('kept-task', 20);

    const logs = panel.app.get(DataSource).getRepository(SignLog);
    const row = (runId: string, createdAt: Date) =>
      logs.create({ runId, taskName: 'kept-task', accountName: 'alice', success: true, state: 'finished', failureCategory: 'none', message: 'ok', trigger: 'schedule', attempts: 1, createdAt });
    await logs.save([row(randomUUID(), daysAgo(31)), row(randomUUID(), daysAgo(400)), row(randomUUID(), daysAgo(29)), row(randomUUID(), new Date())]);

    const oldCompleted = checkJob('completed', 8);
    const oldFailed = checkJob('failed', 30);
    const oldCanceled = checkJob('canceled', 9);
    const recentCompleted = checkJob('completed', 2);
    const stillRunning = checkJob('running', 30);
    const corrupt = join(panel.dataDir, '.signer', 'jobs', `${randomUUID()}.json`);
    writeFileSync(corrupt, '{ not json');

    // The job's own handler, as the cron tick calls it; tick() joins the pass the tick started.
    const job = panel.app.get(SchedulerRegistry).getCronJob(MAINTENANCE_JOB_ID);
    job.fireOnTick();
    const report = await panel.app.get(MaintenanceScheduler).tick();

    expect(report).toMatchObject({
      history_retention_days: 30,
      history_files_removed: 2,
      history_folders_removed: 1,
      sign_logs_removed: 2,
      check_jobs_removed: 3,
    });
    expect(report?.problems).toEqual([expect.stringContaining(corrupt)]);
    expect(existsSync(oldOnly)).toBe(false);
    expect(existsSync(join(panel.dataDir, '.signer', 'history', 'gone-task'))).toBe(false);
    expect(existsSync(oldMixed)).toBe(false);
    expect(existsSync(recentMixed)).toBe(true);
    expect(await logs.count()).toBe(2);
    expect((await logs.find()).every((entry) => entry.createdAt.getTime() > daysAgo(30).getTime())).toBe(true);
    for (const removed of [oldCompleted, oldFailed, oldCanceled]) expect(existsSync(removed)).toBe(false);
    for (const kept of [recentCompleted, stillRunning, corrupt]) expect(existsSync(kept)).toBe(true);

    // A second pass finds nothing more.
    expect(await panel.app.get(MaintenanceScheduler).tick()).toMatchObject({ history_files_removed: 0, sign_logs_removed: 0, check_jobs_removed: 0 });
    const status = await requestJson<{ components?: Record<string, { details?: { last_run?: unknown } }> } & Record<string, unknown>>(panel.url, '/api/ops/runtime-status', { token });
    expect(JSON.stringify(status.body)).toContain('"history_retention_days":30');
  });

  it('refuses an APP_HISTORY_RETENTION_DAYS outside 1..3650', () => {
    for (const value of ['0', '3651', 'ninety']) {
      expect(() => loadPanelConfig({ APP_DATA_DIR: panel.dataDir, ADMIN_PASSWORD: 'correct horse battery', APP_HISTORY_RETENTION_DAYS: value })).toThrow(/APP_HISTORY_RETENTION_DAYS/);
    }
    expect(loadPanelConfig({ APP_DATA_DIR: panel.dataDir, ADMIN_PASSWORD: 'correct horse battery' }).runs.historyRetentionDays).toBe(90);
  });
});
