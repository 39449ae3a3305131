import { requestJson, testDatabaseDriver, waitFor } from '@shared/testing';
import { DataSource } from 'typeorm';
import { ClusterService } from '../src/app/cluster/cluster.service';
import { PendingRerun } from '../src/app/runs/entities/pending-rerun.entity';
import { RunRegistry } from '../src/app/runs/run-registry';
import { TaskRunner } from '../src/app/runs/task-runner.service';
import { clusterReplicas } from './cluster-harness';
import { loginAsAdmin, RunningPanel } from './harness';
import { TelegramSimulator } from './telegram-simulator';

const LEASE_SECONDS = 3;
const ACCOUNTS = ['acct-a', 'acct-b'];
const taskOf = (account: string) => `rerun-${account}`;

/**
 * Issue 31, review item 4: a rerun after the wait a bot named belongs to the account's owner. A
 * replica arms (and claims) only the stored reruns of the accounts it owns, arms those of an account
 * it gains, and a rerun whose start fails keeps its time for a later start. On SQLite the one
 * instance owns every account.
 */
describe('panel-api replicas: pending reruns run on the account\'s owner', () => {
  const telegram = new TelegramSimulator();
  const replicaSet = clusterReplicas({ databaseName: 'h5_cluster_reruns', dirPrefix: 'panel-cluster-reruns-', jwtSecret: 'h5-cluster-reruns-shared-jwt-secret-0123456789', leaseSeconds: LEASE_SECONDS, telegram });
  const start = () => replicaSet.start();
  const addAccountsAndTasks = async (panel: RunningPanel, token: string, bot: string) => {
    for (const [index, account] of ACCOUNTS.entries()) {
      const user = telegram.createUser({ phone: `+31 600 540 ${String(index).padStart(3, '0')}` });
      expect((await requestJson(panel.url, '/api/accounts/import-session', { method: 'POST', token, body: { account_name: account, session_string: telegram.issueSession(user.id) } })).status).toBe(201);
      const task = { name: taskOf(account), account_name: account, sign_at: '03:00', execution_mode: 'fixed', random_seconds: 0, chats: [{ chat_id: `@${bot}`, actions: [{ action: 1, text: '/checkin' }] }] };
      expect((await requestJson(panel.url, '/api/sign-tasks', { method: 'POST', token, body: task })).status).toBe(201);
    }
  };
  const storeRerun = (panel: RunningPanel, account: string, dueAt: number) =>
    panel.app
      .get(DataSource)
      .getRepository(PendingRerun)
      .save({ taskName: taskOf(account), accountName: account, day: new Date().toISOString().slice(0, 10), dueAt, runId: `run-${account}`, createdAt: Date.now() });
  const armed = (panel: RunningPanel) => ACCOUNTS.filter((account) => panel.app.get(TaskRunner).pendingReruns(taskOf(account)).some((rerun) => rerun.account_name === account));

  afterEach(() => {
    telegram.setLatency(0);
  });

  it('keeps the time of a rerun whose start failed (a run of the task was still going), so a later start runs it', async () => {
    const bot = telegram.addBot({ username: 'h5_rerun_busy_bot', onMessage: () => ({ text: 'Checked in' }) });
    const panel = await start();
    const token = await loginAsAdmin(panel);
    await addAccountsAndTasks(panel, token, bot.username);
    // A run of the task that lasts: the rerun that comes due meanwhile cannot start (the task is busy for the account).
    telegram.setLatency(1_500);
    expect((await requestJson(panel.url, `/api/sign-tasks/${taskOf('acct-a')}/run`, { method: 'POST', token, body: {} })).status).toBe(202);
    const registry = panel.app.get(RunRegistry);
    await waitFor(() => registry.active().length === 1, 5_000);
    const dueAt = Date.now() - 1_000;
    await storeRerun(panel, 'acct-a', dueAt);
    const reruns = panel.app.get(DataSource).getRepository(PendingRerun);
    const runner = panel.app.get(TaskRunner);
    // What a restart does: arm the stored reruns; this one is due at once and finds the task busy.
    await runner.onApplicationBootstrap();
    expect(armed(panel)).toEqual(['acct-a']);
    await waitFor(() => armed(panel).length === 0, 5_000);
    await waitFor(async () => (await reruns.findOneByOrFail({ taskName: taskOf('acct-a'), accountName: 'acct-a' })).dueAt === dueAt, 5_000);
    expect(registry.active().filter((run) => run.trigger === 'rerun')).toEqual([]);
    await waitFor(() => registry.active().length === 0, 20_000);
  });

  if (testDatabaseDriver() !== 'postgres') return;

  it('arms a stored rerun only on the owner of its account, and on the survivor once it gains the account', async () => {
    const one = await start();
    const token = await loginAsAdmin(one);
    await addAccountsAndTasks(one, token, 'h5_rerun_unused_bot');
    const two = await start();
    const oneCluster = one.app.get(ClusterService);
    const twoCluster = two.app.get(ClusterService);
    await waitFor(() => oneCluster.ownedAccounts().length === 1 && twoCluster.ownedAccounts().length === 1, 10 * LEASE_SECONDS * 1000, 50);
    const [oneOwns] = oneCluster.ownedAccounts();
    const [twoOwns] = twoCluster.ownedAccounts();
    expect([oneOwns, twoOwns].sort()).toEqual(ACCOUNTS);

    // Stored while both run (as after a restart of both): an hour away, so nothing starts during the test.
    const dueAt = Date.now() + 3_600_000;
    for (const account of ACCOUNTS) await storeRerun(one, account, dueAt);
    await one.app.get(TaskRunner).onApplicationBootstrap();
    await two.app.get(TaskRunner).onApplicationBootstrap();
    expect(armed(one)).toEqual([oneOwns]);
    expect(armed(two)).toEqual([twoOwns]);

    // The second replica stops: the first takes its account over and arms that account's rerun too.
    await two.stop();
    await waitFor(() => oneCluster.ownedAccounts().length === 2, 10 * LEASE_SECONDS * 1000, 50);
    await waitFor(() => armed(one).length === 2, 5_000);
    expect(armed(one)).toEqual(ACCOUNTS);
    const stored = await one.app.get(DataSource).getRepository(PendingRerun).find({ order: { accountName: 'ASC' } });
    expect(stored.map((row) => [row.accountName, row.dueAt])).toEqual(ACCOUNTS.map((account) => [account, dueAt]));
  });
});
