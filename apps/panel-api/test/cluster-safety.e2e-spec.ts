import { createTestPostgresDatabase, requestJson, tempDir, testDatabaseDriver, TestPostgresDatabase } from '@shared/testing';
import { ClusterService } from '../src/app/cluster/cluster.service';
import { AccountGovernor } from '../src/app/governor/account-governor';
import { TELEGRAM_GATEWAY } from '../src/app/telegram/telegram-gateway';
import { TelegramError } from '../src/app/telegram/telegram-error';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';
import { TelegramSimulator } from './telegram-simulator';

interface ClusterBody {
  replicas: Array<{ id: string; accounts: string[] }>;
  accounts: Array<{ name: string; owner: string | null }>;
}
interface Safety {
  paused: boolean;
  day_used: number;
  flood_wait_until: string | null;
}

const LEASE_SECONDS = 3;
const ANSWERED_BY = 'x-panel-replica';

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = await read();
  while (!done(last)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    last = await read();
  }
  return last;
}

/**
 * Issue 35 with issue 31: an account's safety budget lives in the governor of the replica that owns
 * it. Its state and a resume asked of another replica are the owner's, and a replica that takes the
 * account over starts from what the previous owner stored: the day's writes, a FloodWait in force
 * and a pause.
 */
describe('panel-api replicas: the safety budget follows the account', () => {
  const telegram = new TelegramSimulator();
  const panels: RunningPanel[] = [];
  const dirs: Array<ReturnType<typeof tempDir>> = [];
  let database: TestPostgresDatabase | undefined;

  const start = async () => {
    const dir = tempDir('panel-cluster-safety-');
    dirs.push(dir);
    const panel = await startPanel({
      reuse: { dataDir: dir.path, databaseUrl: database?.url },
      env: { APP_CLUSTER_LEASE_SECONDS: String(LEASE_SECONDS), APP_JWT_SECRET: 'cluster-safety-shared-jwt-secret-0123456789abcdef', MSGR_SESSION_MODE: 'string' },
      overrides: [{ provide: TELEGRAM_GATEWAY, useValue: telegram }],
    });
    panels.push(panel);
    return panel;
  };

  beforeEach(async () => {
    if (testDatabaseDriver() === 'postgres') database = await createTestPostgresDatabase('cluster_safety');
  });

  afterEach(async () => {
    for (const panel of panels.splice(0)) await panel.stop();
    await database?.drop();
    database = undefined;
    for (const dir of dirs.splice(0)) dir.remove();
  });

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
    const oneId = one.app.get(ClusterService).replicaId;
    // The account was created on replica one, which took its lease.
    await until(
      async () => (await requestJson<ClusterBody>(two.url, '/api/ops/cluster', { token })).body,
      (body) => body.replicas.length === 2 && body.accounts.some((account) => account.name === 'guarded' && account.owner === oneId),
      10 * LEASE_SECONDS * 1000,
      'both replicas live and the account on replica one',
    );

    // Three writes and a long FloodWait through the owner's governor.
    const governor = one.app.get(AccountGovernor);
    for (let write = 0; write < 3; write++) (await governor.acquire('guarded', `chat-${write}`))();
    await governor.noteFailure('guarded', 'sendMessage', new TelegramError('flood_wait', 'A wait of 7200 seconds is required', { seconds: 7_200 }));

    // Asked of replica two, answered by the owner.
    const seen = await requestJson<Safety>(two.url, '/api/accounts/guarded/safety', { token });
    expect([seen.status, seen.headers.get(ANSWERED_BY)]).toEqual([200, oneId]);
    expect(seen.body).toMatchObject({ paused: true, day_used: 3 });
    expect(Date.parse(seen.body.flood_wait_until ?? '')).toBeGreaterThan(Date.now() + 7_000_000);

    // Replica one stops; replica two takes the account over with what one stored.
    await one.stop();
    const twoId = two.app.get(ClusterService).replicaId;
    await until(
      async () => (await requestJson<ClusterBody>(two.url, '/api/ops/cluster', { token })).body,
      (body) => body.accounts.some((account) => account.name === 'guarded' && account.owner === twoId),
      10 * LEASE_SECONDS * 1000,
      'replica two to take the account over',
    );
    const taken = await until(
      async () => (await requestJson<Safety>(two.url, '/api/accounts/guarded/safety', { token })).body,
      (body) => body.day_used === 3,
      5_000,
      'the stored budget on the new owner',
    );
    expect(taken).toMatchObject({ paused: true, day_used: 3, flood_wait_until: seen.body.flood_wait_until });
    const resumed = await requestJson<Safety>(two.url, '/api/accounts/guarded/safety/resume', { method: 'POST', token });
    expect([resumed.status, resumed.body.paused]).toEqual([200, false]);
  });
});
