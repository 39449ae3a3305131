import { requestJson, testDatabaseDriver } from '@shared/testing';
import { DataSource } from 'typeorm';
import { clusterReplicas, OpenStream, openStream } from './cluster-harness';
import { loginAsAdmin, RunningPanel, TEST_ADMIN_PASSWORD } from './harness';

/** Resolves with the stream's end time, or rejects after `timeoutMs`: the keep-alive beat (15 s) must not be what ends it. */
async function endsWithin(stream: OpenStream, timeoutMs: number, what: string): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not end within ${timeoutMs} ms: ${stream.text()}`)), timeoutMs);
  });
  try {
    return await Promise.race([stream.ended, late]);
  } finally {
    if (timer) clearTimeout(timer);
  }
}

const LEASE_SECONDS = 3;

/**
 * Issue 31 item 4: failed logins count across replicas (the login throttle's records are in the
 * database on PostgreSQL), and a logout or a password change on one replica ends the event streams
 * of the revoked tokens on every replica at once (LISTEN/NOTIFY), not at their next keep-alive check.
 * On SQLite the one instance keeps its throttle in memory, as before.
 */
describe('panel-api replicas: login throttle and token revocation across replicas', () => {
  const streams: OpenStream[] = [];

  const replicaSet = clusterReplicas({ databaseName: 'h1_cluster_auth', dirPrefix: 'panel-cluster-auth-', jwtSecret: 'h1-cluster-auth-shared-jwt-secret-0123456789abc', leaseSeconds: LEASE_SECONDS });
  const start = () => replicaSet.start();
  const login = (panel: RunningPanel, username: string, password: string) =>
    requestJson<{ access_token?: string; code?: string }>(panel.url, '/api/auth/login', { method: 'POST', body: { username, password } });

  afterEach(() => {
    for (const stream of streams.splice(0)) stream.abort();
  });

  it('blocks a client after five failed logins spread over the replicas, even with the right password', async () => {
    const replicas = testDatabaseDriver() === 'postgres' ? [await start(), await start()] : [await start()];
    // Unknown user names: only the per-address throttle counts them (not the per-account delay).
    for (let attempt = 0; attempt < 5; attempt++) {
      const failed = await login(replicas[attempt % replicas.length], `nobody-${attempt}`, 'wrong password');
      expect(failed.status).toBe(401);
      expect(failed.body.code).toBe('invalid_credentials');
    }
    for (const panel of replicas) {
      const blocked = await login(panel, 'admin', TEST_ADMIN_PASSWORD);
      expect(blocked.status).toBe(429);
      expect(blocked.body.code).toBe('rate_limited');
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(890);
    }
    if (testDatabaseDriver() === 'postgres') {
      const rows = (await replicas[0].app.get(DataSource).query(`SELECT "scope", "client", "blocked_until" FROM "login_throttles"`)) as Array<{ scope: string; client: string }>;
      expect(rows.map((row) => [row.scope, row.client])).toEqual([['login', '127.0.0.1']]);
    }
  });

  if (testDatabaseDriver() !== 'postgres') return;

  it('forgets the failures counted on one replica when the client logs in on the other', async () => {
    const one = await start();
    const two = await start();
    for (let attempt = 0; attempt < 4; attempt++) expect((await login(one, 'nobody', 'wrong password')).status).toBe(401);
    // A success on the other replica forgets the four.
    expect((await login(two, 'admin', TEST_ADMIN_PASSWORD)).status).toBe(200);
    expect((await login(one, 'nobody', 'wrong password')).status).toBe(401);
    expect((await login(one, 'admin', TEST_ADMIN_PASSWORD)).status).toBe(200);
  });

  it('ends the event streams of a token logged out, or of every token after a password change, on the other replica at once', async () => {
    const one = await start();
    const two = await start();
    const first = await loginAsAdmin(one);
    const second = await loginAsAdmin(two);
    const firstOnTwo = await openStream(two.url, first);
    const secondOnTwo = await openStream(two.url, second);
    streams.push(firstOnTwo, secondOnTwo);
    const ready = Date.now();
    while (!firstOnTwo.text().includes('event: ready') || !secondOnTwo.text().includes('event: ready')) {
      if (Date.now() - ready > 5_000) throw new Error('the streams did not open');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    // A logout on replica one ends that token's stream on replica two; the other token's stream stays.
    const loggedOutAt = Date.now();
    expect((await requestJson(one.url, '/api/auth/logout', { method: 'POST', token: first })).status).toBe(204);
    const endedAt = await endsWithin(firstOnTwo, 3_000, 'the logged-out token\'s stream on the other replica');
    expect(endedAt - loggedOutAt).toBeLessThan(3_000);
    expect(firstOnTwo.text()).toContain('event: close\ndata: {"reason":"token_revoked"}');
    expect(secondOnTwo.text()).not.toContain('event: close');
    expect((await requestJson(two.url, '/api/auth/me', { token: first })).status).toBe(401);

    // A password change on replica one ends every older token's stream on replica two.
    const changed = await requestJson(one.url, '/api/auth/password', {
      method: 'PUT',
      token: second,
      body: { current_password: TEST_ADMIN_PASSWORD, new_password: 'another good password for h1' },
    });
    const changedAt = Date.now();
    expect(changed.status).toBe(200);
    const secondEndedAt = await endsWithin(secondOnTwo, 3_000, 'the stream of a token older than the password change');
    expect(secondEndedAt - changedAt).toBeLessThan(3_000);
    expect(secondOnTwo.text()).toContain('event: close\ndata: {"reason":"token_revoked"}');
    expect((await requestJson(two.url, '/api/auth/me', { token: second })).status).toBe(401);
  });
});
