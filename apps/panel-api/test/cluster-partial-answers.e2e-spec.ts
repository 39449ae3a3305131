import { requestJson, testDatabaseDriver, waitFor } from '@shared/testing';
import { ClusterService } from '../src/app/cluster/cluster.service';
import { RunRegistry } from '../src/app/runs/run-registry';
import { clusterReplicas } from './cluster-harness';
import { loginAsAdmin, RunningPanel } from './harness';
import { TelegramSimulator } from './telegram-simulator';

const LEASE_SECONDS = 3;
const ACCOUNTS = ['acct-a', 'acct-b'];
/** Nobody listens here (a port of this helper's range): a replica that gives it as its address never answers a forwarded request. */
const DEAD_ADDRESS = 'http://127.0.0.1:45999';

interface Failure {
  account_name?: string;
  replica_id?: string;
  code: string;
  message: string;
}

/**
 * Issue 31, review item 6: a run, a cancel or a keep-alive run that spans several replicas answers with
 * what the reachable ones did and names the ones that failed in `failures`, instead of failing the
 * whole request after some runs already started. On one instance `failures` is empty.
 */
describe('panel-api replicas: a request spanning several owners answers with what worked and what failed', () => {
  const telegram = new TelegramSimulator();
  let bot: string;

  const replicaSet = clusterReplicas({ databaseName: 'h5_cluster_partial', dirPrefix: 'panel-cluster-partial-', jwtSecret: 'h5-cluster-partial-shared-jwt-secret-0123456789', leaseSeconds: LEASE_SECONDS, telegram });
  const start = (env: Record<string, string> = {}) => replicaSet.start({ env });
  const addAccountsAndTask = async (panel: RunningPanel, token: string) => {
    for (const [index, account] of ACCOUNTS.entries()) {
      const user = telegram.createUser({ phone: `+31 600 560 ${String(index).padStart(3, '0')}` });
      expect((await requestJson(panel.url, '/api/accounts/import-session', { method: 'POST', token, body: { account_name: account, session_string: telegram.issueSession(user.id) } })).status).toBe(201);
    }
    const task = { name: 'split', account_names: ACCOUNTS, sign_at: '03:00', execution_mode: 'fixed', random_seconds: 0, chats: [{ chat_id: `@${bot}`, actions: [{ action: 1, text: '/checkin' }] }] };
    expect((await requestJson(panel.url, '/api/sign-tasks', { method: 'POST', token, body: task })).status).toBe(201);
  };

  beforeAll(() => {
    bot = telegram.addBot({ username: 'h5_partial_bot', onMessage: () => ({ text: 'Checked in' }) }).username;
  });

  afterEach(() => {
    telegram.setLatency(0);
  });

  it('answers a run, a cancel and a keep-alive run of one instance with no failures', async () => {
    const panel = await start();
    const token = await loginAsAdmin(panel);
    await addAccountsAndTask(panel, token);
    telegram.setLatency(1_000);
    const run = await requestJson<{ runs: Array<{ account_name: string }>; failures: Failure[] }>(panel.url, '/api/sign-tasks/split/run', { method: 'POST', token, body: {} });
    expect(run.status).toBe(202);
    expect(run.body.runs.map((started) => started.account_name).sort()).toEqual(ACCOUNTS);
    expect(run.body.failures).toEqual([]);
    const cancel = await requestJson<{ cancelled: number; failures: Failure[] }>(panel.url, '/api/sign-tasks/split/run/cancel', { method: 'POST', token });
    expect(cancel.body).toMatchObject({ cancelled: 2, failures: [] });
    await waitFor(() => panel.app.get(RunRegistry).active().length === 0, 20_000);
    telegram.setLatency(0);
    const keepalive = await requestJson<{ results: unknown[]; failures: Failure[] }>(panel.url, '/api/config/settings/device-keepalive/run', { method: 'POST', token, body: { force: true } });
    expect(keepalive.status).toBe(200);
    expect(keepalive.body.results).toHaveLength(2);
    expect(keepalive.body.failures).toEqual([]);
  });

  if (testDatabaseDriver() !== 'postgres') return;

  it('starts, stops and wakes what the reachable replica owns and names the replica that did not answer', async () => {
    const one = await start();
    const token = await loginAsAdmin(one);
    await addAccountsAndTask(one, token);
    const two = await start({ APP_CLUSTER_ADDRESS: DEAD_ADDRESS });
    const oneCluster = one.app.get(ClusterService);
    const twoCluster = two.app.get(ClusterService);
    await waitFor(() => oneCluster.ownedAccounts().length === 1 && twoCluster.ownedAccounts().length === 1, 10 * LEASE_SECONDS * 1000, 50);
    const [oneOwns] = oneCluster.ownedAccounts();
    const [twoOwns] = twoCluster.ownedAccounts();

    // The run of the reachable owner starts and stays started; the other account is named with the error.
    telegram.setLatency(1_500);
    const run = await requestJson<{ runs: Array<{ account_name: string }>; failures: Failure[] }>(one.url, '/api/sign-tasks/split/run', { method: 'POST', token, body: {} });
    expect([run.status, run.text]).toEqual([202, expect.any(String)]);
    expect(run.body.runs.map((started) => started.account_name)).toEqual([oneOwns]);
    expect(run.body.failures).toEqual([{ account_name: twoOwns, code: 'service_unavailable', message: expect.any(String) }]);
    expect(one.app.get(RunRegistry).active().map((active) => active.account_name)).toEqual([oneOwns]);
    // The list of runs in progress has the reachable replica's run and names the replica it could not ask.
    const active = await requestJson<{ runs: Array<{ account_name: string; replica_id: string }>; failures: Failure[] }>(one.url, '/api/sign-tasks/runs/active', { token });
    expect(active.status).toBe(200);
    expect(active.body.runs.map((item) => [item.account_name, item.replica_id])).toEqual([[oneOwns, oneCluster.replicaId]]);
    expect(active.body.failures).toEqual([{ replica_id: twoCluster.replicaId, code: 'service_unavailable', message: expect.any(String) }]);

    // The cancel stops the run here and names the replica it could not ask.
    const cancel = await requestJson<{ cancelled: number; failures: Failure[] }>(one.url, '/api/sign-tasks/split/run/cancel', { method: 'POST', token });
    expect([cancel.status, cancel.text]).toEqual([200, expect.any(String)]);
    expect(cancel.body).toEqual({ task_name: 'split', cancelled: 1, failures: [{ replica_id: twoCluster.replicaId, code: 'service_unavailable', message: expect.any(String) }] });
    await waitFor(() => one.app.get(RunRegistry).active().length === 0, 20_000);
    telegram.setLatency(0);

    // Keep-alive: the accounts of the replica that answered, and the one that did not.
    const keepalive = await requestJson<{ results: Array<{ account_name: string; outcome: string }>; failures: Failure[] }>(one.url, '/api/config/settings/device-keepalive/run', {
      method: 'POST',
      token,
      body: { force: true },
    });
    expect([keepalive.status, keepalive.text]).toEqual([200, expect.any(String)]);
    expect(keepalive.body.results.map((result) => [result.account_name, result.outcome])).toEqual([[oneOwns, 'woken']]);
    expect(keepalive.body.failures).toEqual([{ replica_id: twoCluster.replicaId, code: 'service_unavailable', message: expect.any(String) }]);
  });
});
