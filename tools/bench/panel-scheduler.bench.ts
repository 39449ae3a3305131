// Run through tools/bench/panel-scheduler.mjs (TypeScript via @swc-node/register, --expose-gc).
//
// 1. Writes `--tasks` task documents spread over `--accounts` accounts (sessions issued by the
//    Telegram simulator) into a fresh data directory, boots the real panel-api on it (SQLite) and
//    reads how long the boot-time sync took to register every `sign-{account}-{task}` job.
// 2. Re-registers every job (a time zone change replaces them all) and times it.
// 3. Heap after a full GC with all jobs, and after the jobs are gone (tasks disabled): the difference
//    is what the scheduler's jobs cost.
// 4. SSE fan-out: `--clients` connections from `--client-processes` (2) separate processes, then
//    `--events` sign_log events published at once (burst), `--rounds` (3) times, each round followed by
//    the same burst from a bare node:http server (the machine's floor at that moment); then one paced
//    round (one event per timer tick). Delays: max, p99, median, mean over every delivery.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPanelApp, listenPanelApp } from '../../apps/panel-api/src/app/create-app';
import { loadPanelConfig } from '../../apps/panel-api/src/app/config/panel-config';
import { formatServerSentEvent } from '../../apps/panel-api/src/app/events/sse-broadcaster';
import { RunHistoryService, SignLogEvent } from '../../apps/panel-api/src/app/runs/run-history.service';
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

interface BurstFigures {
  maxDelayMs: number;
  p99DelayMs: number;
  medianDelayMs: number;
  meanDelayMs: number;
  lastReceiveAt: number;
  /** CPU time the client processes spent receiving the round (until their last connection completed). */
  clientCpuMs: number;
}

const delaysLine = (figures: BurstFigures): string =>
  `max delay ${figures.maxDelayMs} ms, p99 ${figures.p99DelayMs} ms, median ${figures.medianDelayMs} ms, mean ${figures.meanDelayMs.toFixed(1)} ms (clients ${figures.clientCpuMs} ms CPU)`;

/** CPU time (user + system, the kernel's socket copies included) this process spent since `before`, in ms. */
const cpuMsSince = (before: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(before);
  return Math.round((used.user + used.system) / 1000);
};

type ClientReport = { type: string; delays?: number[]; lastReceiveAt?: number; cpuMs?: number };

/**
 * `CLIENTS` SSE connections to `url`, spread over `processCount` processes (panel-scheduler-clients.mjs):
 * one process reading every connection in turn would measure its own queue, not what each client sees.
 */
async function openClients(url: string, processCount: number) {
  const children = Array.from({ length: processCount }, (_, p) => {
    const share = Math.floor(CLIENTS / processCount) + (p < CLIENTS % processCount ? 1 : 0);
    return fork(join(__dirname, 'panel-scheduler-clients.mjs'), [url, String(share)]);
  });
  const fromAll = (type: string) =>
    Promise.all(
      children.map(
        (child) =>
          new Promise<ClientReport>((resolve) => {
            const onMessage = (message: ClientReport) => {
              if (message.type !== type) return;
              child.off('message', onMessage);
              resolve(message);
            };
            child.on('message', onMessage);
          }),
      ),
    );
  await fromAll('ready');
  return {
    /** Starts a round whose last event is `finalRunId` once every client process is ready for it; `finished` gives its figures. */
    round: async (finalRunId: string) => {
      const acknowledged = fromAll('round');
      for (const child of children) child.send({ type: 'round', finalRunId });
      await acknowledged;
      const finished = fromAll('done').then((reports): BurstFigures => {
        const delays = reports.flatMap((report) => report.delays ?? []).sort((a, b) => a - b);
        if (delays.length !== EVENTS * CLIENTS) throw new Error(`expected ${EVENTS * CLIENTS} deliveries, the clients counted ${delays.length}`);
        const at = (quantile: number) => delays[Math.min(delays.length - 1, Math.floor(quantile * delays.length))];
        return {
          maxDelayMs: delays[delays.length - 1],
          p99DelayMs: at(0.99),
          medianDelayMs: at(0.5),
          meanDelayMs: delays.reduce((sum, delay) => sum + delay, 0) / delays.length,
          lastReceiveAt: Math.max(...reports.map((report) => report.lastReceiveAt ?? 0)),
          clientCpuMs: reports.reduce((sum, report) => sum + (report.cpuMs ?? 0), 0),
        };
      });
      return { finished };
    },
    exit: () => children.forEach((child) => child.send('exit')),
  };
}

