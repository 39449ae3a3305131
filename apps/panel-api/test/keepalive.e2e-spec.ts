import { requestJson, waitFor } from '@shared/testing';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SchedulerRegistry } from '@nestjs/schedule';
import { KEEPALIVE_JOB_ID } from '../src/app/keepalive/keepalive-schedule';
import { KeepaliveService } from '../src/app/keepalive/keepalive.service';
import { TELEGRAM_GATEWAY } from '../src/app/telegram/telegram-gateway';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';
import { TelegramSimulator } from './telegram-simulator';

interface KeepaliveRun {
  woken: number;
  failed: number;
  skipped: number;
  results: Array<{ account_name: string; outcome: string; code: string | null; last_keepalive_at: string | null }>;
}

describe('panel-api device keep-alive and file session mode (simulated Telegram)', () => {
  let panel: RunningPanel;
  let token: string;
  const telegram = new TelegramSimulator();

  const api = <T = Record<string, unknown>>(path: string, options: { method?: string; body?: unknown; auth?: boolean } = {}) =>
    requestJson<T>(panel.url, path, { method: options.method, body: options.body, token: options.auth === false ? undefined : token });

  beforeAll(async () => {
    panel = await startPanel({ env: { MSGR_SESSION_MODE: 'file' }, overrides: [{ provide: TELEGRAM_GATEWAY, useValue: telegram }] });
    token = await loginAsAdmin(panel);
    for (const [name, phone] of [['one', '+31633333331'], ['two', '+31633333332'], ['three', '+31633333333']]) {
      const user = telegram.createUser({ phone });
      const response = await api('/api/accounts/import-session', { method: 'POST', body: { account_name: name, session_string: telegram.issueSession(user.id) } });
      expect(response.status).toBe(201);
    }
  });

  afterAll(async () => {
    await panel?.close();
  });

  it('keeps imported sessions in the database (no session files) and uses them', async () => {
    expect(readdirSync(join(panel.dataDir, 'sessions'))).toEqual([]);
    const check = await api<{ normal: number }>('/api/accounts/status/check', { method: 'POST', body: { account_names: ['one'] } });
    expect(check.body.normal).toBe(1);
  });

  it('refuses the manual run without a token and with a bad body', async () => {
    expect((await api('/api/config/settings/device-keepalive/run', { method: 'POST', auth: false, body: {} })).status).toBe(401);
    expect((await api('/api/config/settings/device-keepalive/run', { method: 'POST', body: { force: 'yes' } })).status).toBe(400);
    expect((await api('/api/config/settings/device-keepalive/run', { method: 'POST', body: { extra: 1 } })).status).toBe(400);
  });

  it('wakes every account once, then skips them until the interval passed, and records results in the database', async () => {
    telegram.setUnreachable('three');
    const first = await api<KeepaliveRun>('/api/config/settings/device-keepalive/run', { method: 'POST', body: {} });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ woken: 2, failed: 1, skipped: 0 });
    expect(first.body.results.find((r) => r.account_name === 'three')).toMatchObject({ outcome: 'failed', code: 'CONNECTION_ERROR' });
    expect(telegram.callsOf('wakeUp').map((c) => c.accountName).sort()).toEqual(['one', 'three', 'two']);

    telegram.setUnreachable('three', false);
    const second = await api<KeepaliveRun>('/api/config/settings/device-keepalive/run', { method: 'POST', body: {} });
    expect(second.body).toMatchObject({ woken: 1, skipped: 2 });
    expect(second.body.results.find((r) => r.account_name === 'one')?.outcome).toBe('skipped_not_due');

    const forced = await api<KeepaliveRun>('/api/config/settings/device-keepalive/run', { method: 'POST', body: { force: true } });
    expect(forced.body.woken).toBe(3);

    // The bookkeeping is in the database, not in the data directory.
    const state = await panel.app.get(KeepaliveService).readState();
    expect(Object.keys(state.accounts).sort()).toEqual(['one', 'three', 'two']);
    expect(state.last_run?.trigger).toBe('manual');
    expect(existsSync(join(panel.dataDir, '.signer', 'device_keepalive.json'))).toBe(false);
  });

  it('skips accounts that need a new login and flags revoked ones', async () => {
    const user = telegram.createUser({ phone: '+31633333334' });
    const session = telegram.issueSession(user.id);
    await api('/api/accounts/import-session', { method: 'POST', body: { account_name: 'four', session_string: session } });
    telegram.revokeSession(session);
    const run = await api<KeepaliveRun>('/api/config/settings/device-keepalive/run', { method: 'POST', body: { force: true } });
    expect(run.body.results.find((r) => r.account_name === 'four')).toMatchObject({ outcome: 'failed', code: 'ACCOUNT_SESSION_INVALID' });
    expect((await api<{ needs_relogin: boolean }>('/api/accounts/four')).body.needs_relogin).toBe(true);
    const again = await api<KeepaliveRun>('/api/config/settings/device-keepalive/run', { method: 'POST', body: { force: true } });
    expect(again.body.results.find((r) => r.account_name === 'four')?.outcome).toBe('skipped_needs_relogin');
  });

  it('writes each account\'s outcome as soon as it is known, and drops the entry of a removed account', async () => {
    const stateOf = () => panel.app.get(KeepaliveService).readState();
    const before = await stateOf();
    telegram.setHanging('three');
    let finished = false;
    const running = api<KeepaliveRun>('/api/config/settings/device-keepalive/run', { method: 'POST', body: { force: true } }).then((response) => {
      finished = true;
      return response;
    });
    // 'three' hangs until its 15 s timeout; the others' results must be on disk before the run ends.
    await waitFor(async () => {
      const state = await stateOf();
      return ['one', 'two'].every((name) => state.accounts[name].last_attempt_at !== before.accounts[name].last_attempt_at);
    });
    expect(finished).toBe(false);
    expect((await stateOf()).accounts['three']).toEqual(before.accounts['three']);
    const run = await running;
    telegram.setHanging('three', false);
    expect(run.body.results.find((r) => r.account_name === 'three')).toMatchObject({ outcome: 'failed', code: 'TIMEOUT' });
    expect((await stateOf()).last_run?.started_at).not.toBe(before.last_run?.started_at);

    expect((await api('/api/accounts/two', { method: 'DELETE' })).status).toBeLessThan(300);
    await waitFor(async () => !('two' in (await stateOf()).accounts));
    expect(Object.keys((await stateOf()).accounts).sort()).toEqual(['four', 'one', 'three']);
  });

  it('registers the daily 03:30 job in the configured time zone and follows time zone changes', async () => {
    const registry = panel.app.get(SchedulerRegistry);
    const job = registry.getCronJob(KEEPALIVE_JOB_ID);
    expect(job.cronTime.source).toBe('30 3 * * *');
    const next = job.nextDate();
    expect([next.hour, next.minute]).toEqual([3, 30]);
    expect(next.zoneName).toBe('UTC');

    const changed = await api('/api/config/settings', { method: 'PUT', body: { timezone: 'Asia/Shanghai' } });
    expect(changed.status).toBe(200);
    const moved = registry.getCronJob(KEEPALIVE_JOB_ID).nextDate();
    expect(moved.zoneName).toBe('Asia/Shanghai');
    expect([moved.hour, moved.minute]).toEqual([3, 30]);
  });

  it('does nothing on the scheduled run when keep-alive is disabled', async () => {
    const before = telegram.callsOf('wakeUp').length;
    await api('/api/config/settings', { method: 'PUT', body: { device_keepalive_enabled: false } });
    expect(await panel.app.get(KeepaliveService).runScheduled()).toBeUndefined();
    expect(telegram.callsOf('wakeUp').length).toBe(before);
  });
});

