import { requestJson } from '@shared/testing';
import { authenticator } from 'otplib';
import { LOGIN_FAILURE_LIMIT } from '../src/app/admin/login-throttle';
import { resetAdminPassword } from '../src/cli/admin-reset-password';
import { adminHeaders, AdminSession, loginAdmin, RunningMonitor, startMonitor, TEST_ADMIN_ENV, TEST_ENCRYPTION_KEY } from './harness';

const PASSWORD = TEST_ADMIN_ENV['MONITOR_ADMIN_PASSWORD'] as string;
const STEP_MS = 30_000;

/**
 * Codes of the authenticator app. Each code works once, so every call answers the code of a step
 * not used before among the three the service accepts (previous, current, next), and never within
 * two seconds of a step change, so the code is still accepted when it arrives.
 */
class Authenticator {
  private readonly usedSteps = new Set<number>();

  constructor(readonly secret: string) {}

  async code(): Promise<string> {
    const intoStep = Date.now() % STEP_MS;
    if (intoStep > STEP_MS - 2000) await new Promise((resolve) => setTimeout(resolve, STEP_MS - intoStep + 100));
    const current = Math.floor(Date.now() / STEP_MS);
    const step = [current, current + 1, current - 1].find((candidate) => !this.usedSteps.has(candidate));
    if (step === undefined) throw new Error('all three acceptable codes are used; wait for the next step');
    this.usedSteps.add(step);
    return authenticator.clone({ epoch: step * STEP_MS + 1000 }).generate(this.secret);
  }
}

describe('the admin second factor (TOTP)', () => {
  let monitor: RunningMonitor;
  let session: AdminSession;
  let app: Authenticator;

  const call = <T = Record<string, unknown>>(method: string, path: string, body?: unknown, as: AdminSession = session) =>
    requestJson<T>(monitor.url, path, { method, headers: adminHeaders(as), body });
  const login = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    requestJson<{ error_code?: string; details?: Record<string, unknown> }>(monitor.url, '/api/v1/auth/login', { method: 'POST', body, headers });
  const auditActions = async () =>
    (await call<{ items: Array<{ action: string; details: Record<string, unknown> | null }> }>('GET', '/api/v1/audit-log?per_page=100')).body.items;

  beforeAll(async () => {
    monitor = await startMonitor({ env: { ...TEST_ADMIN_ENV, MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, MONITOR_HTTP_TRUST_PROXY: 'true' } });
    session = await loginAdmin(monitor);
  });
  afterAll(async () => {
    await monitor?.close();
  });

  it('is off at first', async () => {
    expect((await call('GET', '/api/v1/auth/totp')).body).toEqual({ totp_enabled: false, setup_pending: false });
    expect((await call('GET', '/api/v1/auth/session')).body).toMatchObject({ username: 'admin', totp_enabled: false });
  });

  it('sets up a secret that is not in force until turned on', async () => {
    const setup = await call<{ secret: string; otpauth_uri: string }>('POST', '/api/v1/auth/totp/setup');
    expect(setup.status).toBe(200);
    expect(setup.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.body.otpauth_uri).toBe(`otpauth://totp/repo-monitor:admin?secret=${setup.body.secret}&period=30&digits=6&algorithm=SHA1&issuer=repo-monitor`);
    app = new Authenticator(setup.body.secret);
    expect((await call('GET', '/api/v1/auth/totp')).body).toEqual({ totp_enabled: false, setup_pending: true });
    expect((await login({ username: 'admin', password: PASSWORD })).status).toBe(200);
  });

  it('turns on only with the current password and a right code, and signs out the other sessions', async () => {
    const other = await loginAdmin(monitor);
    const enable = (body: unknown) => call('POST', '/api/v1/auth/totp/enable', body);
    for (const bad of [{}, { current_password: PASSWORD }, { current_password: PASSWORD, code: '12345' }, { current_password: PASSWORD, code: 'abcdef' }, { current_password: '', code: '123456' }]) {
      const answer = await enable(bad);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ error_code: 'validation_failed' });
    }
    const wrongPassword = await enable({ current_password: 'not-the-password', code: '123456' });
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.body).toMatchObject({ error_code: 'invalid_credentials' });
    const wrongCode = await enable({ current_password: PASSWORD, code: '000000' });
    expect(wrongCode.status).toBe(400);
    expect(wrongCode.body).toMatchObject({ error_code: 'validation_failed', details: { field: 'code' } });
    expect((await call('GET', '/api/v1/auth/totp')).body).toEqual({ totp_enabled: false, setup_pending: true });

    const noCsrf = await requestJson(monitor.url, '/api/v1/auth/totp/enable', { method: 'POST', headers: { cookie: session.cookie }, body: { current_password: PASSWORD, code: '000000' } });
    expect(noCsrf.status).toBe(403);

    const enabled = await enable({ current_password: PASSWORD, code: await app.code() });
    expect(enabled.status).toBe(200);
    expect(enabled.body).toEqual({ totp_enabled: true, setup_pending: false });
    expect((await call('GET', '/api/v1/auth/session', undefined, other)).status).toBe(401);
    expect((await call('GET', '/api/v1/auth/session')).body).toMatchObject({ totp_enabled: true });
    expect((await call('POST', '/api/v1/auth/totp/setup')).status).toBe(409);
    expect((await enable({ current_password: PASSWORD, code: '123456' })).status).toBe(409);
  });

  it('asks for the code at sign-in and takes each code once', async () => {
    const missing = await login({ username: 'admin', password: PASSWORD });
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ error_code: 'invalid_credentials', details: { totp_required: true } });
    const wrong = await login({ username: 'admin', password: PASSWORD, totp_code: '000000' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ error_code: 'invalid_credentials', details: { totp_required: true } });
    expect((await login({ username: 'admin', password: PASSWORD, totp_code: '12ab56' })).status).toBe(400);

    const code = await app.code();
    // The code says nothing about a wrong password, and is not used up by it.
    const wrongPassword = await login({ username: 'admin', password: 'not-the-password', totp_code: code });
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.body.details).toBeUndefined();
    const signedIn = await login({ username: 'admin', password: PASSWORD, totp_code: code });
    expect(signedIn.status).toBe(200);
    const replayed = await login({ username: 'admin', password: PASSWORD, totp_code: code });
    expect(replayed.status).toBe(401);
    expect(replayed.body).toMatchObject({ details: { totp_required: true } });

    const failures = (await auditActions()).filter((entry) => entry.action === 'auth.login_failed').map((entry) => entry.details?.['reason']);
    expect(failures).toEqual(expect.arrayContaining(['totp_missing', 'totp_wrong']));
  });

  it('turns off only with the current password and a right code', async () => {
    const disable = (body: unknown) => call('POST', '/api/v1/auth/totp/disable', body);
    expect((await disable({ current_password: PASSWORD })).status).toBe(400);
    expect((await disable({ current_password: 'not-the-password', code: '123456' })).status).toBe(401);
    expect((await disable({ current_password: PASSWORD, code: '000000' })).status).toBe(400);
    const disabled = await disable({ current_password: PASSWORD, code: await app.code() });
    expect(disabled.status).toBe(200);
    expect(disabled.body).toEqual({ totp_enabled: false, setup_pending: false });
    expect((await disable({ current_password: PASSWORD, code: '123456' })).status).toBe(409);
    expect((await login({ username: 'admin', password: PASSWORD })).status).toBe(200);
    const actions = (await auditActions()).map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(['admin.totp_setup_started', 'admin.totp_enabled', 'admin.totp_disabled']));
  });

  it('refuses every TOTP route without a session', async () => {
    expect((await requestJson(monitor.url, '/api/v1/auth/totp')).status).toBe(401);
    for (const path of ['setup', 'enable', 'disable']) {
      expect((await requestJson(monitor.url, `/api/v1/auth/totp/${path}`, { method: 'POST', body: { current_password: PASSWORD, code: '123456' } })).status).toBe(401);
    }
  });

  it('throttles wrong codes like wrong passwords, a missing code included', async () => {
    const setup = await call<{ secret: string }>('POST', '/api/v1/auth/totp/setup');
    const second = new Authenticator(setup.body.secret);
    expect((await call('POST', '/api/v1/auth/totp/enable', { current_password: PASSWORD, code: await second.code() })).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i <= LOGIN_FAILURE_LIMIT; i++) {
      statuses.push((await login({ username: 'admin', password: PASSWORD }, { 'x-forwarded-for': '198.51.100.9' })).status);
      if (statuses[statuses.length - 1] === 429) break;
    }
    expect(statuses).toContain(429);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(LOGIN_FAILURE_LIMIT);
  });
});

