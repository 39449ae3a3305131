import { LocalTelegramBotApi, requestJson, testDatabaseDriver, waitFor } from '@shared/testing';
import { DataSource, EntityManager } from 'typeorm';
import { ClusterService, StaleLeaseError } from '../src/app/cluster/cluster.service';
import { CLUSTER_TIMINGS } from '../src/app/cluster/cluster-timings';
import { JobClaims } from '../src/app/cluster/job-claims';
import { KeywordHitsService } from '../src/app/keyword-hits/keyword-hits.service';
import { KeywordListenersService } from '../src/app/listeners/keyword-listeners.service';
import { RunRegistry } from '../src/app/runs/run-registry';
import { TaskRunner } from '../src/app/runs/task-runner.service';
import { SignScheduler } from '../src/app/scheduler/sign-scheduler.service';
import { clusterReplicas, until } from './cluster-harness';
import { loginAsAdmin } from './harness';
import { TelegramSimulator } from './telegram-simulator';

const LEASE_SECONDS = 3;

const hitInput = (accountName: string) => ({
  accountName,
  taskName: 'watch',
  chatId: '-100777',
  chatTitle: 'Deals',
  messageThreadId: null,
  senderId: '42',
  senderName: 'Seller',
  senderUsername: null,
  messageId: 1,
  ruleIndex: 0,
  messageText: 'cheap gpu',
  matchedKeyword: 'gpu',
  messageUrl: null,
  hitAt: new Date(),
  pushChannel: 'telegram',
});

/**
 * Issue 31 item 2 (fencing, the rest): besides the run history row and the keyword hit itself, a
 * task's `last_run` and a keyword hit's push outcome are written only while this replica still holds
 * the account's lease with its epoch; a replica that lost it (paused past its lease, the account taken
 * over) has those writes refused and counted. On SQLite the fence lets every write through.
 */
