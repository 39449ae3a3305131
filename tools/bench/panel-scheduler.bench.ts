// Run through tools/bench/panel-scheduler.mjs (TypeScript via @swc-node/register, --expose-gc).
//
// 1. Writes `--tasks` task documents spread over `--accounts` accounts (sessions issued by the
//    Telegram simulator) into a fresh data directory, boots the real panel-api on it (SQLite) and
//    reads how long the boot-time sync took to register every `sign-{account}-{task}` job.
// 2. Re-registers every job (a time zone change replaces them all) and times it.
// 3. Heap after a full GC with all jobs, and after the jobs are gone (tasks disabled): the difference
//    is what the scheduler's jobs cost.
// 4. SSE fan-out: `--clients` EventSource-like connections from `--client-processes` (2) separate processes, then `--events`
//    sign_log events published at once (burst) and again paced at 1 per ms; events/s and delays.
import { fork } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPanelApp, listenPanelApp } from '../../apps/panel-api/src/app/create-app';
import { loadPanelConfig } from '../../apps/panel-api/src/app/config/panel-config';
import { RunHistoryService } from '../../apps/panel-api/src/app/runs/run-history.service';
import { SignScheduler } from '../../apps/panel-api/src/app/scheduler/sign-scheduler.service';
import { SettingsService } from '../../apps/panel-api/src/app/settings/settings.service';
import { SignTasksService } from '../../apps/panel-api/src/app/sign-tasks/sign-tasks.service';
import { TELEGRAM_GATEWAY } from '../../apps/panel-api/src/app/telegram/telegram-gateway';
import { RuntimeStatusRegistry } from '../../apps/panel-api/src/app/ops/runtime-status.registry';
import { TelegramSimulator } from '../../apps/panel-api/test/telegram-simulator';

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, value ?? 'true'];
  }),
);
const TASKS = Number(args['tasks'] ?? 1000);
const ACCOUNTS = Number(args['accounts'] ?? 100);
const CLIENTS = Number(args['clients'] ?? 200);
const EVENTS = Number(args['events'] ?? 1000);
const ADMIN_PASSWORD = 'bench-admin-password';