describe('the second factor and the command line', () => {
  it('admin reset-password turns it off', async () => {
    const monitor = await startMonitor({ env: { ...TEST_ADMIN_ENV, MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY } });
    try {
      const session = await loginAdmin(monitor);
      const setup = await requestJson<{ secret: string }>(monitor.url, '/api/v1/auth/totp/setup', { method: 'POST', headers: adminHeaders(session), body: {} });
      const app = new Authenticator(setup.body.secret);
      const enabled = await requestJson(monitor.url, '/api/v1/auth/totp/enable', {
        method: 'POST',
        headers: adminHeaders(session),
        body: { current_password: PASSWORD, code: await app.code() },
      });
      expect(enabled.status).toBe(200);
      const result = await resetAdminPassword(monitor.config, 'reset-by-cli-password');
      expect(result).toEqual({ username: 'admin', sessionsRevoked: 1, totpDisabled: true });
      const signedIn = await requestJson(monitor.url, '/api/v1/auth/login', { method: 'POST', body: { username: 'admin', password: 'reset-by-cli-password' } });
      expect(signedIn.status).toBe(200);
    } finally {
      await monitor.close();
    }
  });

  it('setup needs the master key to store the secret encrypted', async () => {
    const monitor = await startMonitor({ env: { ...TEST_ADMIN_ENV } });
    try {
      const session = await loginAdmin(monitor);
      const setup = await requestJson(monitor.url, '/api/v1/auth/totp/setup', { method: 'POST', headers: adminHeaders(session), body: {} });
      expect(setup.status).toBe(503);
      expect(setup.body).toMatchObject({ error_code: 'encryption_unavailable' });
    } finally {
      await monitor.close();
    }
  });
});
