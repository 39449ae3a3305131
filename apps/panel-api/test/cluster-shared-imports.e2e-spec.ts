import { requestJson, testDatabaseDriver } from '@shared/testing';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { clusterReplicas } from './cluster-harness';
import { loginAsAdmin } from './harness';
import { TelegramSimulator } from './telegram-simulator';

const ACCOUNTS = ['imp-a', 'imp-b', 'imp-c'];
const HISTORY_FILES = 300;
const LEGACY_ACCOUNTS = 60;
const LEGACY_TASKS = 300;

/**
 * Issue 31, review item 7: replicas that share one data directory start together; both find the
 * files an earlier version left (`.signer/device_keepalive.json`, `.signer/history/`, `sessions/`,
 * `.signer/tasks/`) and import them.
 * The imports are idempotent and the replica that comes second to setting them aside goes on instead
 * of failing its start. (On SQLite one instance owns the data directory: nothing to race.)
 */
describe('panel-api replicas on one shared data directory import an earlier version\'s files once', () => {
  const telegram = new TelegramSimulator();
  const replicaSet = clusterReplicas({ databaseName: 'h5_cluster_imports', dirPrefix: 'panel-cluster-imports-', jwtSecret: 'h5-cluster-imports-shared-jwt-secret-0123456789', telegram, sharedDataDir: true });
  const start = () => replicaSet.start();

  if (testDatabaseDriver() !== 'postgres') {
    it('SQLite: one instance per data directory (nothing to race)', () => {
      expect(testDatabaseDriver()).toBe('sqlite');
    });
    return;
  }

  it('starts two replicas at once on a data directory holding the keep-alive file and history files; each is imported once', async () => {
    // An earlier version's data directory: its accounts (already in the database) and its files.
    const first = await start();
    const token = await loginAsAdmin(first);
    for (const [index, account] of ACCOUNTS.entries()) {
      const user = telegram.createUser({ phone: `+31 600 570 ${String(index).padStart(3, '0')}` });
      expect((await requestJson(first.url, '/api/accounts/import-session', { method: 'POST', token, body: { account_name: account, session_string: telegram.issueSession(user.id) } })).status).toBe(201);
    }
    await first.stop();
    replicaSet.panels.splice(0);
    const signer = join(replicaSet.sharedDataDir, '.signer');
    const lastKeepalive = '2026-01-02T03:04:05.000Z';
    writeFileSync(
      join(signer, 'device_keepalive.json'),
      JSON.stringify({ accounts: Object.fromEntries(ACCOUNTS.map((account) => [account, { last_keepalive_at: lastKeepalive, last_attempt_at: lastKeepalive, last_code: 'OK', last_message: 'Woken' }])) }),
    );
    const history = join(signer, 'history', 'daily');
    mkdirSync(history, { recursive: true });
    // Many files: the import takes long enough for both starts to be in it at once.
    for (let index = 0; index < HISTORY_FILES; index++) {
      const runId = randomUUID();
      writeFileSync(join(history, `${runId}.json`), JSON.stringify({ run_id: runId, task_name: 'daily', started_at: lastKeepalive, flow_log: [] }));
    }

    const started = await Promise.allSettled([start(), start()]);
    expect(started.map((outcome) => (outcome.status === 'rejected' ? String(outcome.reason) : 'started'))).toEqual(['started', 'started']);

    // Set aside once each: no file left to import, one keep-alive file and one history folder holding all the files.
    const names = readdirSync(signer);
    expect(existsSync(join(signer, 'device_keepalive.json'))).toBe(false);
    expect(names.filter((name) => name.startsWith('device_keepalive.json.imported-'))).toHaveLength(1);
    expect(readdirSync(join(signer, 'history'))).toEqual([]);
    const movedHistory = names.filter((name) => name.startsWith('history.imported-'));
    expect(movedHistory).toHaveLength(1);
    expect(readdirSync(join(signer, movedHistory[0], 'daily'))).toHaveLength(HISTORY_FILES);
    // The bookkeeping is in the database once per account.
    const rows = (await replicaSet.panels[0].app.get(DataSource).query(`SELECT "account", "last_keepalive_at" FROM "keepalive_accounts" ORDER BY "account"`)) as Array<{ account: string; last_keepalive_at: string }>;
    expect(rows.map((row) => [row.account, row.last_keepalive_at])).toEqual(ACCOUNTS.map((account) => [account, lastKeepalive]));
  });

  it('starts two replicas at once on a data directory holding sessions/ and .signer/tasks/; each account and task is imported once', async () => {
    // The schema first (one replica on an empty data directory), then an earlier version's folders.
    await start();
    await replicaSet.panels.splice(0)[0].stop();
    const sessions = join(replicaSet.sharedDataDir, 'sessions');
    const tasks = join(replicaSet.sharedDataDir, '.signer', 'tasks');
    mkdirSync(sessions, { recursive: true });
    mkdirSync(tasks, { recursive: true });
    // Many files: each import takes long enough for both starts to be in it at once.
    const accounts = Array.from({ length: LEGACY_ACCOUNTS }, (_, index) => `legacy-${String(index).padStart(3, '0')}`);
    for (const [index, account] of accounts.entries()) {
      const user = telegram.createUser({ phone: `+31 600 571 ${String(index).padStart(3, '0')}` });
      writeFileSync(join(sessions, `${account}.session`), `${telegram.issueSession(user.id)}\n`);
      writeFileSync(join(sessions, `${account}.account.json`), JSON.stringify({ remark: `remark ${index}`, needs_relogin: false, created_at: '2025-02-02T00:00:00.000Z' }));
    }
    const taskNames = Array.from({ length: LEGACY_TASKS }, (_, index) => `legacy-task-${String(index).padStart(3, '0')}`);
    for (const [index, name] of taskNames.entries()) {
      const task = { name, account_name: accounts[index % accounts.length], sign_at: '03:00', execution_mode: 'fixed', enabled: true, chats: [{ chat_id: '@legacy_bot', actions: [{ action: 1, text: 'hi' }] }] };
      writeFileSync(join(tasks, `${name}.json`), JSON.stringify({ ...task, created_at: '2025-01-01T00:00:00.000Z', updated_at: '2025-01-01T00:00:00.000Z' }));
    }

    const started = await Promise.allSettled([start(), start()]);
    expect(started.map((outcome) => (outcome.status === 'rejected' ? String(outcome.reason) : 'started'))).toEqual(['started', 'started']);

    // Set aside once each: an empty sessions/ (made again), one sessions.imported-* and one tasks.imported-* holding every file.
    expect(readdirSync(sessions)).toEqual([]);
    const movedSessions = readdirSync(replicaSet.sharedDataDir).filter((name) => name.startsWith('sessions.imported-'));
    expect(movedSessions).toHaveLength(1);
    expect(readdirSync(join(replicaSet.sharedDataDir, movedSessions[0]))).toHaveLength(2 * LEGACY_ACCOUNTS);
    expect(existsSync(tasks)).toBe(false);
    const movedTasks = readdirSync(join(replicaSet.sharedDataDir, '.signer')).filter((name) => name.startsWith('tasks.imported-'));
    expect(movedTasks).toHaveLength(1);
    expect(readdirSync(join(replicaSet.sharedDataDir, '.signer', movedTasks[0]))).toHaveLength(LEGACY_TASKS);
    // Each once in the database, and both replicas serve them all.
    const dataSource = replicaSet.panels[0].app.get(DataSource);
    const accountRows = (await dataSource.query(`SELECT "name", "sealed_session" IS NOT NULL AS "sealed" FROM "accounts" ORDER BY "name"`)) as Array<{ name: string; sealed: boolean }>;
    expect(accountRows).toEqual(accounts.map((name) => ({ name, sealed: true })));
    const taskRows = (await dataSource.query(`SELECT "name" FROM "sign_tasks" ORDER BY "name"`)) as Array<{ name: string }>;
    expect(taskRows.map((row) => row.name)).toEqual(taskNames);
    for (const panel of replicaSet.panels) {
      const token = await loginAsAdmin(panel);
      const listed = await requestJson<{ accounts: Array<{ account_name: string; remark: string | null }> }>(panel.url, '/api/accounts', { token });
      expect(listed.body.accounts.map((account) => account.account_name)).toEqual(accounts);
      expect(listed.body.accounts[1].remark).toBe('remark 1');
      const listedTasks = await requestJson<{ tasks: Array<{ name: string }> }>(panel.url, '/api/sign-tasks', { token });
      expect(listedTasks.body.tasks.map((task) => task.name).sort()).toEqual(taskNames);
    }
  });
});
