import { requestJson } from '@shared/testing';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { AccountRow } from '../src/app/accounts/entities/account-row.entity';
import { TelegramError } from '../src/app/telegram/telegram-error';
import { TELEGRAM_GATEWAY } from '../src/app/telegram/telegram-gateway';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';
import { SimUser, TelegramSimulator } from './telegram-simulator';

interface Account {
  account_name: string;
  status: string | null;
  needs_relogin: boolean;
  remark: string | null;
  proxy: string | null;
  has_session: boolean;
  last_check: { code: string } | null;
  user: { id: string } | null;
}

describe('panel-api accounts, logins and status checks (simulated Telegram)', () => {
  let panel: RunningPanel;
  let token: string;
  const telegram = new TelegramSimulator();
  let alice: SimUser;

  const api = <T = Record<string, unknown>>(path: string, options: { method?: string; body?: unknown; token?: string | null } = {}) =>
    requestJson<T>(panel.url, path, { method: options.method, body: options.body, token: options.token === null ? undefined : (options.token ?? token) });

  const importAccount = async (name: string, sessionString: string, extra: Record<string, unknown> = {}) => {
    const response = await api<Account>('/api/accounts/import-session', { method: 'POST', body: { account_name: name, session_string: sessionString, ...extra } });
    expect(response.status).toBe(201);
    return response.body;
  };

  beforeAll(async () => {
    panel = await startPanel({ env: { MSGR_SESSION_MODE: 'string' }, overrides: [{ provide: TELEGRAM_GATEWAY, useValue: telegram }] });
    token = await loginAsAdmin(panel);
    alice = telegram.createUser({ phone: '+31 600 000 001', firstName: 'Alice', username: 'alice' });
  });

  afterAll(async () => {
    await panel?.close();
  });

  it('refuses every account route without a token', async () => {
    for (const [method, path] of [
      ['GET', '/api/accounts'],
      ['GET', '/api/accounts/x'],
      ['PATCH', '/api/accounts/x'],
      ['DELETE', '/api/accounts/x'],
      ['POST', '/api/accounts/import-session'],
      ['POST', '/api/accounts/login/start'],
      ['POST', '/api/accounts/login/verify'],
      ['POST', '/api/accounts/qr-login/start'],
      ['GET', '/api/accounts/qr-login/abcdefgh12'],
      ['DELETE', '/api/accounts/qr-login/abcdefgh12'],
      ['DELETE', '/api/accounts/login/x'],
      ['POST', '/api/accounts/status/check'],
      ['POST', '/api/accounts/status/check-jobs'],
    ]) {
      const response = await api(path, { method, token: null, body: method === 'GET' || method === 'DELETE' ? undefined : {} });
      expect({ method, path, status: response.status }).toEqual({ method, path, status: 401 });
    }
  });

  it('imports a string session without contacting Telegram, lists and reads it', async () => {
    const callsBefore = telegram.calls.length;
    const account = await importAccount('alice', telegram.issueSession(alice.id), { remark: 'main account', proxy: 'socks5://bob:secret@127.0.0.1:1080' });
    expect(telegram.calls.length).toBe(callsBefore);
    expect(account).toMatchObject({ account_name: 'alice', status: null, needs_relogin: false, remark: 'main account', has_session: true });
    expect(account.proxy).toBe('socks5://bob:***@127.0.0.1:1080');
    // In the database, sealed: no session file.
    expect(readdirSync(join(panel.dataDir, 'sessions'))).toEqual([]);
    const row = await panel.app.get(DataSource).getRepository(AccountRow).findOneByOrFail({ name: 'alice' });
    expect(row.sealedSession).toMatch(/^v1\.[0-9a-f]{12}\./);

    const list = await api<{ accounts: Account[]; total: number }>('/api/accounts');
    expect(list.status).toBe(200);
    expect(list.body.accounts.map((a) => a.account_name)).toEqual(['alice']);
    const one = await api<Account>('/api/accounts/alice');
    expect(one.status).toBe(200);
    expect(one.body.remark).toBe('main account');

    const again = await api('/api/accounts/import-session', { method: 'POST', body: { account_name: 'alice', session_string: telegram.issueSession(alice.id) } });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ statusCode: 409, error: 'Conflict', code: 'account_exists' });
  });

  it('answers 400 for unsafe names and bad input before touching files, 404 for unknown accounts', async () => {
    const before = readdirSync(join(panel.dataDir, 'sessions')).sort();
    for (const name of ['.hidden', '...', 'a b', 'x'.repeat(65), 'semi;colon']) {
      const response = await api(`/api/accounts/${encodeURIComponent(name)}`);
      expect({ name, status: response.status }).toEqual({ name, status: 400 });
    }
    const imported = await api('/api/accounts/import-session', { method: 'POST', body: { account_name: '../etc', session_string: 'x' } });
    expect(imported.status).toBe(400);
    const notSession = await api('/api/accounts/import-session', { method: 'POST', body: { account_name: 'bob', session_string: '1notasession' } });
    expect(notSession.status).toBe(400);
    const unknownField = await api('/api/accounts/alice', { method: 'PATCH', body: { colour: 'red' } });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'property colour should not exist',
      code: 'validation_failed',
      fields: [{ field: 'colour', rule: 'unknown_field', message: expect.any(String) }],
    });
    const badProxy = await api('/api/accounts/alice', { method: 'PATCH', body: { proxy: 'ftp://host:1' } });
    expect(badProxy.status).toBe(400);
    expect(badProxy.body).toMatchObject({ fields: [{ field: 'proxy', rule: 'proxy_scheme', message: expect.stringMatching(/^The proxy type "ftp" is not supported/) }] });
    // A well-formed socks5 proxy is taken as it is written.
    const socks = await api<{ proxy: string }>('/api/accounts/alice', { method: 'PATCH', body: { proxy: 'socks5://127.0.0.1:1080' } });
    expect([socks.status, socks.body.proxy]).toEqual([200, 'socks5://127.0.0.1:1080']);
    const badCheck = await api('/api/accounts/status/check', { method: 'POST', body: { timeout_seconds: 21 } });
    expect(badCheck.status).toBe(400);
    const badNames = await api('/api/accounts/status/check', { method: 'POST', body: { account_names: ['../x'] } });
    expect(badNames.status).toBe(400);
    const tooMany = await api('/api/accounts/status/check-jobs', { method: 'POST', body: { account_names: Array.from({ length: 201 }, (_, i) => `a${i}`) } });
    expect(tooMany.status).toBe(400);
    const badLogin = await api('/api/accounts/login/start', { method: 'POST', body: { account_name: 'x', phone_number: 'call me' } });
    expect(badLogin.status).toBe(400);
    expect(readdirSync(join(panel.dataDir, 'sessions')).sort()).toEqual(before);
    for (const path of ['/api/accounts/nobody', '/api/accounts/nobody/devices', '/api/accounts/nobody/official-messages']) {
      const missing = await api(path);
      expect({ path, status: missing.status, body: missing.body }).toEqual({
        path,
        status: 404,
        body: { statusCode: 404, error: 'Not Found', message: 'Account nobody not found', code: 'account_not_found' },
      });
    }
    expect((await api('/api/accounts/nobody', { method: 'PATCH', body: { remark: 'x' } })).status).toBe(404);
    expect((await api('/api/accounts/nobody', { method: 'DELETE' })).status).toBe(404);
  });

  it('changes remark and proxy with PATCH', async () => {
    const response = await api<Account>('/api/accounts/alice', { method: 'PATCH', body: { remark: 'renamed', proxy: null } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ remark: 'renamed', proxy: null });
    const mtproxy = await api<Account>('/api/accounts/alice', {
      method: 'PATCH',
      body: { proxy: 'tg://proxy?server=proxy.example&port=443&secret=dd00112233445566778899aabbccddeeff' },
    });
    expect(mtproxy.body.proxy).toBe('mtproxy://***@proxy.example:443');
    await api('/api/accounts/alice', { method: 'PATCH', body: { proxy: '' } });
  });

  it('checks sessions synchronously with codes per abnormal account', async () => {
    const carol = telegram.createUser({ phone: '+31600000002', firstName: 'Carol' });
    const carolSession = telegram.issueSession(carol.id);
    await importAccount('carol', carolSession);
    await importAccount('dave', telegram.issueSession(telegram.createUser({ phone: '+31600000003' }).id));
    await importAccount('erin', telegram.issueSession(telegram.createUser({ phone: '+31600000004' }).id));
    telegram.revokeSession(carolSession);
    telegram.setUnreachable('dave');
    telegram.floodWaitNext(42, { accountName: 'erin', method: 'getMe' });

    const response = await api<{ total: number; normal: number; abnormal: number; abnormal_accounts: Array<{ account_name: string; code: string; message: string }> }>(
      '/api/accounts/status/check',
      { method: 'POST', body: { account_names: ['alice', 'carol', 'dave', 'erin', 'ghost'], timeout_seconds: 2 } },
    );
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ total: 5, normal: 1, abnormal: 4 });
    const codes = Object.fromEntries(response.body.abnormal_accounts.map((a) => [a.account_name, a.code]));
    expect(codes).toEqual({ carol: 'ACCOUNT_SESSION_INVALID', dave: 'CONNECTION_ERROR', erin: 'FLOOD_WAIT', ghost: 'ACCOUNT_NOT_FOUND' });

    const carolAccount = await api<Account>('/api/accounts/carol');
    expect(carolAccount.body).toMatchObject({ status: 'invalid', needs_relogin: true, last_check: { code: 'ACCOUNT_SESSION_INVALID' } });
    const aliceAccount = await api<Account>('/api/accounts/alice');
    expect(aliceAccount.body).toMatchObject({ status: 'connected', needs_relogin: false, user: { id: alice.id } });
    const list = await api<{ accounts: Account[] }>('/api/accounts');
    expect(list.body.accounts.find((a) => a.account_name === 'carol')?.needs_relogin).toBe(true);

    telegram.setHanging('dave');
    const started = Date.now();
    const slow = await api<{ abnormal_accounts: Array<{ code: string }> }>('/api/accounts/status/check', {
      method: 'POST',
      body: { account_names: ['dave'], timeout_seconds: 1 },
    });
    expect(slow.body.abnormal_accounts[0].code).toBe('TIMEOUT');
    expect(Date.now() - started).toBeLessThan(5_000);
    telegram.setHanging('dave', false);
    telegram.setUnreachable('dave', false);
  });

  it('answers 409 needs_relogin for an invalid session, never 500', async () => {
    for (const path of ['/api/accounts/carol/devices', '/api/accounts/carol/official-messages']) {
      const response = await api<{ message: string; code: string }>(path);
      expect(response.status).toBe(409);
      expect(response.body.message).toContain('needs_relogin');
      expect(response.body.code).toBe('needs_relogin');
    }
    // A session revoked elsewhere is found out on the next call and flagged.
    const frank = telegram.createUser({ phone: '+31600000005' });
    const session = telegram.issueSession(frank.id);
    await importAccount('frank', session);
    telegram.revokeSession(session);
    const devices = await api('/api/accounts/frank/devices');
    expect(devices.status).toBe(409);
    expect((await api<Account>('/api/accounts/frank')).body).toMatchObject({ needs_relogin: true, status: 'invalid' });
  });

  it('logs in with phone code and 2FA password, clearing needs_relogin', async () => {
    telegram.createUser({ phone: '+31600000002', firstName: 'Carol' });
    const carolUser = telegram.createUser({ phone: '+31611111111', firstName: 'Carol2', password: 'hunter2', passwordHint: 'the usual' });
    const start = await api('/api/accounts/login/start', { method: 'POST', body: { account_name: 'carol', phone_number: '+31611111111' } });
    expect(start.status).toBe(200);
    expect(start.body).toMatchObject({ status: 'code_sent', code_type: 'app' });
    const code = telegram.lastLoginCode('+31611111111');
    expect(code).toMatch(/^\d{5}$/);

    const wrong = await api('/api/accounts/login/verify', { method: 'POST', body: { account_name: 'carol', phone_code: '00000' } });
    expect(wrong.status).toBe(400);
    const needsPassword = await api('/api/accounts/login/verify', { method: 'POST', body: { account_name: 'carol', phone_code: code } });
    expect(needsPassword.status).toBe(200);
    expect(needsPassword.body).toMatchObject({ status: 'password_required', password_hint: 'the usual' });
    const badPassword = await api('/api/accounts/login/verify', { method: 'POST', body: { account_name: 'carol', phone_code: code, password: 'nope' } });
    expect(badPassword.status).toBe(400);
    const done = await api<{ status: string; account: Account }>('/api/accounts/login/verify', {
      method: 'POST',
      body: { account_name: 'carol', phone_code: code, password: 'hunter2' },
    });
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('success');
    expect(done.body.account).toMatchObject({ needs_relogin: false, status: 'connected', user: { id: carolUser.id } });
    const devices = await api('/api/accounts/carol/devices');
    expect(devices.status).toBe(200);

    const noLogin = await api('/api/accounts/login/verify', { method: 'POST', body: { account_name: 'nobody', phone_code: '12345' } });
    expect(noLogin.status).toBe(404);
  });

  it('logs in with a QR code through its states', async () => {
    const grace = telegram.createUser({ phone: '+31622222222', firstName: 'Grace', password: 'pw', passwordHint: 'short' });
    const start = await api<{ login_id: string; qr_url: string; state: string }>('/api/accounts/qr-login/start', { method: 'POST', body: { account_name: 'grace' } });
    expect(start.status).toBe(200);
    expect(start.body.state).toBe('waiting_scan');
    expect(start.body.qr_url).toMatch(/^tg:\/\/login\?token=/);
    const id = start.body.login_id;
    expect((await api(`/api/accounts/qr-login/${id}`)).body).toMatchObject({ state: 'waiting_scan' });
    telegram.scanQr(id, grace.id, { confirm: false });
    expect((await api(`/api/accounts/qr-login/${id}`)).body).toMatchObject({ state: 'scanned_wait_confirm' });
    telegram.scanQr(id, grace.id, { confirm: true });
    expect((await api(`/api/accounts/qr-login/${id}`)).body).toMatchObject({ state: 'password_required', password_hint: 'short' });
    expect((await api(`/api/accounts/qr-login/${id}/password`, { method: 'POST', body: { password: 'wrong' } })).status).toBe(400);
    const done = await api<{ state: string; account: Account }>(`/api/accounts/qr-login/${id}/password`, { method: 'POST', body: { password: 'pw' } });
    expect(done.body.state).toBe('success');
    expect(done.body.account).toMatchObject({ account_name: 'grace', needs_relogin: false, status: 'connected' });
    expect((await api(`/api/accounts/qr-login/${id}`)).body).toMatchObject({ state: 'success' });

    const second = await api<{ login_id: string }>('/api/accounts/qr-login/start', { method: 'POST', body: { account_name: 'late' } });
    telegram.expireQr(second.body.login_id);
    expect((await api(`/api/accounts/qr-login/${second.body.login_id}`)).body).toMatchObject({ state: 'expired' });
    expect((await api('/api/accounts/late')).status).toBe(404);
    expect((await api('/api/accounts/qr-login/unknown-login-id')).status).toBe(404);
    expect((await api('/api/accounts/qr-login/bad!')).status).toBe(400);
  });

  it('cancels a QR login: forgotten by the service and by Telegram, and no account is stored', async () => {
    const cancelLogin = jest.spyOn(telegram, 'cancelLogin');
    try {
      const start = await api<{ login_id: string }>('/api/accounts/qr-login/start', { method: 'POST', body: { account_name: 'dropped' } });
      expect(start.status).toBe(200);
      const id = start.body.login_id;
      const cancelled = await api(`/api/accounts/qr-login/${id}`, { method: 'DELETE' });
      expect(cancelled.status).toBe(204);
      expect(cancelLogin).toHaveBeenCalledWith(id);
      expect((await api(`/api/accounts/qr-login/${id}`)).status).toBe(404);
      const again = await api<{ statusCode: number; message: string }>(`/api/accounts/qr-login/${id}`, { method: 'DELETE' });
      expect(again.status).toBe(404);
      expect(again.body).toMatchObject({ statusCode: 404, message: expect.stringContaining(id) });
      expect((await api('/api/accounts/dropped')).status).toBe(404);
      const bad = await api<{ statusCode: number; message: string }>('/api/accounts/qr-login/bad!', { method: 'DELETE' });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ statusCode: 400, message: 'login_id is not a login id' });

      // Cancelling a finished login forgets it but keeps the account it stored.
      const hedy = telegram.createUser({ phone: '+31633333333', firstName: 'Hedy' });
      const done = await api<{ login_id: string }>('/api/accounts/qr-login/start', { method: 'POST', body: { account_name: 'hedy' } });
      telegram.scanQr(done.body.login_id, hedy.id);
      expect((await api(`/api/accounts/qr-login/${done.body.login_id}`)).body).toMatchObject({ state: 'success' });
      expect((await api(`/api/accounts/qr-login/${done.body.login_id}`, { method: 'DELETE' })).status).toBe(204);
      expect((await api(`/api/accounts/qr-login/${done.body.login_id}`)).status).toBe(404);
      expect((await api('/api/accounts/hedy')).body).toMatchObject({ account_name: 'hedy', status: 'connected' });
    } finally {
      cancelLogin.mockRestore();
    }
  });

  it('cancels a started phone login: the code no longer works and no account is stored', async () => {
    telegram.createUser({ phone: '+31644444444', firstName: 'Ivy' });
    const cancelLogin = jest.spyOn(telegram, 'cancelLogin');
    try {
      expect((await api('/api/accounts/login/start', { method: 'POST', body: { account_name: 'ivy', phone_number: '+31644444444' } })).status).toBe(200);
      const code = telegram.lastLoginCode('+31644444444');
      expect((await api('/api/accounts/login/ivy', { method: 'DELETE' })).status).toBe(204);
      expect(cancelLogin).toHaveBeenCalledTimes(1);
      const late = await api<{ statusCode: number; message: string }>('/api/accounts/login/verify', { method: 'POST', body: { account_name: 'ivy', phone_code: code } });
      expect(late.status).toBe(404);
      expect((await api('/api/accounts/ivy')).status).toBe(404);
      const again = await api<{ statusCode: number; message: string }>('/api/accounts/login/ivy', { method: 'DELETE' });
      expect(again.status).toBe(404);
      expect(again.body).toMatchObject({ statusCode: 404, message: 'No login in progress for account ivy', code: 'login_not_found' });
      const bad = await api<{ statusCode: number }>('/api/accounts/login/.hidden', { method: 'DELETE' });
      expect(bad.status).toBe(400);
    } finally {
      cancelLogin.mockRestore();
    }
  });

  it('lists devices, refuses to terminate the current one, terminates another', async () => {
    const otherSession = telegram.issueSession(alice.id, { deviceModel: 'iPhone 15', platform: 'iOS', appName: 'Telegram iOS', officialApp: true });
    const list = await api<{ devices: Array<{ auth_hash: string; current: boolean; official_app: boolean; device_model: string; location: string; created_at: string }> }>(
      '/api/accounts/alice/devices',
    );
    expect(list.status).toBe(200);
    const current = list.body.devices.find((d) => d.current);
    const phone = list.body.devices.find((d) => d.device_model === 'iPhone 15');
    expect(current).toBeDefined();
    expect(phone).toMatchObject({ official_app: true, current: false, location: 'North Holland, Netherlands' });
    expect(typeof phone?.auth_hash).toBe('string');
    expect(phone?.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);

    const refuse = await api<{ message: string }>(`/api/accounts/alice/devices/${current?.auth_hash}`, { method: 'DELETE' });
    expect(refuse.status).toBe(409);
    expect(refuse.body.message).toMatch(/cannot be terminated/);
    expect((await api('/api/accounts/alice/devices/not-a-hash', { method: 'DELETE' })).status).toBe(400);
    expect((await api('/api/accounts/alice/devices/12345', { method: 'DELETE' })).status).toBe(404);

    const terminated = await api(`/api/accounts/alice/devices/${phone?.auth_hash}`, { method: 'DELETE' });
    expect(terminated.status).toBe(204);
    await expect(telegram.getMe({ accountName: 'other', sessionString: otherSession })).rejects.toMatchObject({ kind: 'session_invalid' });
    const after = await api<{ devices: Array<{ device_model: string }> }>('/api/accounts/alice/devices');
    expect(after.body.devices.map((d) => d.device_model)).not.toContain('iPhone 15');
  });

  it('refuses to terminate the current session (hash 0 in any spelling) before Telegram is asked, even when it is unreachable', async () => {
    telegram.setUnreachable('alice');
    try {
      const before = telegram.callsOf('getAuthorizations').length + telegram.callsOf('resetAuthorization').length;
      for (const hash of ['0', '-0', '000']) {
        const refused = await api<{ statusCode: number; message: string }>(`/api/accounts/alice/devices/${hash}`, { method: 'DELETE' });
        expect([hash, refused.status]).toEqual([hash, 409]);
        expect(refused.body).toMatchObject({ statusCode: 409, message: expect.stringMatching(/cannot be terminated/) });
      }
      expect(telegram.callsOf('getAuthorizations').length + telegram.callsOf('resetAuthorization').length).toBe(before);
      // Another device's hash does need Telegram, which is unreachable: 502, not a refusal.
      expect((await api('/api/accounts/alice/devices/12345', { method: 'DELETE' })).status).toBe(502);
    } finally {
      telegram.setUnreachable('alice', false);
    }
  });

  it('reads official messages read-only with limit 1..100', async () => {
    for (let i = 1; i <= 3; i++) telegram.addOfficialMessage(alice.id, `Security notice ${i}`);
    const sentBefore = telegram.callsOf('sendMessage').length;
    const response = await api<{ messages: Array<{ id: number; date: string; text: string }> }>('/api/accounts/alice/official-messages?limit=2');
    expect(response.status).toBe(200);
    expect(response.body.messages.map((m) => m.text)).toEqual(['Security notice 3', 'Security notice 2']);
    expect(response.body.messages[0].date).toMatch(/^\d{4}-/);
    expect(telegram.callsOf('sendMessage').length).toBe(sentBefore);
    expect((await api('/api/accounts/alice/official-messages?limit=0')).status).toBe(400);
    expect((await api('/api/accounts/alice/official-messages?limit=101')).status).toBe(400);
    expect((await api('/api/accounts/alice/official-messages?limit=abc')).status).toBe(400);
  });

  it('maps Telegram failures on device calls to 429/502/504, never 500', async () => {
    telegram.floodWaitNext(30, { accountName: 'alice', method: 'getAuthorizations' });
    const flood = await api('/api/accounts/alice/devices');
    expect(flood.status).toBe(429);
    expect(flood.headers.get('retry-after')).toBe('30');
    telegram.setUnreachable('alice');
    expect((await api('/api/accounts/alice/devices')).status).toBe(502);
    telegram.setUnreachable('alice', false);
    telegram.failNext(() => TelegramError.timeout(100), { accountName: 'alice', method: 'getOfficialMessages' });
    expect((await api('/api/accounts/alice/official-messages')).status).toBe(504);
  });

  it('runs check jobs one at a time with progress, cancel and a persisted result', async () => {
    telegram.setLatency(300);
    const started = await api<{ job_id: string; total: number }>('/api/accounts/status/check-jobs', { method: 'POST', body: {} });
    expect(started.status).toBe(202);
    const jobId = started.body.job_id;
    const second = await api('/api/accounts/status/check-jobs', { method: 'POST', body: {} });
    expect(second.status).toBe(409);
    let job = await api<{ status: string; progress: { done: number; total: number }; result: { normal: number; abnormal: number } }>(
      `/api/accounts/status/check-jobs/${jobId}`,
    );
    expect(job.status).toBe(200);
    expect(job.body.status).toBe('running');
    expect(job.body.progress.total).toBe(started.body.total);
    for (let i = 0; i < 100 && job.body.status === 'running'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      job = await api(`/api/accounts/status/check-jobs/${jobId}`);
    }
    expect(job.body.status).toBe('completed');
    expect(job.body.progress.done).toBe(job.body.progress.total);
    expect(job.body.result.normal + job.body.result.abnormal).toBe(job.body.progress.total);
    // The job is a row of the database now, not a file of the data directory.
    expect(existsSync(join(panel.dataDir, '.signer', 'jobs', `${jobId}.json`))).toBe(false);
    expect((await api(`/api/accounts/status/check-jobs/${jobId}/cancel`, { method: 'POST' })).status).toBe(409);

    telegram.setLatency(1_500);
    const cancellable = await api<{ job_id: string }>('/api/accounts/status/check-jobs', { method: 'POST', body: {} });
    const cancel = await api<{ status: string }>(`/api/accounts/status/check-jobs/${cancellable.body.job_id}/cancel`, { method: 'POST' });
    expect(cancel.status).toBe(202);
    expect(cancel.body.status).toBe('canceling');
    let cancelled = await api<{ status: string; progress: { done: number; total: number } }>(`/api/accounts/status/check-jobs/${cancellable.body.job_id}`);
    for (let i = 0; i < 100 && cancelled.body.status === 'canceling'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      cancelled = await api(`/api/accounts/status/check-jobs/${cancellable.body.job_id}`);
    }
    expect(cancelled.body.status).toBe('canceled');
    expect(cancelled.body.progress.done).toBeLessThan(cancelled.body.progress.total);
    telegram.setLatency(0);

    expect((await api('/api/accounts/status/check-jobs/not-a-uuid')).status).toBe(400);
    expect((await api('/api/accounts/status/check-jobs/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('shows an account as checking while an asynchronous check of it runs', async () => {
    const statusOf = async () => (await api<Account>('/api/accounts/alice')).body.status;
    for (let i = 0; i < 50 && (await statusOf()) === 'checking'; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    telegram.setLatency(1_500);
    try {
      const started = await api<{ job_id: string }>('/api/accounts/status/check-jobs', { method: 'POST', body: { account_names: ['alice'] } });
      expect(started.status).toBe(202);
      // The check marks the account before it asks Telegram (1.5 s here); the status is read until it shows.
      let status = await statusOf();
      for (let i = 0; i < 40 && status !== 'checking'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        status = await statusOf();
      }
      expect(status).toBe('checking');
      const list = await api<{ accounts: Account[] }>('/api/accounts');
      expect(list.body.accounts.find((a) => a.account_name === 'alice')?.status).toBe('checking');
      let job = await api<{ status: string }>(`/api/accounts/status/check-jobs/${started.body.job_id}`);
      for (let i = 0; i < 100 && job.body.status === 'running'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        job = await api(`/api/accounts/status/check-jobs/${started.body.job_id}`);
      }
      expect(job.body.status).toBe('completed');
      expect(await statusOf()).toBe('connected');
      expect((await api<{ accounts: Account[] }>('/api/accounts')).body.accounts.find((a) => a.account_name === 'alice')?.status).toBe('connected');
    } finally {
      telegram.setLatency(0);
    }
  });

  it('keeps needs_relogin after a later check succeeds; only a new login (or imported session) clears it', async () => {
    const henry = telegram.createUser({ phone: '+31 600 000 031' });
    await importAccount('henry', telegram.issueSession(henry.id));
    telegram.failNext(() => TelegramError.sessionInvalid('AUTH_KEY_UNREGISTERED'), { accountName: 'henry', method: 'getMe' });
    const first = await api<{
      results: Array<{ code: string; needs_relogin: boolean }>;
    }>('/api/accounts/status/check', {
      method: 'POST',
      body: { account_names: ['henry'] },
    });
    expect(first.body.results[0]).toMatchObject({
      code: 'ACCOUNT_SESSION_INVALID',
      needs_relogin: true,
    });
    const second = await api<{
      results: Array<{ code: string; needs_relogin: boolean }>;
    }>('/api/accounts/status/check', {
      method: 'POST',
      body: { account_names: ['henry'] },
    });
    expect(second.body.results[0]).toMatchObject({
      code: 'OK',
      needs_relogin: true,
    });
    expect((await api<Account>('/api/accounts/henry')).body).toMatchObject({
      needs_relogin: true,
      last_check: { code: 'OK' },
    });
    expect((await api('/api/accounts/henry/devices')).status).toBe(409);
    await importAccount('henry', telegram.issueSession(henry.id), {
      overwrite: true,
    });
    expect((await api<Account>('/api/accounts/henry')).body).toMatchObject({
      needs_relogin: false,
    });
  });

  it('deletes an account: its row and session gone, connection closed, listeners told', async () => {
    const frankRows = () => panel.app.get(DataSource).getRepository(AccountRow).countBy({ name: 'frank' });
    expect(await frankRows()).toBe(1);
    const response = await api('/api/accounts/frank', { method: 'DELETE' });
    expect(response.status).toBe(204);
    expect(await frankRows()).toBe(0);
    expect(telegram.disconnected).toContain('frank');
    expect((await api('/api/accounts/frank')).status).toBe(404);
    const list = await api<{ accounts: Account[] }>('/api/accounts');
    expect(list.body.accounts.map((a) => a.account_name)).not.toContain('frank');
  });
});
