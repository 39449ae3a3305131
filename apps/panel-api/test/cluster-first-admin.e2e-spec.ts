import { requestJson, testDatabaseDriver, waitFor } from '@shared/testing';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { AdminBootstrapService, BOOTSTRAP_PASSWORD_CHECK_MS } from '../src/app/auth/admin-bootstrap.service';
import { clusterReplicas } from './cluster-harness';
import { loginAsAdmin, RunningPanel } from './harness';

const PASSWORD_FILE = '.admin_bootstrap_password';

/**
 * Issue 31: replicas on PostgreSQL started at once without ADMIN_PASSWORD, each with its own empty
 * data directory, create exactly one admin, and every replica's data directory holds its generated
 * password (whichever pod a person opens), until the password is changed on any of them. On SQLite
 * the one instance does as before.
 */
describe('panel-api replicas starting at once without ADMIN_PASSWORD: one admin, its password on every replica', () => {
  const replicaSet = clusterReplicas({ databaseName: 'h1_cluster_first_admin', dirPrefix: 'panel-cluster-first-admin-', jwtSecret: 'h1-cluster-first-admin-shared-jwt-secret-0123', leaseSeconds: 3, env: { ADMIN_PASSWORD: '' } });

  const passwordFileOf = (panel: RunningPanel) => join(panel.dataDir, PASSWORD_FILE);

  it('creates one admin; each replica writes the same generated password into its own data directory and removes it once the password changed', async () => {
    const count = testDatabaseDriver() === 'postgres' ? 3 : 1;
    const replicas = await Promise.all(Array.from({ length: count }, () => replicaSet.start()));

    const admins = (await replicas[0].app.get(DataSource).query('SELECT "username" FROM "admin_users"')) as Array<{ username: string }>;
    expect(admins).toEqual([{ username: 'admin' }]);
    const passwords = replicas.map((panel) => readFileSync(passwordFileOf(panel), 'utf8').trim());
    expect(new Set(passwords).size).toBe(1);
    const [password] = passwords;
    expect(password.length).toBeGreaterThanOrEqual(16);
    for (const panel of replicas) expect(statSync(passwordFileOf(panel)).mode & 0o777).toBe(0o600);
    // The password opens the admin on every replica (one after the other: guesses at one account from anywhere are slowed).
    const tokens: string[] = [];
    for (const panel of replicas) tokens.push(await loginAsAdmin(panel, password));

    if (testDatabaseDriver() === 'postgres') {
      // It is sealed in the database, not readable there.
      const rows = (await replicas[0].app.get(DataSource).query(`SELECT "sealed" FROM "shared_secrets" WHERE "name" = 'admin_bootstrap_password'`)) as Array<{ sealed: string }>;
      expect(rows).toHaveLength(1);
      expect(rows[0].sealed).not.toContain(password);
      // A replica that joins later writes it too, while it is unchanged.
      replicas.push(await replicaSet.start());
      expect(readFileSync(passwordFileOf(replicas[replicas.length - 1]), 'utf8').trim()).toBe(password);
    }

    const changed = await requestJson(replicas[0].url, '/api/auth/password', { method: 'PUT', token: tokens[0], body: { current_password: password, new_password: 'chosen by the owner, long enough' } });
    expect(changed.status).toBe(200);
    expect(existsSync(passwordFileOf(replicas[0]))).toBe(false);
    // Every other replica removes its copy at its next check.
    await waitFor(async () => replicas.every((panel) => !existsSync(passwordFileOf(panel))), BOOTSTRAP_PASSWORD_CHECK_MS * 3);
    const secrets = (await replicas[0].app.get(DataSource).query('SELECT "name" FROM "shared_secrets"')) as Array<{ name: string }>;
    expect(secrets.map((row) => row.name)).not.toContain('admin_bootstrap_password');

    if (testDatabaseDriver() === 'postgres') {
      // A replica that starts after the change writes no file.
      const late = await replicaSet.start();
      expect(existsSync(passwordFileOf(late))).toBe(false);
      expect((await requestJson(late.url, '/api/auth/login', { method: 'POST', body: { username: 'admin', password: 'chosen by the owner, long enough' } })).status).toBe(200);
    }
  }, 90_000);

  it('PostgreSQL: the first start of three replicas racing each other (their bootstraps run at the same moment) still makes one admin with one password', async () => {
    if (testDatabaseDriver() !== 'postgres') return;
    const replicas = [await replicaSet.start(), await replicaSet.start(), await replicaSet.start()];
    const database = replicas[0].app.get(DataSource);
    // Back to before the first start: no admin, no generated password, no files.
    await database.query('DELETE FROM "admin_users"');
    await database.query('DELETE FROM "shared_secrets"');
    for (const panel of replicas) rmSync(passwordFileOf(panel), { force: true });

    await Promise.all(replicas.map((panel) => panel.app.get(AdminBootstrapService).onModuleInit()));

    expect(((await database.query('SELECT count(*)::int AS "n" FROM "admin_users"')) as Array<{ n: number }>)[0].n).toBe(1);
    const passwords = new Set(replicas.map((panel) => readFileSync(passwordFileOf(panel), 'utf8').trim()));
    expect(passwords.size).toBe(1);
    const [password] = [...passwords];
    for (const panel of replicas) expect((await requestJson(panel.url, '/api/auth/login', { method: 'POST', body: { username: 'admin', password } })).status).toBe(200);
  }, 90_000);
});