describe('panel-api status check job cut off by a stop', () => {
  it('marks a job that was running when the service stopped as failed after restart', async () => {
    const telegram = new TelegramSimulator();
    const first = await startPanel({ overrides: [{ provide: TELEGRAM_GATEWAY, useValue: telegram }] });
    const jobId = '6f1c2a1e-0b7d-4c39-9a54-2d1f0e8b7a11';
    try {
      await first.stop();
      const now = new Date().toISOString();
      mkdirSync(join(first.dataDir, '.signer', 'jobs'), { recursive: true });
      writeFileSync(
        join(first.dataDir, '.signer', 'jobs', `${jobId}.json`),
        JSON.stringify({
          job_id: jobId,
          status: 'running',
          account_names: ['a'],
          timeout_seconds: 8,
          progress: { done: 0, total: 1 },
          result: { total: 1, normal: 0, abnormal: 0, results: [], abnormal_accounts: [] },
          error: null,
          created_at: now,
          updated_at: now,
          finished_at: null,
        }),
      );
      const second = await startPanel({ reuse: { dataDir: first.dataDir, databaseUrl: first.databaseUrl }, overrides: [{ provide: TELEGRAM_GATEWAY, useValue: telegram }] });
      try {
        const token = await loginAsAdmin(second);
        const job = await requestJson<{ status: string; error: string }>(second.url, `/api/accounts/status/check-jobs/${jobId}`, { token });
        expect(job.status).toBe(200);
        expect(job.body.status).toBe('failed');
        expect(job.body.error).toMatch(/stopped/);
        const started = await requestJson(second.url, '/api/accounts/status/check-jobs', { method: 'POST', body: {}, token });
        expect(started.status).toBe(202);
      } finally {
        await second.stop();
      }
    } finally {
      await first.close();
    }
  });
});

