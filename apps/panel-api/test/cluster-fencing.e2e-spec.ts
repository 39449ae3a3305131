import { createTestPostgresDatabase, requestJson, tempDir, testDatabaseDriver, TestPostgresDatabase } from '@shared/testing';
import { DataSource, EntityManager } from 'typeorm';
import { ClusterService, StaleLeaseError } from '../src/app/cluster/cluster.service';
import { KeywordHitsService } from '../src/app/keyword-hits/keyword-hits.service';
import { RunRegistry } from '../src/app/runs/run-registry';
import { TELEGRAM_GATEWAY } from '../src/app/telegram/telegram-gateway';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';
import { TelegramSimulator } from './telegram-simulator';

const LEASE_SECONDS = 3;

/** Polls `read` until `done` holds, at most `timeoutMs`; returns the last value read. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = await read();
  while (!done(last)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    last = await read();
  }
  return last;
}

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
  const panels: RunningPanel[] = [];
  const dirs: Array<ReturnType<typeof tempDir>> = [];
  let database: TestPostgresDatabase | undefined;

  const start = async () => {
    const dir = tempDir('panel-cluster-fencing-');
    dirs.push(dir);
    const panel = await startPanel({
      reuse: { dataDir: dir.path, databaseUrl: database?.url },
      env: { APP_CLUSTER_LEASE_SECONDS: String(LEASE_SECONDS), APP_JWT_SECRET: 'h1-cluster-fencing-shared-jwt-secret-0123456789' },
      overrides: [{ provide: TELEGRAM_GATEWAY, useValue: telegram }],
    });
    panels.push(panel);
    return panel;
  };

  beforeEach(async () => {
    if (testDatabaseDriver() === 'postgres') database = await createTestPostgresDatabase('h1_cluster_fencing');
  });

  afterEach(async () => {
    telegram.setLatency(0);
    for (const panel of panels.splice(0)) await panel.stop();
    await database?.drop();
    database = undefined;
    for (const dir of dirs.splice(0)) dir.remove();
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

    // Neither the history row nor the task's last run was written; both refusals were counted.
    const history = await requestJson<{ history: unknown[] }>(panel.url, '/api/sign-tasks/fenced-daily/history', { token });
    expect(history.body.history).toEqual([]);
    const stored = await requestJson<{ last_run?: unknown }>(panel.url, '/api/sign-tasks/fenced-daily', { token });
    expect(stored.status).toBe(200);
    expect(stored.body.last_run ?? null).toBeNull();
    expect(cluster.counters.fencedWritesRefused).toBeGreaterThanOrEqual(refusedBefore + 2);

    await expect(hits.setPushOutcome(hit?.id ?? 0, 'sent', undefined, { fence })).rejects.toBeInstanceOf(StaleLeaseError);
    expect((await hits.get(hit?.id ?? 0))?.pushStatus).toBe('pending');
  });
});
