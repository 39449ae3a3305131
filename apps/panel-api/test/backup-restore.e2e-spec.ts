import { requestJson, tempDir } from '@shared/testing';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { AccountStore } from '../src/app/accounts/account-store';
import { encodeSessionString } from '../src/app/telegram/session-string';
import { loginAsAdmin, RunningPanel, startPanel, TEST_ADMIN_PASSWORD } from './harness';

const NEW_PASSWORD = 'changed after the backup';

/**
 * The documented manual restore: stop the service, extract the archive over the data directory
 * (which still holds -wal/-shm files of the old database, as after a crash), start, log in with
 * the original account.
 */
describe('restore by extracting a backup over the data directory', () => {
  let panel: RunningPanel & { databaseUrl?: string };
  let restored: RunningPanel | undefined;
  const work = tempDir('restore-e2e-');

  afterAll(async () => {
    await restored?.close();
    if (!restored) await panel?.close();
    work.remove();
  });

  it('gives a working service with the data of the backup, even with stale SQLite -wal/-shm files present', async () => {
    panel = await startPanel();
    const sqlite = panel.config.database.driver === 'sqlite';
    let token = await loginAsAdmin(panel);
    expect((await requestJson(panel.url, '/api/config/settings', { method: 'PUT', token, body: { timezone: 'Europe/Berlin' } })).status).toBe(200);
    const session = encodeSessionString({ dcId: 2, serverAddress: '149.154.167.51', port: 443, authKey: randomBytes(256) });
    const imported = await requestJson(panel.url, '/api/accounts/import-session', { method: 'POST', token, body: { account_name: 'alice', session_string: session, remark: 'at backup time' } });
    expect(imported.status).toBe(201);

    const response = await fetch(`${panel.url}/api/ops/backup/export`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    const archive = join(work.path, 'backup.tar.gz');
    writeFileSync(archive, Buffer.from(await response.arrayBuffer()));

    // Changes after the backup, all in the database: the password, an account, a setting.
    const changed = await requestJson<{ access_token: string }>(panel.url, '/api/auth/password', {
      method: 'PUT',
      token,
      body: { current_password: TEST_ADMIN_PASSWORD, new_password: NEW_PASSWORD },
    });
    expect(changed.status).toBe(200);
    token = changed.body.access_token;
    expect((await requestJson(panel.url, '/api/config/settings', { method: 'PUT', token, body: { timezone: 'Asia/Tokyo' } })).status).toBe(200);
    expect((await requestJson(panel.url, '/api/accounts/alice', { method: 'PATCH', token, body: { remark: 'after the backup' } })).status).toBe(200);

    // A crash leaves the write-ahead log (holding the password change) next to the database.
    const wal = join(panel.dataDir, 'db.sqlite-wal');
    const shm = join(panel.dataDir, 'db.sqlite-shm');
    if (sqlite) {
      expect(statSync(wal).size).toBeGreaterThan(0);
      copyFileSync(wal, join(work.path, 'stale-wal'));
      copyFileSync(shm, join(work.path, 'stale-shm'));
    }
    await panel.stop();
    if (sqlite) {
      copyFileSync(join(work.path, 'stale-wal'), wal);
      copyFileSync(join(work.path, 'stale-shm'), shm);
    }

    execFileSync('tar', ['-xzf', archive, '-C', panel.dataDir]);
    expect(existsSync(join(panel.dataDir, '.admin_bootstrap_password'))).toBe(false);

    restored = await startPanel({ reuse: { dataDir: panel.dataDir, databaseUrl: panel.databaseUrl } });
    expect((await requestJson(restored.url, '/readyz')).status).toBe(200);
    if (sqlite) {
      // The database of the backup: the original password works, the later one does not.
      const restoredToken = await loginAsAdmin(restored);
      const refused = await requestJson(restored.url, '/api/auth/login', { method: 'POST', body: { username: 'admin', password: NEW_PASSWORD } });
      expect(refused.status).toBe(401);
      token = restoredToken;
    } else {
      // PostgreSQL is not in the archive (its manifest says so): the database keeps its own state.
      token = await loginAsAdmin(restored, NEW_PASSWORD);
    }
    const settings = await requestJson<{ timezone: string }>(restored.url, '/api/config/settings', { token });
    // The settings are rows of the database like the accounts: the backup's on SQLite; on PostgreSQL the
    // archive does not hold the database (pg_dump does), so they stay as they are.
    expect(settings.body.timezone).toBe(sqlite ? 'Europe/Berlin' : 'Asia/Tokyo');
    // The account (in the database) is the backup's on SQLite; its sealed session opens with the key the data directory kept.
    const alice = await requestJson<{ remark: string; has_session: boolean }>(restored.url, '/api/accounts/alice', { token });
    expect(alice.body).toMatchObject({ remark: sqlite ? 'at backup time' : 'after the backup', has_session: true });
    expect(restored.app.get(AccountStore).readSession('alice')).toBe(session);
    // The restored service writes to its database normally.
    expect((await requestJson(restored.url, '/api/config/settings', { method: 'PUT', token, body: { timezone: 'UTC' } })).status).toBe(200);
    const changedAgain = await requestJson(restored.url, '/api/auth/password', {
      method: 'PUT',
      token,
      body: { current_password: sqlite ? TEST_ADMIN_PASSWORD : NEW_PASSWORD, new_password: 'a third password' },
    });
    expect(changedAgain.status).toBe(200);
  });
});