/**
 * A bare node:http SSE server: the same headers and the same bytes per burst (the events encoded
 * once, one write per connection), without Nest, Fastify or the broadcaster's bookkeeping.
 */
async function startBareSseServer() {
  const responses: ServerResponse[] = [];
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive' });
    response.write(formatServerSentEvent('ready', { connected_at: new Date().toISOString() }));
    responses.push(response);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    /** Writes the events to every connection; resolves with the ms from the first event's publish time until every byte is with the sockets. */
    writeBurst: async (events: SignLogEvent[]): Promise<number> => {
      const started = Number(events[0].message);
      // The stream's payload: the run id goes in `id:`, not in the data.
      const bytes = Buffer.from(events.map(({ run_id, ...payload }) => formatServerSentEvent('sign_log', payload, run_id)).join(''), 'utf8');
      for (const response of responses) response.write(bytes);
      // As for panel-api: the corked writes reach the sockets before the next turn.
      await new Promise((resolve) => setImmediate(resolve));
      return Date.now() - started;
    },
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

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
  const processCount = Math.max(1, Math.min(CLIENTS, Number(args['client-processes'] ?? 2)));
  const rounds = Math.max(1, Number(args['rounds'] ?? 3));
  const panelClients = await openClients(`${url}/api/events/sign-history?token=${token}`, processCount);
  // The floor of this machine at this moment: a bare node:http server writing the same bytes to as
  // many connections, read by the same kind of client processes (see writeBurstBare).
  const bare = await startBareSseServer();
  const bareClients = await openClients(bare.url, processCount);
  const history = app.get(RunHistoryService);
  // `message` carries the publish time (Date.now(), the clock the clients read too).
  const event = (runId: string, i: number): SignLogEvent => ({ run_id: runId, account_name: `acc${i % ACCOUNTS}`, task_name: `task-${i % TASKS}`, success: true, message: String(Date.now()), created_at: new Date().toISOString(), failure_category: 'none' });

  console.log(`SSE fan-out: ${EVENTS} events at once to ${CLIENTS} clients (in ${processCount} client processes), ${rounds} rounds, each panel-api then a bare node:http server`);
  for (let r = 0; r < rounds; r += 1) {
    const load = loadavg()[0].toFixed(2);
    const panel = await panelClients.round(`burst${r}-${EVENTS - 1}`);
    const cpuBefore = process.cpuUsage();
    const burstStarted = Date.now();
    for (let i = 0; i < EVENTS; i += 1) history.publish(event(`burst${r}-${i}`, i));
    const publishedMs = Date.now() - burstStarted;
    // The stream writes on the next turn of the event loop; after it every byte is with the sockets.
    await new Promise((resolve) => setImmediate(resolve));
    const writtenMs = Date.now() - burstStarted;
    const cpuMs = cpuMsSince(cpuBefore);
    const burst = await panel.finished;
    const floor = await bareClients.round(`bare${r}-${EVENTS - 1}`);
    const bareCpuBefore = process.cpuUsage();
    const bareWrittenMs = await bare.writeBurst(Array.from({ length: EVENTS }, (_, i) => event(`bare${r}-${i}`, i)));
    const bareCpuMs = cpuMsSince(bareCpuBefore);
    const bareBurst = await floor.finished;
    console.log(`  round ${r + 1} (load average ${load}):`);
    console.log(`    panel-api: ${delaysLine(burst)}; published in ${publishedMs} ms, written to the ${CLIENTS} sockets ${writtenMs} ms after the first (${cpuMs} ms CPU)`);
    console.log(`    bare node:http: ${delaysLine(bareBurst)}; written ${bareWrittenMs} ms after the first (${bareCpuMs} ms CPU)`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  const pacedRound = await panelClients.round(`paced-${EVENTS - 1}`);
  const pacedStarted = Date.now();
  for (let i = 0; i < EVENTS; i += 1) {
    history.publish(event(`paced-${i}`, i));
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  const paced = await pacedRound.finished;
  const pacedSeconds = (paced.lastReceiveAt - pacedStarted) / 1000;
  console.log(`  panel-api paced (one event per timer tick): ${delaysLine(paced)}; ${(EVENTS / pacedSeconds).toFixed(0)} events/s`);
  console.log(`  load average after: ${loadavg()[0].toFixed(2)}`);
  panelClients.exit();
  bareClients.exit();
  bare.close();
  await app.close();
  rmSync(work, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
