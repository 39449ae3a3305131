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

/**
 * Issue 31, review item 7: replicas that share one data directory start together; both find the
 * files an earlier version left (`.signer/device_keepalive.json`, `.signer/history/`) and import them.
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
});
