import { requestJson } from '@shared/testing';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { AccountRow } from '../src/app/accounts/entities/account-row.entity';
import { AccountStore } from '../src/app/accounts/account-store';
import { loadPanelConfig } from '../src/app/config/panel-config';
import { parseSessionString } from '../src/app/telegram/session-string';
import { clusterReplicas } from './cluster-harness';
import { loginAsAdmin } from './harness';
import { TelegramSimulator } from './telegram-simulator';

interface TaskView {
  name: string;
  sign_at?: string;
  enabled: boolean;
  updated_at: string;
}

const dailyTask = {
  name: 'daily',
  account_name: 'alice',
  sign_at: '08:30',
  execution_mode: 'fixed',
  chats: [{ chat_id: '@checkin_bot', actions: [{ action: 1, text: 'hi' }] }],
};

/**
 * Issue 31 item 1: the database holds tasks and accounts (sessions sealed), so replicas with their
 * own (empty) data directories serve the same ones, and a data directory of an earlier version is
 * moved in once.
 */
describe('panel-api state in the database (tasks, accounts and sealed sessions)', () => {
  const telegram = new TelegramSimulator();
  // Replicas share the token signing key (docs/scaling.md): a request one forwards to another carries the caller's token.
  const replicaSet = clusterReplicas({ databaseName: 'h3_cluster_state', dirPrefix: 'panel-cluster-state-', jwtSecret: 'cluster-state-shared-jwt-secret-0123456789abcdef', telegram });
  const newDir = replicaSet.newDataDir;
  const start = (dataDir: string) => replicaSet.start({ dataDir });

  it('moves the task files of an existing data directory into the database once; a second start changes nothing', async () => {
    const dataDir = newDir();
    const folder = join(dataDir, '.signer', 'tasks');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'daily.json'), JSON.stringify({ ...dailyTask, enabled: true, created_at: '2025-01-01T00:00:00.000Z', updated_at: '2025-01-01T00:00:00.000Z' }));
    writeFileSync(join(folder, 'broken.json'), '{"name": "broken", "chats": 5}');

    const first = await start(dataDir);
    const token = await loginAsAdmin(first);
    const listed = await requestJson<{ tasks: TaskView[] }>(first.url, '/api/sign-tasks', { token });
    expect(listed.body.tasks.map((task) => [task.name, task.sign_at, task.updated_at])).toEqual([['daily', '08:30', '2025-01-01T00:00:00.000Z']]);
    expect(existsSync(folder)).toBe(false);
    const moved = () => readdirSync(join(dataDir, '.signer')).filter((name) => name.startsWith('tasks.imported-'));
    expect(moved()).toHaveLength(1);
    // The unreadable file is kept where the folder went, for a person to look at.
    expect(readdirSync(join(dataDir, '.signer', moved()[0])).sort()).toEqual(['broken.json', 'daily.json']);
    expect((await requestJson(first.url, '/api/sign-tasks/daily/disable', { method: 'POST', token })).status).toBe(200);
    await first.stop();

    const second = await start(dataDir);
    const again = await requestJson<{ tasks: TaskView[] }>(second.url, '/api/sign-tasks', { token: await loginAsAdmin(second) });
    expect(again.body.tasks.map((task) => [task.name, task.enabled])).toEqual([['daily', false]]);
    expect(moved()).toHaveLength(1);
  });

  /**
   * Two replicas: on PostgreSQL each with its own empty data directory; on SQLite (one file, so one
   * host) two processes on one data directory, which share the database the same way.
   */
  const startTwo = async () => {
    const shared = replicaSet.database ? undefined : newDir();
    return [await start(shared ?? newDir()), await start(shared ?? newDir())];
  };

  it('serves the same tasks from two replicas on one database (on PostgreSQL each with its own empty data directory)', async () => {
    const [one, two] = await startTwo();
    const oneToken = await loginAsAdmin(one);
    const twoToken = await loginAsAdmin(two);

    expect((await requestJson(one.url, '/api/sign-tasks', { method: 'POST', token: oneToken, body: dailyTask })).status).toBe(201);
    // Served by the other at once: a read brings in every write committed before it.
    expect((await requestJson<TaskView>(two.url, '/api/sign-tasks/daily', { token: twoToken })).body).toMatchObject({ name: 'daily', sign_at: '08:30' });
    // The name is taken on every replica.
    expect((await requestJson(two.url, '/api/sign-tasks', { method: 'POST', token: twoToken, body: dailyTask })).status).toBe(409);

    expect((await requestJson(two.url, '/api/sign-tasks/daily', { method: 'PUT', token: twoToken, body: { ...dailyTask, sign_at: '09:45' } })).status).toBe(200);
    expect((await requestJson<TaskView>(one.url, '/api/sign-tasks/daily', { token: oneToken })).body.sign_at).toBe('09:45');

    expect((await requestJson(one.url, '/api/sign-tasks/daily', { method: 'DELETE', token: oneToken })).status).toBe(204);
    expect((await requestJson(two.url, '/api/sign-tasks/daily', { token: twoToken })).status).toBe(404);
    expect((await requestJson(two.url, '/api/sign-tasks/daily', { method: 'DELETE', token: twoToken })).status).toBe(404);
  });

  it('moves the accounts of an existing sessions/ folder into the database once, sessions sealed: no session bytes readable there', async () => {
    const dataDir = newDir();
    const folder = join(dataDir, 'sessions');
    mkdirSync(folder, { recursive: true });
    const alice = telegram.createUser({ phone: '+31 600 310 001' });
    const bob = telegram.createUser({ phone: '+31 600 310 002' });
    const aliceSession = telegram.issueSession(alice.id);
    const bobSession = telegram.issueSession(bob.id);
    const aliceParts = parseSessionString(aliceSession);
    if (!aliceParts) throw new Error('the simulator issued no GramJS session');
    // alice as MSGR_SESSION_MODE=file wrote it, bob as string mode with a metadata file.
    writeFileSync(
      join(folder, 'alice.session.json'),
      JSON.stringify({ format: 'gramjs-session/1', dc_id: aliceParts.dcId, server_address: aliceParts.serverAddress, port: aliceParts.port, auth_key: aliceParts.authKey.toString('base64') }),
    );
    writeFileSync(join(folder, 'bob.session'), `${bobSession}\n`);
    writeFileSync(join(folder, 'bob.account.json'), JSON.stringify({ remark: 'second', needs_relogin: false, created_at: '2025-02-02T00:00:00.000Z' }));
    writeFileSync(join(folder, 'carol.session'), 'not a session');

    const first = await start(dataDir);
    let token = await loginAsAdmin(first);
    const listed = await requestJson<{ accounts: Array<{ account_name: string; remark: string | null; has_session: boolean }> }>(first.url, '/api/accounts', { token });
    expect(listed.body.accounts.map((account) => [account.account_name, account.remark, account.has_session])).toEqual([
      ['alice', null, true],
      ['bob', 'second', true],
    ]);
    expect(readdirSync(folder)).toEqual([]);
    const moved = () => readdirSync(dataDir).filter((name) => name.startsWith('sessions.imported-'));
    expect(moved()).toHaveLength(1);
    expect(readdirSync(join(dataDir, moved()[0])).sort()).toEqual(['alice.session.json', 'bob.account.json', 'bob.session', 'carol.session']);
    // The sessions work: a status check reaches Telegram as each account.
    const check = await requestJson<{ normal: number }>(first.url, '/api/accounts/status/check', { method: 'POST', token, body: { account_names: ['alice', 'bob'] } });
    expect(check.body.normal).toBe(2);

    // Sealed at rest: neither the session strings nor the auth keys (raw, base64 or hex) appear in any column.
    const rows = await first.app.get(DataSource).getRepository(AccountRow).find({ order: { name: 'ASC' } });
    expect(rows.map((row) => row.name)).toEqual(['alice', 'bob']);
    const stored = JSON.stringify(rows);
    for (const session of [aliceSession, bobSession]) {
      const parts = parseSessionString(session);
      if (!parts) throw new Error('unparsable session');
      for (const secret of [session, parts.authKey.toString('base64'), parts.authKey.toString('hex'), parts.authKey.subarray(0, 32).toString('base64')]) expect(stored).not.toContain(secret);
    }
    for (const row of rows) expect(row.sealedSession).toMatch(/^v1\.[0-9a-f]{12}\.[A-Za-z0-9_-]+$/);
    if (!replicaSet.database) {
      // SQLite: the key was generated into the data directory, owner-only, and is never part of a backup.
      expect(readFileSync(join(dataDir, '.app_encryption_key'), 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
      const database = readFileSync(join(dataDir, 'db.sqlite')).toString('latin1') + (existsSync(join(dataDir, 'db.sqlite-wal')) ? readFileSync(join(dataDir, 'db.sqlite-wal')).toString('latin1') : '');
      expect(database).not.toContain(aliceSession);
      expect(database).not.toContain(aliceParts.authKey.toString('latin1'));
    }
    await first.stop();

    // A second start: nothing to import, the accounts as they were.
    const second = await start(dataDir);
    token = await loginAsAdmin(second);
    expect(moved()).toHaveLength(1);
    const again = await requestJson<{ accounts: Array<{ account_name: string }> }>(second.url, '/api/accounts', { token });
    expect(again.body.accounts.map((account) => account.account_name)).toEqual(['alice', 'bob']);
  });

  it('shares accounts between replicas, and refuses to start on PostgreSQL without APP_ENCRYPTION_KEY or APP_JWT_SECRET, saying how to make one', async () => {
    const [one, two] = await startTwo();
    const oneToken = await loginAsAdmin(one);
    const twoToken = await loginAsAdmin(two);
    const dave = telegram.createUser({ phone: '+31 600 310 004' });
    const daveSession = telegram.issueSession(dave.id);
    const imported = await requestJson(one.url, '/api/accounts/import-session', { method: 'POST', token: oneToken, body: { account_name: 'dave', session_string: daveSession } });
    expect(imported.status).toBe(201);
    expect((await requestJson(two.url, '/api/accounts/dave', { token: twoToken })).status).toBe(200);
    // The other replica opens the session sealed by the first (one shared key).
    expect(two.app.get(AccountStore).readSession('dave')).toBe(daveSession);
    // A check asked of either replica is made by the account's owner and answered as on one instance.
    const check = await requestJson<{ normal: number }>(two.url, '/api/accounts/status/check', { method: 'POST', token: twoToken, body: { account_names: ['dave'] } });
    expect(check.body.normal).toBe(1);
    expect((await requestJson(two.url, '/api/accounts/dave', { method: 'DELETE', token: twoToken })).status).toBe(204);
    expect((await requestJson(one.url, '/api/accounts/dave', { token: oneToken })).status).toBe(404);

    const postgresUrl = replicaSet.database?.url ?? 'postgresql://panel@127.0.0.1:5432/panel';
    expect(() => loadPanelConfig({ APP_DATA_DIR: newDir(), APP_DATABASE_URL: postgresUrl })).toThrow(/APP_ENCRYPTION_KEY: is required with PostgreSQL.*openssl rand -hex 32/);
    expect(() => loadPanelConfig({ APP_DATA_DIR: newDir(), APP_DATABASE_URL: postgresUrl, APP_ENCRYPTION_KEY: 'abc' })).toThrow(/APP_ENCRYPTION_KEY: must be 64 hex characters/);
    expect(loadPanelConfig({ APP_DATA_DIR: newDir() }).auth.encryptionKey).toBeUndefined();
    // The token key too: a key generated in each replica's own data directory would not be shared.
    expect(() => loadPanelConfig({ APP_DATA_DIR: newDir(), APP_DATABASE_URL: postgresUrl, APP_ENCRYPTION_KEY: 'ab'.repeat(32) })).toThrow(/APP_JWT_SECRET: is required with PostgreSQL.*openssl rand -hex 32/);
    expect(loadPanelConfig({ APP_DATA_DIR: newDir() }).auth.jwtSecret).toBeUndefined();
  });
});