describe('panel-api replicas: the last run of a task and the push outcome of a hit are fenced', () => {
  const telegram = new TelegramSimulator();
  const replicaSet = clusterReplicas({ databaseName: 'h1_cluster_fencing', dirPrefix: 'panel-cluster-fencing-', jwtSecret: 'h1-cluster-fencing-shared-jwt-secret-0123456789', leaseSeconds: LEASE_SECONDS, telegram });
  const start = () => replicaSet.start();

  afterEach(() => {
    telegram.setLatency(0);
  });

  it('stores the push outcome of a hit while the account is this instance\'s', async () => {
    const panel = await start();
    const token = await loginAsAdmin(panel);
    const user = telegram.createUser({ phone: '+31 600 720 001' });
    expect((await requestJson(panel.url, '/api/accounts/import-session', { method: 'POST', token, body: { account_name: 'owned', session_string: telegram.issueSession(user.id) } })).status).toBe(201);
    const cluster = panel.app.get(ClusterService);
    const hits = panel.app.get(KeywordHitsService);
    const fence = (manager: EntityManager) => cluster.assertOwned(manager, 'owned');
    const hit = await hits.record(hitInput('owned'), { fence });
    expect(hit).toBeDefined();
    await hits.setPushOutcome(hit?.id ?? 0, 'sent', undefined, { fence });
    expect((await hits.get(hit?.id ?? 0))?.pushStatus).toBe('sent');
  });

  if (testDatabaseDriver() !== 'postgres') return;

  it('refuses the writes of work begun under an earlier epoch of a lease this replica holds again', async () => {
    const panel = await start();
    const token = await loginAsAdmin(panel);
    const user = telegram.createUser({ phone: '+31 600 720 051' });
    expect((await requestJson(panel.url, '/api/accounts/import-session', { method: 'POST', token, body: { account_name: 'regained', session_string: telegram.issueSession(user.id) } })).status).toBe(201);
    const cluster = panel.app.get(ClusterService);
    const epoch = await until(async () => cluster.epochOf('regained'), (held) => held !== undefined, 10_000, 'the lease');
    const dataSource = panel.app.get(DataSource);
    // A run begun under the current epoch writes; one begun before the lease went away and came back (an older epoch) does not.
    await dataSource.transaction((manager) => cluster.assertOwned(manager, 'regained', epoch));
    const refusedBefore = cluster.counters.fencedWritesRefused;
    await expect(dataSource.transaction((manager) => cluster.assertOwned(manager, 'regained', (epoch ?? 0) - 1))).rejects.toBeInstanceOf(StaleLeaseError);
    expect(cluster.counters.fencedWritesRefused).toBe(refusedBefore + 1);
  });

  it('refuses to move a chat\'s listener watermark once the lease passed on, so the new owner still catches up the messages after it', async () => {
    const panel = await start();
    const token = await loginAsAdmin(panel);
    const user = telegram.createUser({ phone: '+31 600 720 151' });
    expect((await requestJson(panel.url, '/api/accounts/import-session', { method: 'POST', token, body: { account_name: 'marked', session_string: telegram.issueSession(user.id) } })).status).toBe(201);
    const cluster = panel.app.get(ClusterService);
    await until(async () => cluster.owns('marked'), Boolean, 10_000, 'the lease');
    const listeners = panel.app.get(KeywordListenersService);
    await listeners.advanceWatermark('marked', '-100555', 3);
    expect(await listeners.watermark('marked', '-100555')).toBe(3);

    // What a pause past the lease leaves: another owner with a newer epoch, and messages queued here.
    await panel.app.get(DataSource).query(`UPDATE "account_leases" SET "owner" = 'another-replica', "epoch" = "epoch" + 1 WHERE "account" = 'marked'`);
    const refusedBefore = cluster.counters.fencedWritesRefused;
    await expect(listeners.advanceWatermark('marked', '-100555', 9)).rejects.toBeInstanceOf(StaleLeaseError);
    expect(cluster.counters.fencedWritesRefused).toBe(refusedBefore + 1);
    // Neither the cache nor the row moved past the messages whose hits were refused.
    expect(await listeners.watermark('marked', '-100555')).toBe(3);
    const rows = (await panel.app.get(DataSource).query(`SELECT "last_message_id" FROM "listener_watermarks" WHERE "account_name" = 'marked'`)) as Array<{ last_message_id: string | number }>;
    expect(rows.map((row) => Number(row.last_message_id))).toEqual([3]);
  });

  it('refuses the last run of a run that ends after the lease passed on, and the push outcome of a hit after it', async () => {
    telegram.addBot({ username: 'h1_fence_bot', onMessage: () => ({ text: 'Checked in' }) });
    const panel = await start();
    const token = await loginAsAdmin(panel);
    const user = telegram.createUser({ phone: '+31 600 720 101' });
    expect((await requestJson(panel.url, '/api/accounts/import-session', { method: 'POST', token, body: { account_name: 'fenced', session_string: telegram.issueSession(user.id) } })).status).toBe(201);
    const cluster = panel.app.get(ClusterService);
    expect(cluster.owns('fenced')).toBe(true);
    const task = { name: 'fenced-daily', account_name: 'fenced', sign_at: '03:00', execution_mode: 'fixed', random_seconds: 0, chats: [{ chat_id: '@h1_fence_bot', actions: [{ action: 1, text: '/checkin' }] }] };
    expect((await requestJson(panel.url, '/api/sign-tasks', { method: 'POST', token, body: task })).status).toBe(201);

    // A hit recorded while the lease is held; its push outcome comes after the lease passed on.
    const hits = panel.app.get(KeywordHitsService);
    const fence = (manager: EntityManager) => cluster.assertOwned(manager, 'fenced');
    const hit = await hits.record(hitInput('fenced'), { fence });
    expect(hit?.pushStatus).toBe('pending');

    // Every Telegram call now takes long enough to move the lease under the running run.
    telegram.setLatency(1_500);
    const run = await requestJson<{ runs: Array<{ run_id: string }> }>(panel.url, '/api/sign-tasks/fenced-daily/run', { method: 'POST', token, body: {} });
    expect(run.status).toBe(202);
    const registry = panel.app.get(RunRegistry);
    await until(async () => registry.active().length, (count) => count === 1, 5_000, 'the run to be going');
    const refusedBefore = cluster.counters.fencedWritesRefused;
    // What a takeover leaves: another owner and a newer epoch.
    await panel.app.get(DataSource).query(`UPDATE "account_leases" SET "owner" = 'another-replica', "epoch" = "epoch" + 1 WHERE "account" = 'fenced'`);
    await until(async () => registry.active().length, (count) => count === 0, 20_000, 'the run to end');

    // The fenced record (history row and last run in one transaction) was refused and counted. A run
    // started by hand has no claim, so no other replica knows of it: its own history row is written
    // unfenced, once; the task's last run stays unwritten.
    const history = await requestJson<{ history: Array<{ run_id: string; trigger: string; state: string }> }>(panel.url, '/api/sign-tasks/fenced-daily/history', { token });
    expect(history.body.history).toEqual([expect.objectContaining({ run_id: run.body.runs[0].run_id, trigger: 'manual' })]);
    expect(['finished', 'interrupted']).toContain(history.body.history[0].state);
    const stored = await requestJson<{ last_run?: unknown }>(panel.url, '/api/sign-tasks/fenced-daily', { token });
    expect(stored.status).toBe(200);
    expect(stored.body.last_run ?? null).toBeNull();
    expect(cluster.counters.fencedWritesRefused).toBeGreaterThanOrEqual(refusedBefore + 1);

    await expect(hits.setPushOutcome(hit?.id ?? 0, 'sent', undefined, { fence })).rejects.toBeInstanceOf(StaleLeaseError);
    expect((await hits.get(hit?.id ?? 0))?.pushStatus).toBe('pending');
  });

  it('writes a finished run\'s history row and last run together and notifies, even when the lease moves right after the history row', async () => {
    const BOT_TOKEN = '777531:h5-cluster-finish-token';
    const BOT_CHAT = '5310';
    const notifications = await new LocalTelegramBotApi({ token: BOT_TOKEN, knownChatIds: [BOT_CHAT] }).start();
    try {
      telegram.addBot({ username: 'h5_finish_bot', onMessage: () => ({ text: 'Checked in' }) });
      const panel = await replicaSet.start({ env: { APP_BOT_API_BASE_URL: notifications.apiBaseUrl } });
      const token = await loginAsAdmin(panel);
      const settings = { bot_token: BOT_TOKEN, bot_chat_id: BOT_CHAT, bot_notify_enabled: true, bot_notify_task_success: true };
      expect((await requestJson(panel.url, '/api/config/settings', { method: 'PUT', token, body: settings })).status).toBe(200);
      const user = telegram.createUser({ phone: '+31 600 720 201' });
      expect((await requestJson(panel.url, '/api/accounts/import-session', { method: 'POST', token, body: { account_name: 'moving', session_string: telegram.issueSession(user.id) } })).status).toBe(201);
      const task = { name: 'moving-daily', account_name: 'moving', sign_at: '03:00', execution_mode: 'fixed', random_seconds: 0, notify_on_success: true, chats: [{ chat_id: '@h5_finish_bot', actions: [{ action: 1, text: '/checkin' }] }] };
      expect((await requestJson(panel.url, '/api/sign-tasks', { method: 'POST', token, body: task })).status).toBe(201);

      // What a takeover right after the run's history row leaves: the moment the row is written, the lease has another owner.
      const dataSource = panel.app.get(DataSource);
      await dataSource.query(`CREATE FUNCTION h5_move_lease() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN UPDATE "account_leases" SET "owner" = 'another-replica', "epoch" = "epoch" + 1 WHERE "account" = NEW."account_name"; RETURN NEW; END $$`);
      await dataSource.query(`CREATE TRIGGER h5_move_lease AFTER INSERT ON "sign_logs" FOR EACH ROW EXECUTE FUNCTION h5_move_lease()`);

      const run = await requestJson<{ runs: Array<{ run_id: string }> }>(panel.url, '/api/sign-tasks/moving-daily/run', { method: 'POST', token, body: {} });
      expect(run.status).toBe(202);
      // The run was written whole while the lease was this replica's: its history row, its last run and its notification.
      await waitFor(() => notifications.messagesTo(BOT_CHAT).length === 1, 15_000);
      expect(notifications.messagesTo(BOT_CHAT)[0].plainText).toContain('Sign task moving-daily succeeded');
      const history = await requestJson<{ history: Array<{ run_id: string; success: boolean }> }>(panel.url, '/api/sign-tasks/moving-daily/history', { token });
      expect(history.body.history.map((entry) => [entry.run_id, entry.success])).toEqual([[run.body.runs[0].run_id, true]]);
      const stored = await requestJson<{ last_run?: { success: boolean } | null }>(panel.url, '/api/sign-tasks/moving-daily', { token });
      expect(stored.body.last_run).toMatchObject({ success: true });
    } finally {
      await notifications.close();
    }
  });

  it('records a due run once as interrupted when a pause outlasted the lease\'s trust but not the lease; a later owner does not record it again', async () => {
    const LONG_LEASE_SECONDS = 8;
    // The test beats for the replica (its own timer waits an hour): stopping the beat is the pause.
    const panel = await replicaSet.start({
      env: { APP_CLUSTER_LEASE_SECONDS: String(LONG_LEASE_SECONDS) },
      overrides: [{ provide: CLUSTER_TIMINGS, useValue: { heartbeatMs: 3_600_000 } }],
    });
    const cluster = panel.app.get(ClusterService);
    const dataSource = panel.app.get(DataSource);
    const registry = panel.app.get(RunRegistry);
    let beating: NodeJS.Timeout | undefined = setInterval(() => void cluster.heartbeat(), 500);
    const job = 'sign-paused-paused-daily';
    const dueAt = Math.floor(Date.now() / 60_000) * 60_000;
    const claimState = async (source = dataSource) => ((await source.query(`SELECT "state" FROM "job_claims" WHERE "job" = $1 AND "due_at" = $2`, [job, dueAt])) as Array<{ state: string }>)[0]?.state;
    const leaseOf = async () => ((await dataSource.query(`SELECT "owner", "epoch" FROM "account_leases" WHERE "account" = 'paused'`)) as Array<{ owner: string | null; epoch: string }>)[0];
    type History = { history: Array<{ run_id: string; state: string; trigger: string; success: boolean; message: string }> };
    let token = '';
    const historyOf = async (url: string) => (await requestJson<History>(url, '/api/sign-tasks/paused-daily/history', { token })).body.history;
    let runId = '';
    try {
      token = await loginAsAdmin(panel);
      const user = telegram.createUser({ phone: '+31 600 720 301' });
      expect((await requestJson(panel.url, '/api/accounts/import-session', { method: 'POST', token, body: { account_name: 'paused', session_string: telegram.issueSession(user.id) } })).status).toBe(201);
      const task = { name: 'paused-daily', account_name: 'paused', sign_at: '03:00', execution_mode: 'fixed', random_seconds: 0, chats: [{ chat_id: '@h2_pause_bot', actions: [{ action: 1, text: '/checkin' }] }] };
      expect((await requestJson(panel.url, '/api/sign-tasks', { method: 'POST', token, body: task })).status).toBe(201);
      await until(async () => cluster.owns('paused'), Boolean, 5_000, 'the lease of the account');

      // A due run claimed and started as the scheduler does it; its Telegram calls hang, so it is in flight when the pause begins.
      telegram.setHanging('paused');
      const claims = panel.app.get(JobClaims);
      expect(await claims.claimForAccount(job, dueAt, 'paused')).toBe(true);
      const [started] = panel.app.get(TaskRunner).start('paused-daily', 'schedule', 'paused', { job, dueAt });
      claims.settled({ job, dueAt });
      runId = started.run_id;
      await claims.attachRun(job, dueAt, runId);
      const before = await leaseOf();

      // The pause: past the lease's trust the replica stops the run, and the run's own record is refused.
      clearInterval(beating);
      beating = undefined;
      await until(async () => registry.active().map((run) => [run.run_id, run.task_name, run.account_name, run.phase, run.state, run.trigger]), (runs) => runs.length === 0, 15_000, 'the run to stop');
      expect(cluster.owns('paused')).toBe(false);
      expect(await claimState()).toBe('running');
      expect(await historyOf(panel.url)).toEqual([]);

      // It resumes before anyone took the lease: the same epoch, and the run is recorded once as interrupted, with its reason.
      telegram.setHanging('paused', false);
      await cluster.heartbeat();
      beating = setInterval(() => void cluster.heartbeat(), 500);
      expect(cluster.owns('paused')).toBe(true);
      expect(await leaseOf()).toEqual(before);
      const history = await until(() => historyOf(panel.url), (entries) => entries.length > 0, 10_000, 'the interrupted run in the history');
      expect(history).toEqual([expect.objectContaining({ run_id: runId, state: 'interrupted', trigger: 'schedule', success: false })]);
      expect(history[0].message).toContain('was not renewed in time');
      expect(await claimState()).toBe('interrupted');
    } finally {
      if (beating) clearInterval(beating);
      telegram.setHanging('paused', false);
    }

    // Never twice: a new owner that takes the account over finds the claim settled.
    await panel.stop();
    const next = await replicaSet.start({ env: { APP_CLUSTER_LEASE_SECONDS: String(LONG_LEASE_SECONDS) } });
    const nextCluster = next.app.get(ClusterService);
    await until(async () => nextCluster.owns('paused'), Boolean, 3 * LONG_LEASE_SECONDS * 1000, 'the new owner to take the account');
    // What the takeover does for the account (also run by its heartbeat), awaited here so the check below follows it.
    await (next.app.get(SignScheduler) as unknown as { takeOver: (accounts: string[]) => Promise<void> }).takeOver(['paused']);
    token = await loginAsAdmin(next);
    expect((await historyOf(next.url)).map((entry) => [entry.run_id, entry.state])).toEqual([[runId, 'interrupted']]);
    expect(await claimState(next.app.get(DataSource))).toBe('interrupted');
  });

  it('records a due run going at a clean shutdown once as interrupted (not cancelled), settles its claim and hands the lease over at once', async () => {
    const panel = await start();
    const token = await loginAsAdmin(panel);
    const user = telegram.createUser({ phone: '+31 600 720 401' });
    expect((await requestJson(panel.url, '/api/accounts/import-session', { method: 'POST', token, body: { account_name: 'stopping', session_string: telegram.issueSession(user.id) } })).status).toBe(201);
    const task = { name: 'stopping-daily', account_name: 'stopping', sign_at: '03:00', execution_mode: 'fixed', random_seconds: 0, chats: [{ chat_id: '@h2_stop_bot', actions: [{ action: 1, text: '/checkin' }] }] };
    expect((await requestJson(panel.url, '/api/sign-tasks', { method: 'POST', token, body: task })).status).toBe(201);
    const cluster = panel.app.get(ClusterService);
    await until(async () => cluster.owns('stopping'), Boolean, 5_000, 'the lease of the account');
    const job = 'sign-stopping-stopping-daily';
    const dueAt = Math.floor(Date.now() / 60_000) * 60_000;
    const database = new DataSource({ type: 'postgres', url: replicaSet.database?.url });
    await database.initialize();
    try {
      // A due run claimed and started as the scheduler does it, its Telegram calls hanging: in flight at the stop.
      telegram.setHanging('stopping');
      const claims = panel.app.get(JobClaims);
      expect(await claims.claimForAccount(job, dueAt, 'stopping')).toBe(true);
      const [started] = panel.app.get(TaskRunner).start('stopping-daily', 'schedule', 'stopping', { job, dueAt });
      claims.settled({ job, dueAt });
      await claims.attachRun(job, dueAt, started.run_id);
      await until(async () => panel.app.get(RunRegistry).active()[0]?.phase, (phase) => phase === 'running', 5_000, 'the run to be going');
      await panel.stop();

      type Row = { run_id: string; state: string; message: string };
      const recorded = (await database.query(`SELECT "run_id", "state", "message" FROM "sign_logs" WHERE "task_name" = 'stopping-daily'`)) as Row[];
      expect(recorded).toEqual([{ run_id: started.run_id, state: 'interrupted', message: 'Interrupted: the service stopped while the run was going' }]);
      // Handed over at once: no owner until the next replica, which need not wait out the lease.
      const lease = ((await database.query(`SELECT "owner" FROM "account_leases" WHERE "account" = 'stopping'`)) as Array<{ owner: string | null }>)[0];
      expect(lease.owner).toBeNull();
      telegram.setHanging('stopping', false);
      const next = await start();
      const nextCluster = next.app.get(ClusterService);
      await until(async () => nextCluster.owns('stopping'), Boolean, LEASE_SECONDS * 1000, 'the next owner, before a lease could expire');
      await (next.app.get(SignScheduler) as unknown as { takeOver: (accounts: string[]) => Promise<void> }).takeOver(['stopping']);
      const claim = (await database.query(`SELECT "state" FROM "job_claims" WHERE "job" = $1 AND "due_at" = $2`, [job, dueAt])) as Array<{ state: string }>;
      expect(claim.map((row) => row.state)).toEqual(['done']);
      expect(((await database.query(`SELECT "run_id" FROM "sign_logs" WHERE "task_name" = 'stopping-daily'`)) as Row[]).map((row) => row.run_id)).toEqual([started.run_id]);
    } finally {
      telegram.setHanging('stopping', false);
      await database.destroy();
    }
  });

  it('never takes a claim whose run is about to start here for an orphan, also when two claim calls race, and still ends a true orphan of the same job', async () => {
    const panel = await start();
    const token = await loginAsAdmin(panel);
    const user = telegram.createUser({ phone: '+31 600 720 501' });
    expect((await requestJson(panel.url, '/api/accounts/import-session', { method: 'POST', token, body: { account_name: 'racing', session_string: telegram.issueSession(user.id) } })).status).toBe(201);
    const task = { name: 'racing-daily', account_name: 'racing', sign_at: '03:00', execution_mode: 'fixed', random_seconds: 0, chats: [{ chat_id: '@h2_race_bot', actions: [{ action: 1, text: '/checkin' }] }] };
    expect((await requestJson(panel.url, '/api/sign-tasks', { method: 'POST', token, body: task })).status).toBe(201);
    const cluster = panel.app.get(ClusterService);
    await until(async () => cluster.owns('racing'), Boolean, 5_000, 'the lease of the account');
    const dataSource = panel.app.get(DataSource);
    const job = 'sign-racing-racing-daily';
    const dueAt = Math.floor(Date.now() / 60_000) * 60_000;
    // Yesterday's claim of the same job, stopped here at a pause and never recorded: a true orphan.
    await dataSource.query(
      `INSERT INTO "job_claims" ("job", "due_at", "account", "replica_id", "epoch", "state", "run_id", "claimed_at") VALUES ($1, $2, 'racing', $3, $4, 'running', '6f1c1d2e-0000-4000-8000-000000000501', $2)`,
      [job, dueAt - 86_400_000, cluster.replicaId, cluster.epochOf('racing')],
    );
    // A tick and a catch-up claim the same due run at once: one wins; the loser must not clear the winner's note.
    const claims = panel.app.get(JobClaims);
    expect((await Promise.all([claims.claimForAccount(job, dueAt, 'racing'), claims.claimForAccount(job, dueAt, 'racing')])).sort()).toEqual([false, true]);
    // A takeover's orphan search now, before the claimed run registered (what an account's import can start).
    await (panel.app.get(SignScheduler) as unknown as { interruptOrphans: (account: string) => Promise<void> }).interruptOrphans('racing');
    const states = async () =>
      ((await dataSource.query(`SELECT "due_at", "state" FROM "job_claims" WHERE "job" = $1 ORDER BY "due_at"`, [job])) as Array<{ due_at: string; state: string }>).map((row) => [Number(row.due_at), row.state]);
    expect(await states()).toEqual([
      [dueAt - 86_400_000, 'interrupted'],
      [dueAt, 'running'],
    ]);
    await claims.finish({ job, dueAt }, 'skipped');
    expect(await states()).toEqual([
      [dueAt - 86_400_000, 'interrupted'],
      [dueAt, 'skipped'],
    ]);
  });
});
