import { SchedulerRegistry } from '@nestjs/schedule';
import { requestJson, testDatabaseDriver } from '@shared/testing';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { SCHEDULER_LOCK_TIMINGS, SchedulerLockTimings } from '../src/app/scheduler/scheduler-lock.service';
import { TELEGRAM_GATEWAY } from '../src/app/telegram/telegram-gateway';
import { loginAsAdmin, RunningPanel, startPanel, StartOptions } from './harness';
import { TelegramSimulator } from './telegram-simulator';

const LOCK_TIMINGS: SchedulerLockTimings = { heartbeatMs: 150, staleAfterMs: 2_000 };

interface JobList {
  jobs: Array<{ id: string; type: string; kind: string; runs_here: boolean; next_run_at: string | null }>;
  lock_held: boolean;
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// On PostgreSQL the replicas elect a leader through a lease in the database instead of this file
// (cluster-leases.e2e-spec.ts proves it); the file lock is what one data directory on SQLite uses.
const describeFileLock = testDatabaseDriver() === 'postgres' ? describe.skip : describe;

describeFileLock('scheduler lock: two instances on one data directory', () => {
  const telegram = new TelegramSimulator();
  const user = telegram.createUser({ phone: '+31 600 000 201' });
  const instances: Array<RunningPanel & { databaseUrl?: string }> = [];

  const start = async (options: Omit<StartOptions, 'overrides'> = {}) => {
    const panel = await startPanel({
      ...options,
      env: { MSGR_SESSION_MODE: 'string', ...(options.env ?? {}) },
      overrides: [
        { provide: TELEGRAM_GATEWAY, useValue: telegram },
        { provide: SCHEDULER_LOCK_TIMINGS, useValue: LOCK_TIMINGS },
      ],
    });
    instances.push(panel);
    return panel;
  };

  const jobs = async (panel: RunningPanel, token: string) => (await requestJson<JobList>(panel.url, '/api/ops/scheduled-jobs', { token })).body;
  const lockOf = async (panel: RunningPanel) =>
    (await requestJson<{ scheduler_lock: { enabled: boolean; held: boolean } }>(panel.url, '/readyz')).body.scheduler_lock;

  afterAll(async () => {
    for (const panel of instances.reverse()) await panel.stop();
    await instances.at(-1)?.close();
  });

  /** The jobs on this instance's SchedulerRegistry (what actually fires here). */
  const registered = (panel: RunningPanel) => {
    const registry = panel.app.get(SchedulerRegistry);
    return [...registry.getCronJobs().keys(), ...registry.getIntervals()].sort();
  };
  const SYSTEM_JOBS = ['system-auto-backup', 'system-device-keepalive', 'system-maintenance'];

  it('lets exactly one instance schedule; the other takes over when the holder stops or dies', async () => {
    const first = await start();
    const firstToken = await loginAsAdmin(first);
    // Settings are read at start: switch automatic backups on before the second instance starts.
    const settings = await requestJson(first.url, '/api/config/settings', { method: 'PUT', token: firstToken, body: { auto_backup_enabled: true, auto_backup_interval_hours: 6 } });
    expect(settings.status).toBe(200);
    const second = await start({ reuse: { dataDir: first.dataDir, databaseUrl: first.databaseUrl } });
    const secondToken = await loginAsAdmin(second);

    expect(await lockOf(first)).toMatchObject({ enabled: true, held: true });
    expect(await lockOf(second)).toMatchObject({ enabled: true, held: false });

    const imported = await requestJson(first.url, '/api/accounts/import-session', {
      method: 'POST',
      token: firstToken,
      body: { account_name: 'alice', session_string: telegram.issueSession(user.id) },
    });
    expect(imported.status).toBe(201);
    const created = await requestJson(first.url, '/api/sign-tasks', {
      method: 'POST',
      token: firstToken,
      body: { name: 'locked', account_name: 'alice', sign_at: '07:45', execution_mode: 'fixed', chats: [{ chat_id: '@bot_here', actions: [{ action: 1, text: 'hi' }] }] },
    });
    expect(created.status).toBe(201);

    const onFirst = await jobs(first, firstToken);
    const onSecond = await jobs(second, secondToken);
    expect(onFirst.lock_held).toBe(true);
    expect(onFirst.jobs.filter((job) => job.type === 'sign').map((job) => job.id)).toEqual(['sign-alice-locked']);
    expect(onFirst.jobs.filter((job) => job.type === 'system').every((job) => job.runs_here)).toBe(true);
    expect(onSecond.lock_held).toBe(false);
    expect(onSecond.jobs.filter((job) => job.type === 'sign')).toEqual([]);
    expect(onSecond.jobs.filter((job) => job.type === 'system').every((job) => !job.runs_here)).toBe(true);

    // Only the holder registers system jobs; the other lists them for information and has nothing on its scheduler.
    expect(registered(first)).toEqual([...SYSTEM_JOBS, 'sign-alice-locked'].sort());
    expect(registered(second)).toEqual([]);
    expect(onFirst.jobs.filter((job) => job.type === 'system').map((job) => [job.id, job.runs_here, job.next_run_at !== null])).toEqual(SYSTEM_JOBS.map((id) => [id, true, true]));
    expect(onSecond.jobs.map((job) => [job.id, job.runs_here, job.next_run_at])).toEqual(SYSTEM_JOBS.map((id) => [id, false, null]));

    // Both instances serve the same tasks: one created through the non-holder is scheduled by the holder.
    const names = async (panel: RunningPanel, token: string) =>
      (await requestJson<{ tasks: Array<{ name: string; enabled: boolean }> }>(panel.url, '/api/sign-tasks', { token })).body.tasks.map((task) => `${task.name}:${task.enabled}`);
    const viaSecond = await requestJson(second.url, '/api/sign-tasks', {
      method: 'POST',
      token: secondToken,
      body: { name: 'from-second', account_name: 'alice', sign_at: '08:15', execution_mode: 'fixed', chats: [{ chat_id: '@bot_here', actions: [{ action: 1, text: 'hi' }] }] },
    });
    expect(viaSecond.status).toBe(201);
    expect(await names(first, firstToken)).toEqual(['from-second:true', 'locked:true']);
    expect(await names(second, secondToken)).toEqual(['from-second:true', 'locked:true']);
    await eventually(async () => registered(first).includes('sign-alice-from-second'));
    expect(registered(second)).toEqual([]);
    // Disabled through the non-holder: the holder drops the job; deleted through the holder: gone on the other too.
    expect((await requestJson(second.url, '/api/sign-tasks/from-second/disable', { method: 'POST', token: secondToken })).status).toBeLessThan(300);
    await eventually(async () => !registered(first).includes('sign-alice-from-second'));
    expect(await names(first, firstToken)).toEqual(['from-second:false', 'locked:true']);
    expect((await requestJson(first.url, '/api/sign-tasks/from-second', { method: 'DELETE', token: firstToken })).status).toBeLessThan(300);
    expect((await requestJson(second.url, '/api/sign-tasks/from-second', { token: secondToken })).status).toBe(404);
    expect(await names(second, secondToken)).toEqual(['locked:true']);

    // A clean stop removes the lock; the second instance takes it on its next heartbeat and loads the task written by the first.
    await first.stop();
    await eventually(async () => (await lockOf(second)).held);
    await eventually(async () => (await jobs(second, secondToken)).jobs.some((job) => job.id === 'sign-alice-locked'));
    expect(registered(second)).toEqual([...SYSTEM_JOBS, 'sign-alice-locked'].sort());
    expect((await jobs(second, secondToken)).jobs.every((job) => job.runs_here)).toBe(true);
    const lock = JSON.parse(readFileSync(join(first.dataDir, '.scheduler.lock'), 'utf8'));
    expect(lock).toMatchObject({ pid: process.pid, hostname: hostname() });

    // A lock left by a process that is gone is taken over at start.
    await second.stop();
    expect(existsSync(join(first.dataDir, '.scheduler.lock'))).toBe(false);
    const exited = spawnSync(process.execPath, ['-e', 'process.exit(0)']);
    const now = new Date().toISOString();
    writeFileSync(
      join(first.dataDir, '.scheduler.lock'),
      JSON.stringify({ instance_id: 'dead-instance', pid: exited.pid, hostname: hostname(), acquired_at: now, heartbeat_at: now }),
    );
    const third = await start({ reuse: { dataDir: first.dataDir, databaseUrl: first.databaseUrl } });
    expect(await lockOf(third)).toMatchObject({ held: true });
    const thirdToken = await loginAsAdmin(third);
    expect((await jobs(third, thirdToken)).jobs.map((job) => job.id)).toContain('sign-alice-locked');

    // A live process elsewhere whose heartbeat stopped (a hung host) loses the lock after staleAfterMs.
    await third.stop();
    // The other host beats until the fourth instance has started and seen it (a start on a busy
    // machine can take longer than staleAfterMs), then stops.
    const otherHostBeat = () =>
      writeFileSync(
        join(first.dataDir, '.scheduler.lock'),
        JSON.stringify({ instance_id: 'other-host', pid: 1, hostname: 'another-host', acquired_at: now, heartbeat_at: new Date().toISOString() }),
      );
    otherHostBeat();
    const heartbeat = setInterval(otherHostBeat, LOCK_TIMINGS.heartbeatMs);
    let fourth: RunningPanel;
    try {
      fourth = await start({ reuse: { dataDir: first.dataDir, databaseUrl: first.databaseUrl } });
      expect(await lockOf(fourth)).toMatchObject({ held: false });
    } finally {
      clearInterval(heartbeat);
    }
    await eventually(async () => (await lockOf(fourth)).held, 6_000);
    expect(registered(fourth)).toEqual([...SYSTEM_JOBS, 'sign-alice-locked'].sort());

    // A holder that finds the lock file taken by another instance lets go and unregisters every job at once.
    writeFileSync(
      join(first.dataDir, '.scheduler.lock'),
      JSON.stringify({ instance_id: 'usurper', pid: 1, hostname: 'another-host', acquired_at: now, heartbeat_at: new Date().toISOString() }),
    );
    await eventually(async () => !(await lockOf(fourth)).held);
    expect(registered(fourth)).toEqual([]);
  });

  it('with APP_SCHEDULER_LOCK=0 every instance schedules and no lock file is written', async () => {
    const free = await start({ env: { APP_SCHEDULER_LOCK: '0' } });
    expect(await lockOf(free)).toMatchObject({ enabled: false, held: true });
    expect(existsSync(join(free.dataDir, '.scheduler.lock'))).toBe(false);
    await free.close();
  });
});