function collect(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc (use tools/bench/panel-scheduler.mjs)');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main(): Promise<void> {
  const work = mkdtempSync(join(process.env['BENCH_DIR'] ?? tmpdir(), 'panel-scheduler-bench-'));
  const dataDir = join(work, 'data');
  const telegram = new TelegramSimulator();
  mkdirSync(join(dataDir, 'sessions'), { recursive: true });
  mkdirSync(join(dataDir, '.signer', 'tasks'), { recursive: true });
  for (let a = 0; a < ACCOUNTS; a += 1) {
    const user = telegram.createUser({ phone: `+3160${String(a).padStart(7, '0')}` });
    writeFileSync(join(dataDir, 'sessions', `acc${a}.session`), telegram.issueSession(user.id));
  }
  for (let t = 0; t < TASKS; t += 1) {
    const range = t % 10 === 0;
    const seconds = (t * 37) % 86_400;
    const hhmmss = [Math.floor(seconds / 3600), Math.floor(seconds / 60) % 60, seconds % 60].map((n) => String(n).padStart(2, '0')).join(':');
    const task = {
      name: `task-${t}`,
      account_name: `acc${t % ACCOUNTS}`,
      execution_mode: range ? 'range' : 'fixed',
      ...(range ? { range_start: '08:00', range_end: '09:30' } : { sign_at: t % 2 ? hhmmss : `${t % 60} ${t % 24} * * *` }),
      random_seconds: t % 120,
      enabled: true,
      retry_count: 3,
      notify_on_failure: true,
      notify_on_success: false,
      last_run: null,
      chats: [{ chat_id: '@checkin_bot', actions: [{ action: 1, text: '/checkin' }, { action: 3, text: 'Sign' }] }],
    };
    writeFileSync(join(dataDir, '.signer', 'tasks', `${task.name}.json`), JSON.stringify(task));
  }

  const heapBeforeBoot = collect();
  const config = loadPanelConfig({ HOST: '127.0.0.1', PORT: '0', APP_DATA_DIR: dataDir, LOG_LEVEL: 'error', ADMIN_PASSWORD, MSGR_SESSION_MODE: 'string', APP_EVENTS_MAX_STREAMS_PER_TOKEN: String(Math.max(10, CLIENTS)) });
  const bootStarted = performance.now();
  const app = await createPanelApp(config, { overrides: [{ provide: TELEGRAM_GATEWAY, useValue: telegram }] });
  const url = await listenPanelApp(app);
  const bootMs = performance.now() - bootStarted;
  const scheduler = app.get(SignScheduler);
  const status = await app.get(RuntimeStatusRegistry).collect();
  const bootSync = status['scheduler']?.details?.['last_sync'] as { durationMs: number; jobs: number };
  const jobCount = scheduler.jobIds().length;
  if (jobCount !== TASKS) throw new Error(`expected ${TASKS} jobs, got ${jobCount}`);

  const settings = app.get(SettingsService);
  const resyncStarted = performance.now();
  await settings.update({ timezone: 'Europe/Amsterdam' });
  const resyncMs = performance.now() - resyncStarted;

  const heapWithJobs = collect();
  const tasks = app.get(SignTasksService);
  const disableStarted = performance.now();
  for (const task of tasks.list()) tasks.setEnabled(task.name, false);
  const disableMs = performance.now() - disableStarted;
  if (scheduler.jobIds().length !== 0) throw new Error('jobs left after disabling every task');
  const heapWithoutJobs = collect();
  const singleStarted = performance.now();
  tasks.setEnabled('task-1', true);
  const singleChangeMs = performance.now() - singleStarted;

  console.log(`panel-api scheduler: ${TASKS} tasks over ${ACCOUNTS} accounts`);
  console.log(`  boot to listening (load tasks, register jobs, migrations): ${bootMs.toFixed(0)} ms`);
  console.log(`  register all ${bootSync.jobs} jobs at boot (sync): ${bootSync.durationMs.toFixed(1)} ms`);
  console.log(`  replace all jobs after a time zone change: ${resyncMs.toFixed(1)} ms`);
  console.log(`  one task change re-sync (diff over ${TASKS} tasks): ${singleChangeMs.toFixed(2)} ms; disabling all ${TASKS} one by one: ${disableMs.toFixed(0)} ms`);
  console.log(`  heap: before boot ${mb(heapBeforeBoot)}, app with ${TASKS} jobs ${mb(heapWithJobs)}, same app without jobs ${mb(heapWithoutJobs)}`);
  console.log(`  scheduler jobs cost: ${mb(heapWithJobs - heapWithoutJobs)} (${((heapWithJobs - heapWithoutJobs) / TASKS / 1024).toFixed(1)} KB per job); RSS ${mb(process.memoryUsage().rss)}`);

  // SSE fan-out.
  const login = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }) });
  const { access_token: token } = (await login.json()) as { access_token: string };
  // The clients are spread over several processes (`--client-processes`, default 2): one process
  // reading all 200 connections in turn would measure its own queue, not what each client sees.
  const processCount = Math.max(1, Math.min(CLIENTS, Number(args['client-processes'] ?? 2)));
  const clientProcesses = Array.from({ length: processCount }, (_, p) => {
    const share = Math.floor(CLIENTS / processCount) + (p < CLIENTS % processCount ? 1 : 0);
    return fork(join(__dirname, 'panel-scheduler-clients.mjs'), [`${url}/api/events/sign-history?token=${token}`, String(share), String(EVENTS)]);
  });
  const fromAll = (type: string) => Promise.all(clientProcesses.map((child) => new Promise<Record<string, number>>((resolve) => {
    const onMessage = (message: Record<string, number> & { type: string }) => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      resolve(message);
    };
    child.on('message', onMessage);
  })));
  const next = async (type: string): Promise<Record<string, number>> => {
    const reports = await fromAll(type);
    const received = reports.reduce((sum, r) => sum + (r['received'] ?? 0), 0);
    return {
      maxDelayMs: Math.max(...reports.map((r) => r['maxDelayMs'] ?? 0)),
      meanDelayMs: reports.reduce((sum, r) => sum + (r['totalDelayMs'] ?? 0), 0) / Math.max(1, received),
      received,
      lastReceiveAt: Math.max(...reports.map((r) => r['lastReceiveAt'] ?? 0)),
    };
  };
  const clients = { send: (message: unknown) => clientProcesses.forEach((child) => child.send(message as string)) };
  await next('ready');
  const history = app.get(RunHistoryService);
  const event = (i: number) => ({ run_id: `bench-${i}`, account_name: `acc${i % ACCOUNTS}`, task_name: `task-${i % TASKS}`, success: true, message: String(Date.now()), created_at: new Date().toISOString(), failure_category: 'none' });

  let done = next('done');
  const burstStarted = Date.now();
  for (let i = 0; i < EVENTS; i += 1) history.publish(event(i));
  const publishedMs = Date.now() - burstStarted;
  // The stream writes on the next turn of the event loop; after it every byte is with the sockets.
  await new Promise((resolve) => setImmediate(resolve));
  const writtenMs = Date.now() - burstStarted;
  const burst = await done;
  const burstSeconds = (burst['lastReceiveAt'] - burstStarted) / 1000;
  console.log(`SSE fan-out: ${EVENTS} events to ${CLIENTS} clients (clients in ${processCount} separate processes)`);
  console.log(
    `  burst: ${(EVENTS / burstSeconds).toFixed(0)} events/s (${((EVENTS * CLIENTS) / burstSeconds).toFixed(0)} deliveries/s), max delay ${burst['maxDelayMs']} ms, mean ${burst['meanDelayMs'].toFixed(0)} ms`,
  );
  console.log(`  server side: all ${EVENTS} published in ${publishedMs} ms, written to the ${CLIENTS} sockets ${writtenMs} ms after the first`);

  clients.send({ type: 'reset', expected: EVENTS });
  await new Promise((resolve) => setTimeout(resolve, 200));
  done = next('done');
  const pacedStarted = Date.now();
  for (let i = 0; i < EVENTS; i += 1) {
    history.publish(event(i));
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  const paced = await done;
  const pacedSeconds = (paced['lastReceiveAt'] - pacedStarted) / 1000;
  console.log(
    `  paced (one event per timer tick): ${(EVENTS / pacedSeconds).toFixed(0)} events/s, max delay ${paced['maxDelayMs']} ms, mean ${paced['meanDelayMs'].toFixed(1)} ms`,
  );
  clients.send('exit');
  await app.close();
  rmSync(work, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