describe('panel-api keep-alive bookkeeping of an earlier version', () => {
  it('imports .signer/device_keepalive.json once at start, without entries of accounts that no longer exist', async () => {
    const telegram = new TelegramSimulator();
    const first = await startPanel({ overrides: [{ provide: TELEGRAM_GATEWAY, useValue: telegram }] });
    const token = await loginAsAdmin(first);
    const user = telegram.createUser({ phone: '+31633333399' });
    expect((await requestJson(first.url, '/api/accounts/import-session', { method: 'POST', token, body: { account_name: 'kept', session_string: telegram.issueSession(user.id) } })).status).toBe(201);
    const signer = join(first.dataDir, '.signer');
    const stateFile = join(signer, 'device_keepalive.json');
    await first.stop();
    const entry = { last_keepalive_at: '2026-01-02T03:30:00.000Z', last_attempt_at: '2026-01-02T03:30:00.000Z', last_code: 'OK', last_message: 'Woken' };
    writeFileSync(stateFile, JSON.stringify({ last_run: null, accounts: { ghost: { ...entry, last_message: 'x' }, kept: entry } }));
    const second = await startPanel({ reuse: { dataDir: first.dataDir, databaseUrl: first.databaseUrl }, overrides: [{ provide: TELEGRAM_GATEWAY, useValue: telegram }] });
    try {
      expect(await second.app.get(KeepaliveService).readState()).toEqual({ last_run: null, accounts: { kept: entry } });
      // The file is set aside, so the next start imports nothing.
      expect(existsSync(stateFile)).toBe(false);
      expect(readdirSync(signer).filter((name) => name.startsWith('device_keepalive.json.imported-'))).toHaveLength(1);
    } finally {
      await second.stop();
    }
    const third = await startPanel({ reuse: { dataDir: first.dataDir, databaseUrl: first.databaseUrl }, overrides: [{ provide: TELEGRAM_GATEWAY, useValue: telegram }] });
    try {
      expect((await third.app.get(KeepaliveService).readState()).accounts).toEqual({ kept: entry });
    } finally {
      await third.stop();
      // The first instance made the data directory and the database: it removes both.
      await first.close();
    }
  });
});
