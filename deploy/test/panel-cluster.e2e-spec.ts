// Three panel-api replicas (the built dist) on one fresh PostgreSQL database behind deploy/proxy/nginx.conf,
// the Telegram simulator as its own process, one replica killed with kill -9 and another paused with
// SIGSTOP past its lease: the scenario of tools/bench/panel-cluster.mjs, run by that script, its report
// asserted here (issue 31, "How it is proven").
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

import { nginxBinary } from './nginx';

const root = join(__dirname, '../..');
const LEASE_SECONDS = 4;

interface RunDetail {
  account: string;
  due: string;
  claims: number;
  checkins: number;
  verdict: 'duplicate' | 'missed' | 'interrupted' | 'failed';
}

interface PanelClusterReport {
  error?: string;
  ok: boolean;
  settled: boolean;
  overlaps: number;
  overlap_details: unknown[];
  due_minutes: string[];
  runs: { due: number; executed_once: number; interrupted: number; duplicate: number; missed: number; failed: number; details: RunDetail[] };
  hits: { matching_messages: number; recorded_once: number; missed: number; recorded_more_than_once: number; recorded_for_non_matching: number };
  kill: { replica: string; accounts: number; takeover_ms: Record<string, number> };
  pause: {
    replica: string;
    accounts: number;
    paused_ms: number;
    takeover_ms: Record<string, number>;
    late_writes_refused: number;
    rebalance_after_resume_ms: number;
  };
  rebalance_after_join_ms: { b: number; c: number };
  /** The time zone changed through each replica, read back on all three and three times through nginx. */
  settings: { reads: number; stale: Array<{ written_on: string; read_on: string; expected: string; timezone: unknown }>; ms: number };
  failover_ms: { p50: number; max: number; samples: number };
}

describe('panel-api: three replicas, one killed with kill -9, one paused past its lease', () => {
  const work = mkdtempSync(join(tmpdir(), 'panel-cluster-e2e-'));
  const database = `h2_panel_cluster_${randomBytes(6).toString('hex')}`;
  const reportPath = join(work, 'report.json');
  let bench: ChildProcess | undefined;
  let output = '';
  let report: PanelClusterReport;

  beforeAll(async () => {
    nginxBinary();
    if (!existsSync(join(root, 'dist/apps/panel-api/main.js'))) throw new Error('dist/apps/panel-api/main.js is missing: build panel-api first');
    // Its own process group, so afterAll can end the script and every process it started.
    bench = spawn(process.execPath, [join(root, 'tools/bench/panel-cluster.mjs'), '--accounts', '20', '--lease', String(LEASE_SECONDS), '--database', database, '--report', reportPath], {
      cwd: root,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env['PATH'] ?? '' },
    });
    bench.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    bench.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const child = bench;
    await new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
    report = JSON.parse(readFileSync(reportPath, 'utf8')) as PanelClusterReport;
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
  });

  it('never had two replicas connected with one session (no AUTH_KEY_DUPLICATED at the simulator)', () => {
    expect(report.overlap_details).toEqual([]);
    expect(report.overlaps).toBe(0);
    // A settings change through any replica is what every replica (own empty data directory) and nginx's round-robin serve next.
    expect(report.settings).toMatchObject({ reads: 18, stale: [] });
  });

  it('executes every due run exactly once; only the runs in flight at the pause end as interrupted', () => {
    // At least three minutes of 20 tasks: the minute of the kill, the minute of the pause, the minute after.
    expect(report.due_minutes.length).toBeGreaterThanOrEqual(3);
    expect(report.runs.due).toBe(20 * report.due_minutes.length);
    expect(report.runs.details.filter((detail) => detail.verdict !== 'interrupted')).toEqual([]);
    expect(report.runs).toMatchObject({ duplicate: 0, missed: 0, failed: 0 });
    expect(report.runs.executed_once + report.runs.interrupted).toBe(report.runs.due);
    expect(report.runs.interrupted).toBeLessThanOrEqual(report.pause.accounts);
    // An interrupted run has one claim and sent its check-in at most once.
    for (const detail of report.runs.details) expect([detail.claims, detail.checkins <= 1]).toEqual([1, true]);
  });

  it('records every matching message as exactly one hit, and nothing else', () => {
    expect(report.hits.matching_messages).toBeGreaterThan(0);
    expect(report.hits).toEqual({ matching_messages: report.hits.matching_messages, recorded_once: report.hits.matching_messages, missed: 0, recorded_more_than_once: 0, recorded_for_non_matching: 0 });
  });

  it("refuses the paused replica's late writes", () => {
    expect(report.pause.paused_ms).toBeGreaterThan(LEASE_SECONDS * 1000);
    expect(report.pause.late_writes_refused).toBeGreaterThan(0);
  });

  it('takes the accounts of the killed and of the paused replica over after their lease, within seconds', () => {
    expect(Object.keys(report.kill.takeover_ms)).toHaveLength(report.kill.accounts);
    expect(Object.keys(report.pause.takeover_ms)).toHaveLength(report.pause.accounts);
    expect(report.kill.accounts + report.pause.accounts).toBeGreaterThan(10);
    for (const ms of [...Object.values(report.kill.takeover_ms), ...Object.values(report.pause.takeover_ms)]) {
      // Never before the lease expired (renewed at most a heartbeat, a third of the lease, before the fault);
      // at most the lease, a heartbeat and the poll later.
      expect(ms).toBeGreaterThanOrEqual((2 * LEASE_SECONDS * 1000) / 3 - 300);
      expect(ms).toBeLessThan(LEASE_SECONDS * 1000 + 4000);
    }
    expect(report.failover_ms.samples).toBe(report.kill.accounts + report.pause.accounts);
  });

  it('spreads the accounts over a replica that joins within a few leases', () => {
    expect(report.rebalance_after_join_ms.b).toBeLessThan(4 * LEASE_SECONDS * 1000);
    expect(report.rebalance_after_join_ms.c).toBeLessThan(4 * LEASE_SECONDS * 1000);
    expect(report.pause.rebalance_after_resume_ms).toBeLessThan(4 * LEASE_SECONDS * 1000);
  });
});
