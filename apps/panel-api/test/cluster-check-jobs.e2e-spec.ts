import { requestJson, testDatabaseDriver, waitFor } from '@shared/testing';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { AccountCheckJobsService } from '../src/app/accounts/account-check-jobs.service';
import { CLUSTER_TIMINGS } from '../src/app/cluster/cluster-timings';
import { ClusterService } from '../src/app/cluster/cluster.service';
import { clusterReplicas } from './cluster-harness';
import { loginAsAdmin, RunningPanel } from './harness';
import { TelegramSimulator } from './telegram-simulator';

const LEASE_SECONDS = 3;
const ACCOUNTS = ['job-a', 'job-b', 'job-c'];

interface JobView {
  job_id: string;
  status: string;
  error: string | null;
  finished_at: string | null;
  progress: { done: number; total: number };
}

/**
 * Issue 31: status-check jobs are rows of `check_jobs`, so replicas with their own data directories
 * answer any job: its status from the row, a cancel marked in the row and seen by the replica that
 * runs it, and a job whose replica died ends as `interrupted` instead of running forever.
 */
describe('panel-api replicas with their own data directories: status check jobs in the database', () => {
  const telegram = new TelegramSimulator();
  const replicaSet = clusterReplicas({ databaseName: 'h1_cluster_check_jobs', dirPrefix: 'panel-cluster-check-jobs-', jwtSecret: 'h1-cluster-check-jobs-shared-jwt-secret-012345', leaseSeconds: LEASE_SECONDS, telegram });

  afterEach(() => {
    telegram.setLatency(0);
  });

  async function withAccounts(panel: RunningPanel, token: string): Promise<void> {
    for (const [index, account] of ACCOUNTS.entries()) {
      const user = telegram.createUser({ phone: `+31 600 581 ${String(index).padStart(3, '0')}` });
      expect((await requestJson(panel.url, '/api/accounts/import-session', { method: 'POST', token, body: { account_name: account, session_string: telegram.issueSession(user.id) } })).status).toBe(201);
    }
  }

  const jobOf = async (panel: RunningPanel, token: string, jobId: string) => requestJson<JobView>(panel.url, `/api/accounts/status/check-jobs/${jobId}`, { token });

  it('answers a job from every replica and ends it cancelled where it runs when another replica is asked to cancel (SQLite: one instance)', async () => {
    const one = await replicaSet.start();
    const token = await loginAsAdmin(one);
    await withAccounts(one, token);
    const replicas = testDatabaseDriver() === 'postgres' ? [one, await replicaSet.start()] : [one];
    const runner = replicas[replicas.length - 1];

    telegram.setLatency(1_500);
    const started = await requestJson<{ job_id: string }>(runner.url, '/api/accounts/status/check-jobs', { method: 'POST', token, body: { timeout_seconds: 10 } });
    expect(started.status).toBe(202);
    const jobId = started.body.job_id;
    for (const panel of replicas) {
      const job = await jobOf(panel, token, jobId);
      expect([job.status, job.body.status]).toEqual([200, 'running']);
      // Not forwarded: every replica reads the row itself.
      expect(job.headers.get('x-panel-replica')).toBeNull();
    }

    // Asked of the first replica, the cancel reaches the replica that runs the job.
    const cancel = await requestJson<JobView>(one.url, `/api/accounts/status/check-jobs/${jobId}/cancel`, { method: 'POST', token });
    expect([cancel.status, cancel.body.status]).toEqual([202, 'canceling']);
    let job: JobView | undefined;
    await waitFor(async () => {
      job = (await jobOf(one, token, jobId)).body;
      return job.status === 'canceled';
    }, 20_000);
    expect(job?.progress.done).toBeLessThanOrEqual(ACCOUNTS.length);
    expect(job).not.toHaveProperty('replica_id');
    // Nothing of the job is in a data directory.
    for (const panel of replicas) expect(existsSync(join(panel.dataDir, '.signer', 'jobs', `${jobId}.json`))).toBe(false);
    // Ended: a second cancel is refused everywhere.
    for (const panel of replicas) expect((await requestJson(panel.url, `/api/accounts/status/check-jobs/${jobId}/cancel`, { method: 'POST', token })).status).toBe(409);
  }, 60_000);

  it('ends a job whose replica stopped heartbeating as interrupted, and that replica stops it when it comes back', async () => {
    if (testDatabaseDriver() !== 'postgres') return;
    const one = await replicaSet.start();
    const token = await loginAsAdmin(one);
    await withAccounts(one, token);
    // The test beats for the second replica (its own timer waits an hour): stopping the beat is its death.
    const two = await replicaSet.start({ overrides: [{ provide: CLUSTER_TIMINGS, useValue: { heartbeatMs: 3_600_000 } }] });
    const cluster = two.app.get(ClusterService);
    let beating: NodeJS.Timeout | undefined = setInterval(() => void cluster.heartbeat().catch(() => undefined), 500);
    try {
      await waitFor(async () => (await one.app.get(ClusterService).otherReplicas()).some((replica) => replica.id === cluster.replicaId), 10_000);
      telegram.setLatency(12_000);
      const started = await requestJson<{ job_id: string }>(two.url, '/api/accounts/status/check-jobs', { method: 'POST', token, body: { timeout_seconds: 20 } });
      expect(started.status).toBe(202);
      const jobId = started.body.job_id;
      expect((await jobOf(one, token, jobId)).body.status).toBe('running');

      clearInterval(beating);
      beating = undefined;
      let job: JobView | undefined;
      await waitFor(async () => {
        job = (await jobOf(one, token, jobId)).body;
        return job.status !== 'running';
      }, LEASE_SECONDS * 1000 + 5_000);
      expect(job?.status).toBe('interrupted');
      expect(job?.error).toContain(cluster.replicaId);
      expect(job?.finished_at).toEqual(expect.any(String));

      // The replica comes back: its job's next write is refused and it stops; the row stays interrupted.
      beating = setInterval(() => void cluster.heartbeat().catch(() => undefined), 500);
      telegram.setLatency(0);
      await waitFor(async () => {
        await two.app.get(AccountCheckJobsService).idle();
        return true;
      }, 30_000);
      const rows = (await two.app.get(DataSource).query('SELECT "status" FROM "check_jobs" WHERE "job_id" = $1', [jobId])) as Array<{ status: string }>;
      expect(rows).toEqual([{ status: 'interrupted' }]);
      expect((await jobOf(two, token, jobId)).body.status).toBe('interrupted');
      // The replica is free for a new job.
      expect((await requestJson(two.url, '/api/accounts/status/check-jobs', { method: 'POST', token, body: {} })).status).toBe(202);
    } finally {
      clearInterval(beating);
    }
  }, 90_000);
});
