import { requestJson, testDatabaseDriver } from '@shared/testing';
import { ClusterService } from '../src/app/cluster/cluster.service';
import { AccountGovernor } from '../src/app/governor/account-governor';
import { TelegramError } from '../src/app/telegram/telegram-error';
import { ClusterBody, clusterReplicas, until } from './cluster-harness';
import { loginAsAdmin } from './harness';
import { TelegramSimulator } from './telegram-simulator';

interface Safety {
  paused: boolean;
  day_used: number;
  flood_wait_until: string | null;
}

const LEASE_SECONDS = 3;
const ANSWERED_BY = 'x-panel-replica';

/**
 * Issue 35 with issue 31: an account's safety budget lives in the governor of the replica that owns
 * it. Its state and a resume asked of another replica are the owner's, and a replica that takes the
 * account over starts from what the previous owner stored: the day's writes, a FloodWait in force
 * and a pause.
 */
describe('panel-api replicas: the safety budget follows the account', () => {
  const telegram = new TelegramSimulator();
  const replicaSet = clusterReplicas({ databaseName: 'cluster_safety', dirPrefix: 'panel-cluster-safety-', jwtSecret: 'cluster-safety-shared-jwt-secret-0123456789abcdef', leaseSeconds: LEASE_SECONDS, telegram, env: { MSGR_SESSION_MODE: 'string' } });
  const start = () => replicaSet.start();

  if (testDatabaseDriver() !== 'postgres') {
    it('SQLite: one instance answers the safety state itself', async () => {
      const panel = await start();
      const token = await loginAsAdmin(panel);
      const user = telegram.createUser({ phone: '+31 600 720 100' });
      expect((await requestJson(panel.url, '/api/accounts/import-session', { method: 'POST', token, body: { account_name: 'solo', session_string: telegram.issueSession(user.id) } })).status).toBe(201);
      const state = await requestJson<Safety>(panel.url, '/api/accounts/solo/safety', { token });
      expect([state.status, state.headers.get(ANSWERED_BY)]).toEqual([200, null]);
    });
    return;
  }

  it('answers state and resume at the owner, and a takeover keeps the day used, the FloodWait and the pause', async () => {
    const one = await start();
    const token = await loginAsAdmin(one);
    const user = telegram.createUser({ phone: '+31 600 720 101' });
    expect((await requestJson(one.url, '/api/accounts/import-session', { method: 'POST', token, body: { account_name: 'guarded', session_string: telegram.issueSession(user.id) } })).status).toBe(201);
    const two = await start();
    // The replica whose share the one account is once both are live (the first by id: see shareOf)
    // owns it: until then a rebalance may be handing it over, and between two owners a request is
    // answered where it arrives.
    const view = await until(
      async () => (await requestJson<ClusterBody>(two.url, '/api/ops/cluster', { token })).body,
      (body) => body.replicas.length === 2 && body.accounts.some((account) => account.name === 'guarded' && account.owner === body.replicas.map((replica) => replica.id).sort()[0]),
      10 * LEASE_SECONDS * 1000,
      'both replicas live and the account at the replica whose share it is',
    );
    const ownerId = view.accounts.find((account) => account.name === 'guarded')?.owner;
    const [owner, other] = one.app.get(ClusterService).replicaId === ownerId ? [one, two] : [two, one];

    // Three writes and a long FloodWait through the owner's governor.
    const governor = owner.app.get(AccountGovernor);
    for (let write = 0; write < 3; write++) (await governor.acquire('guarded', `chat-${write}`))();
    await governor.noteFailure('guarded', 'sendMessage', new TelegramError('flood_wait', 'A wait of 7200 seconds is required', { seconds: 7_200 }));

    // Asked of the other replica, answered by the owner.
    const seen = await requestJson<Safety>(other.url, '/api/accounts/guarded/safety', { token });
    expect([seen.status, seen.headers.get(ANSWERED_BY)]).toEqual([200, ownerId]);
    expect(seen.body).toMatchObject({ paused: true, day_used: 3 });
    expect(Date.parse(seen.body.flood_wait_until ?? '')).toBeGreaterThan(Date.now() + 7_000_000);

    // The owner stops; the other replica takes the account over with what the owner stored.
    await owner.stop();
    const otherId = other.app.get(ClusterService).replicaId;
    await until(
      async () => (await requestJson<ClusterBody>(other.url, '/api/ops/cluster', { token })).body,
      (body) => body.accounts.some((account) => account.name === 'guarded' && account.owner === otherId),
      10 * LEASE_SECONDS * 1000,
      'the other replica to take the account over',
    );
    const taken = await until(
      async () => (await requestJson<Safety>(other.url, '/api/accounts/guarded/safety', { token })).body,
      (body) => body.day_used === 3,
      5_000,
      'the stored budget on the new owner',
    );
    expect(taken).toMatchObject({ paused: true, day_used: 3, flood_wait_until: seen.body.flood_wait_until });
    const resumed = await requestJson<Safety>(other.url, '/api/accounts/guarded/safety/resume', { method: 'POST', token });
    expect([resumed.status, resumed.body.paused]).toEqual([200, false]);
  });
});
