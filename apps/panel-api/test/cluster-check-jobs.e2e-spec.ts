import { requestJson, testDatabaseDriver, waitFor } from '@shared/testing';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ClusterService } from '../src/app/cluster/cluster.service';
import { clusterReplicas } from './cluster-harness';
import { loginAsAdmin } from './harness';
import { TelegramSimulator } from './telegram-simulator';

const LEASE_SECONDS = 3;
const ACCOUNTS = ['job-a', 'job-b', 'job-c'];

interface JobView {
  job_id: string;
  status: string;
  progress: { done: number; total: number };
}

/**
 * Issue 31, review item 5: replicas sharing one data directory all see every status check job file.
 * The file names the replica that runs the job: a cancel asked of another replica is forwarded there
 * (not answered 409 from the file), and a replica that starts leaves a live replica's running job alone.
 */
describe('panel-api replicas on one shared data directory: status check jobs belong to the replica that runs them', () => {
  const telegram = new TelegramSimulator();
  const replicaSet = clusterReplicas({ databaseName: 'h5_cluster_check_jobs', dirPrefix: 'panel-cluster-check-jobs-', jwtSecret: 'h5-cluster-check-jobs-shared-jwt-secret-012345', leaseSeconds: LEASE_SECONDS, telegram, sharedDataDir: true });
  const start = () => replicaSet.start();

  afterEach(() => {
    telegram.setLatency(0);
  });

  if (testDatabaseDriver() !== 'postgres') {
    it('SQLite: one instance owns every job (covered by accounts.e2e-spec.ts)', () => {
      expect(testDatabaseDriver()).toBe('sqlite');
    });
    return;
  }

  it('forwards a cancel to the replica running the job, and a replica that starts leaves that job running', async () => {
    const one = await start();
    const token = await loginAsAdmin(one);
    for (const [index, account] of ACCOUNTS.entries()) {
      const user = telegram.createUser({ phone: `+31 600 580 ${String(index).padStart(3, '0')}` });
      expect((await requestJson(one.url, '/api/accounts/import-session', { method: 'POST', token, body: { account_name: account, session_string: telegram.issueSession(user.id) } })).status).toBe(201);
    }
    const two = await start();
    const twoId = two.app.get(ClusterService).replicaId;

    // A slow job on the second replica.
    telegram.setLatency(1_500);
    const started = await requestJson<{ job_id: string }>(two.url, '/api/accounts/status/check-jobs', { method: 'POST', token, body: {} });
    expect(started.status).toBe(202);
    const jobId = started.body.job_id;
    const jobFile = join(replicaSet.sharedDataDir, '.signer', 'jobs', `${jobId}.json`);
    expect(JSON.parse(readFileSync(jobFile, 'utf8'))).toMatchObject({ job_id: jobId, status: 'running', replica_id: twoId });

    // A third replica starts on the same data directory: the live second replica's job stays running.
    await start();
    expect(JSON.parse(readFileSync(jobFile, 'utf8'))).toMatchObject({ status: 'running', replica_id: twoId });

    // Asked of the first replica, the cancel reaches the replica that runs the job.
    const cancel = await requestJson<JobView>(one.url, `/api/accounts/status/check-jobs/${jobId}/cancel`, { method: 'POST', token });
    expect([cancel.status, cancel.text]).toEqual([202, expect.any(String)]);
    expect(cancel.body.status).toBe('canceling');
    // It ends as cancelled where it runs (asked of the first replica, answered from the shared job file).
    let job: JobView | undefined;
    await waitFor(async () => {
      job = (await requestJson<JobView>(one.url, `/api/accounts/status/check-jobs/${jobId}`, { token })).body;
      return job.status === 'canceled';
    }, 20_000);
    // The answer is the job as the API shows it: which replica runs it stays in the file.
    expect(job).not.toHaveProperty('replica_id');
  });
});
