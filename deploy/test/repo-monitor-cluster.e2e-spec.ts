// Two repo-monitor replicas on one PostgreSQL database behind deploy/proxy/nginx.conf, one killed with
// kill -9 mid-stream and started again: the scenario of tools/bench/repo-monitor-cluster.mjs, run by
// that script with fewer deliveries, its report asserted here.
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

import { nginxBinary } from './nginx';

const root = join(__dirname, '../..');

interface Counts {
  deliveries_accepted: number;
  notifications_sent: number;
}

interface ClusterReport {
  error?: string;
  settled: boolean;
  answered_2xx: number;
  no_2xx_in_fault_phase: number;
  never_answered: number;
  processed_exactly_once: number;
  processed_more_than_once: number;
  processed_without_a_2xx: number;
  issues_opened_events: number;
  recovery_ms: { kill_to_restarted_ready: number; kill_to_restarted_first_work: number | null; kill_to_settled: number };
  in_flight_at_kill: { telegram: number; webhook: number };
  telegram: { expected: number; distinct: number; missing: number; doubled: number };
  webhook: { expected: number; distinct_webhook_ids: number; applied_by_idempotent_receiver: number; missing: number; doubled: number };
  duplicates: { channel: string; notification: string; copies: number; cause: string }[];
  per_replica: { restarted_since_restart: Counts; last_batch: { deliveries: number; restarted: Counts; survivor: Counts } };
}

describe('repo-monitor: two replicas, one killed with kill -9 and restarted', () => {
  const work = mkdtempSync(join(tmpdir(), 'repo-monitor-cluster-e2e-'));
  const database = `repo_monitor_cluster_${randomBytes(6).toString('hex')}`;
  const reportPath = join(work, 'report.json');
  let bench: ChildProcess | undefined;
  let output = '';
  let report: ClusterReport;

  beforeAll(async () => {
    nginxBinary();
    // Its own process group, so afterAll can end the script and every process it started.
    bench = spawn(
      process.execPath,
      [join(root, 'tools/bench/repo-monitor-cluster.mjs'), '--deliveries', '600', '--concurrency', '32', '--throughput', '0', '--database', database, '--report', reportPath],
      { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env['PATH'] ?? '' } },
    );
    bench.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    bench.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const child = bench;
    await new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
    report = JSON.parse(readFileSync(reportPath, 'utf8')) as ClusterReport;
  }, 600_000);

  afterAll(async () => {
    if (bench?.pid && bench.exitCode === null && bench.signalCode === null) {
      try {
        process.kill(-bench.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    const admin = new Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
    rmSync(work, { recursive: true, force: true });
  });

  it('ran to the end and settled', () => {
    expect({ error: report.error, settled: report.settled, output: report.settled ? '' : output }).toEqual({ error: undefined, settled: true, output: '' });
    // Whatever got no 2xx at the kill was redelivered until it did.
    expect(report.never_answered).toBe(0);
  });

  it('processes every delivery answered 2xx exactly once, and none other', () => {
    expect(report.answered_2xx).toBe(600 + report.per_replica.last_batch.deliveries);
    expect(report.processed_exactly_once).toBe(report.answered_2xx);
    expect(report.processed_more_than_once).toBe(0);
    expect(report.processed_without_a_2xx).toBe(0);
    expect(report.issues_opened_events).toBe(report.answered_2xx);
  });

  it('delivers every notification to the Bot API and the webhook receiver, a repeat only for a send in flight at the kill', () => {
    expect(report.telegram).toMatchObject({ expected: report.answered_2xx, distinct: report.answered_2xx, missing: 0 });
    expect(report.webhook).toMatchObject({ expected: report.answered_2xx, distinct_webhook_ids: report.answered_2xx, missing: 0 });
    // The idempotent receiver (by webhook-id) applies each notification exactly once.
    expect(report.webhook.applied_by_idempotent_receiver).toBe(report.answered_2xx);
    for (const duplicate of report.duplicates) expect(duplicate.cause).toBe('in flight at the kill (sent, not yet marked sent)');
    expect(report.telegram.doubled).toBeLessThanOrEqual(report.in_flight_at_kill.telegram);
    expect(report.webhook.doubled).toBeLessThanOrEqual(report.in_flight_at_kill.webhook);
  });

  it('the restarted replica processes work again and takes a share of new deliveries', () => {
    expect(report.recovery_ms.kill_to_restarted_first_work).not.toBeNull();
    expect(report.per_replica.last_batch.restarted.deliveries_accepted).toBeGreaterThan(0);
    expect(report.per_replica.last_batch.survivor.deliveries_accepted).toBeGreaterThan(0);
    expect(report.per_replica.last_batch.restarted.deliveries_accepted + report.per_replica.last_batch.survivor.deliveries_accepted).toBe(
      report.per_replica.last_batch.deliveries,
    );
  });
});
