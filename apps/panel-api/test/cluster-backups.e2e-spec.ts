import { requestJson, testDatabaseDriver, waitFor } from '@shared/testing';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { BackupKeyService } from '../src/app/backups/backup-key.service';
import { BackupService, LOCAL_BACKUP_FOLDER } from '../src/app/backups/backup.service';
import { restoreBackupArchive } from '../src/app/backups/restore-archive';
import { ClusterService } from '../src/app/cluster/cluster.service';
import { DataDirectory } from '../src/app/data-dir/data-directory';
import { clusterReplicas } from './cluster-harness';
import { loginAsAdmin, RunningPanel } from './harness';

const LEASE_SECONDS = 3;

interface LocalBackup {
  name: string;
  size_bytes: number;
  replica_id: string | null;
  available: boolean;
}

/**
 * Issue 31: backups with replicas on PostgreSQL, each with its own data directory. One backup key
 * for all of them (in the database, sealed), so an archive made on one restores with the key of any
 * other; the archives kept on a replica's disk are listed, downloaded and deleted through any
 * replica. On SQLite the one instance does the same with its own key file.
 */
describe('panel-api backups across replicas with their own data directories', () => {
  const replicaSet = clusterReplicas({ databaseName: 'h1_cluster_backups', dirPrefix: 'panel-cluster-backups-', jwtSecret: 'h1-cluster-backups-shared-jwt-secret-0123456789', leaseSeconds: LEASE_SECONDS });
  const postgres = testDatabaseDriver() === 'postgres';

  async function startReplicas(): Promise<{ maker: RunningPanel; other: RunningPanel; token: string }> {
    const maker = await replicaSet.start();
    const other = postgres ? await replicaSet.start() : maker;
    return { maker, other, token: await loginAsAdmin(maker) };
  }

  const localBackupsOf = async (panel: RunningPanel, token: string) => (await requestJson<{ local_backups: LocalBackup[] }>(panel.url, '/api/ops/backup/status', { token })).body.local_backups;

  it('signs every archive with one shared key: an archive made on one replica restores with the key of another', async () => {
    const { maker, other, token } = await startReplicas();
    // On one instance the key file is made with the first backup (as before); replicas agree on it at start.
    if (!postgres) await maker.app.get(BackupKeyService).key();
    const keyOfMaker = readFileSync(new DataDirectory(maker.dataDir).backupKeyFile, 'utf8').trim();
    const keyOfOther = readFileSync(new DataDirectory(other.dataDir).backupKeyFile, 'utf8').trim();
    expect(keyOfOther).toBe(keyOfMaker);
    expect(await other.app.get(BackupKeyService).key()).toBe(keyOfMaker);
    if (postgres) {
      const rows = (await maker.app.get(DataSource).query(`SELECT "sealed" FROM "shared_secrets" WHERE "name" = 'backup_key'`)) as Array<{ sealed: string }>;
      expect(rows).toHaveLength(1);
      expect(rows[0].sealed).not.toContain(keyOfMaker);
    }

    const response = await fetch(`${maker.url}/api/ops/backup/export?target=download`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    const archive = join(replicaSet.newDataDir(), 'made-on-maker.tar.gz');
    writeFileSync(archive, Buffer.from(await response.arrayBuffer()));

    // Restored into a fresh directory with the other replica's key: accepted.
    const target = join(replicaSet.newDataDir(), 'restored');
    mkdirSync(target, { mode: 0o700 });
    const { files } = await restoreBackupArchive(archive, target, { key: await other.app.get(BackupKeyService).key(), keep: [] });
    expect(files).toBeGreaterThan(0);
    // …and refused under any other key.
    const refused = join(replicaSet.newDataDir(), 'refused');
    mkdirSync(refused, { mode: 0o700 });
    await expect(restoreBackupArchive(archive, refused, { key: 'k'.repeat(64), keep: [] })).rejects.toThrow(/integrity check/);
  }, 60_000);

  it('imports a data directory\'s existing .backup_key once as the shared key', async () => {
    const dataDir = replicaSet.newDataDir();
    const earlier = 'e'.repeat(64);
    writeFileSync(join(dataDir, '.backup_key'), `${earlier}\n`, { mode: 0o600 });
    const first = await replicaSet.start({ dataDir });
    expect(await first.app.get(BackupKeyService).key()).toBe(earlier);
    if (!postgres) return;
    // A second replica with another key file keeps its file but signs with the shared key.
    const otherDir = replicaSet.newDataDir();
    writeFileSync(join(otherDir, '.backup_key'), `${'o'.repeat(64)}\n`, { mode: 0o600 });
    const second = await replicaSet.start({ dataDir: otherDir });
    expect(await second.app.get(BackupKeyService).key()).toBe(earlier);
    const fresh = await replicaSet.start();
    expect(readFileSync(join(fresh.dataDir, '.backup_key'), 'utf8').trim()).toBe(earlier);
  }, 60_000);

  it('lists, downloads and deletes an archive kept on one replica through another; one whose replica is gone is listed unavailable and can be taken off the list', async () => {
    const { maker, other, token } = await startReplicas();
    const makerId = postgres ? maker.app.get(ClusterService).replicaId : null;
    const first = await maker.app.get(BackupService).runAutomaticBackup(new Date('2026-01-02T03:04:05Z'));
    expect([first.ok, first.destination]).toEqual([true, 'local']);
    const name = first.file_name as string;
    const onDisk = readFileSync(join(maker.dataDir, LOCAL_BACKUP_FOLDER, name));

    expect(await localBackupsOf(other, token)).toEqual([expect.objectContaining({ name, size_bytes: onDisk.length, replica_id: makerId, available: true })]);
    const download = await fetch(`${other.url}/api/ops/backup/local/${name}`, { headers: { authorization: `Bearer ${token}` } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/gzip');
    if (postgres) expect(download.headers.get('x-panel-replica')).toBe(makerId);
    expect(Buffer.from(await download.arrayBuffer()).equals(onDisk)).toBe(true);

    // Bad input and a missing archive answer in the service's error shape.
    expect((await requestJson(other.url, '/api/ops/backup/local/..%2Fdb.sqlite', { token })).status).toBe(400);
    const missing = await requestJson<{ code: string }>(other.url, '/api/ops/backup/local/auto-20000101-000000.tar.gz', { token });
    expect([missing.status, missing.body.code]).toEqual([404, 'backup_not_found']);
    expect((await requestJson(other.url, `/api/ops/backup/local/${name}`, { method: 'DELETE' })).status).toBe(401);

    const deleted = await requestJson(other.url, `/api/ops/backup/local/${name}`, { method: 'DELETE', token });
    expect(deleted.status).toBe(204);
    expect(existsSync(join(maker.dataDir, LOCAL_BACKUP_FOLDER, name))).toBe(false);
    expect(await localBackupsOf(other, token)).toEqual([]);

    if (!postgres) return;
    // The replica holding an archive stops for good: its archive is listed as unavailable, a download says why, a delete takes it off the list.
    const second = await maker.app.get(BackupService).runAutomaticBackup(new Date('2026-01-03T03:04:05Z'));
    const kept = second.file_name as string;
    expect(await localBackupsOf(other, token)).toEqual([expect.objectContaining({ name: kept, available: true })]);
    await maker.stop();
    await waitFor(async () => (await localBackupsOf(other, token))[0]?.available === false, LEASE_SECONDS * 1000 + 10_000);
    const gone = await requestJson<{ code: string; message: string }>(other.url, `/api/ops/backup/local/${kept}`, { token });
    expect([gone.status, gone.body.code]).toEqual([404, 'backup_not_found']);
    expect(gone.body.message).toContain(makerId);
    expect((await requestJson(other.url, `/api/ops/backup/local/${kept}`, { method: 'DELETE', token })).status).toBe(204);
    expect(await localBackupsOf(other, token)).toEqual([]);
  }, 90_000);

  it('a replica restarted on its data directory lists the archives it holds again (its index is reconciled at start)', async () => {
    if (!postgres) return;
    const dataDir = replicaSet.newDataDir();
    const env = { APP_CLUSTER_REPLICA_ID: 'h1-backups-restarted' };
    const first = await replicaSet.start({ dataDir, env });
    const token = await loginAsAdmin(first);
    const made = await first.app.get(BackupService).runAutomaticBackup(new Date('2026-01-04T03:04:05Z'));
    await first.app.get(DataSource).query('DELETE FROM "local_backups"');
    await first.stop();
    expect(readdirSync(join(dataDir, LOCAL_BACKUP_FOLDER))).toEqual([made.file_name]);
    const again = await replicaSet.start({ dataDir, env });
    expect(await localBackupsOf(again, token)).toEqual([expect.objectContaining({ name: made.file_name, replica_id: 'h1-backups-restarted', available: true })]);
  }, 60_000);
});
