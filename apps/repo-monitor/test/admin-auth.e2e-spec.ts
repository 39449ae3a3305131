import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { requestJson } from '@shared/testing';
import { request as httpRequest } from 'node:http';
import { networkInterfaces } from 'node:os';
import { LOGIN_FAILURE_LIMIT } from '../src/app/admin/login-throttle';
import { RunningMonitor, TEST_ADMIN_ENV, adminHeaders, loginAdmin, startMonitor } from './harness';

interface Route {
  method: string;
  path: string;
}

/**
 * The only routes that answer without an admin session, on purpose. Written out by hand rather than
 * read from the @Public() metadata, so a route made public by mistake fails the sweep below. Each
 * of them checks its own credential where it has one: the webhook its signature, /metrics its
 * scrape token, /mcp and the OAuth token endpoint the agent's credentials, the GitHub App manifest
 * callback the admin session cookie and the single-use state (it answers a redirect, never a 401).
 */
const PUBLIC_ROUTES = new Set([
  'GET /healthz',
  'GET /readyz',
  'POST /api/v1/auth/login',
  'GET /api/v1/setup/status',
  'POST /api/v1/setup',
  'POST /webhooks/github',
  'GET /api/v1/github/app/manifest/callback',
  'GET /metrics',
  'POST /oauth/token',
  'GET /oauth/authorize',
  'GET /.well-known/oauth-authorization-server',
  'GET /.well-known/oauth-protected-resource',
  'GET /.well-known/oauth-protected-resource/api/v1',
  'GET /.well-known/oauth-protected-resource/mcp',
  'POST /mcp',
  'GET /mcp',
  'DELETE /mcp',
]);

/** Every route Nest registered; later features are covered automatically. */
function routeTable(monitor: RunningMonitor): Route[] {
  const routes: Route[] = [];
  for (const module of monitor.app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => object) | null;
      if (!controller) continue;
      const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        // Read the descriptor, not the property: a getter on the prototype must not run.
        const handler: unknown = Object.getOwnPropertyDescriptor(controller.prototype, name)?.value;
        if (typeof handler !== 'function' || name === 'constructor') continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
        if (method === undefined || path === undefined) continue;
        const fullPath = `/${[base, path].map((part) => part.replace(/^\/+|\/+$/g, '')).filter(Boolean).join('/')}`;
        routes.push({
          method: RequestMethod[method],
          path: fullPath.replace(/:[A-Za-z_]+/g, '3f1c8a52-4c1e-4f7b-9c59-0d6b2a1e7f10'),
        });
      }
    }
  }
  return routes;
}

/** A raw request with a chosen Host header (fetch does not let a caller set it). */
function rawPost(url: string, path: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const target = new URL(path, url);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...headers } },
      (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text || '{}') as Record<string, unknown> }));
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

describe('admin setup, sign-in, CSRF and the default-deny guard', () => {
  describe('web setup', () => {
    let monitor: RunningMonitor;

    beforeAll(async () => {
      // Trusting X-Forwarded-For lets the test present a non-loopback client address.
      monitor = await startMonitor({ env: { MONITOR_HTTP_TRUST_PROXY: 'true' } });
    });

    afterAll(async () => {
      await monitor?.close();
    });

    it('reports setup as open from loopback while no admin exists', async () => {
      const status = await requestJson(monitor.url, '/api/v1/setup/status');
      expect(status.status).toBe(200);
      expect(status.body).toEqual({ admin_exists: false, setup_allowed: true, remote_setup_allowed: false });
    });

    it('refuses setup from a remote client or with a non-loopback Host header', async () => {
      const remoteClient = await rawPost(monitor.url, '/api/v1/setup', { username: 'admin', password: 'long-enough-password' }, { 'x-forwarded-for': '203.0.113.9' });
      expect(remoteClient.status).toBe(403);
      expect(remoteClient.body['error_code']).toBe('forbidden');
      const remoteHost = await rawPost(monitor.url, '/api/v1/setup', { username: 'admin', password: 'long-enough-password' }, { host: 'monitor.example.com' });
      expect(remoteHost.status).toBe(403);
    });

    it('answers 400 on bad setup input', async () => {
      const short = await requestJson(monitor.url, '/api/v1/setup', { method: 'POST', body: { username: 'admin', password: 'short' } });
      expect(short.status).toBe(400);
      expect(short.body['error_code']).toBe('validation_failed');
      // Each refusal names its field and rule, so the setup form shows it there, in the person's language.
      expect(short.body['details']).toMatchObject({ fields: [{ field: 'password', rule: 'too_short', min: 12, message: expect.any(String) }] });
      const badName = await requestJson(monitor.url, '/api/v1/setup', { method: 'POST', body: { username: 'bad name!', password: 'long-enough-password' } });
      expect(badName.status).toBe(400);
      expect(badName.body['details']).toMatchObject({ fields: [{ field: 'username', rule: expect.any(String), message: expect.stringMatching(/^[A-Z]/) }] });
      const extra = await requestJson(monitor.url, '/api/v1/setup', { method: 'POST', body: { username: 'admin', password: 'long-enough-password', role: 'x' } });
      expect(extra.status).toBe(400);
      expect(extra.body['details']).toEqual({ fields: [{ field: 'role', rule: 'unknown_field', message: expect.any(String) }] });
    });

    it('creates the admin from loopback, then answers 404', async () => {
      const created = await requestJson(monitor.url, '/api/v1/setup', { method: 'POST', body: { username: 'owner', password: 'long-enough-password' } });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({ username: 'owner' });
      const again = await requestJson(monitor.url, '/api/v1/setup', { method: 'POST', body: { username: 'other', password: 'long-enough-password' } });
      expect(again.status).toBe(404);
      expect(again.body['error_code']).toBe('not_found');
      expect((await requestJson(monitor.url, '/api/v1/setup/status')).body).toMatchObject({ admin_exists: true, setup_allowed: false });
      const login = await requestJson(monitor.url, '/api/v1/auth/login', { method: 'POST', body: { username: 'owner', password: 'long-enough-password' } });
      expect(login.status).toBe(200);
    });

    it('throttles failed sign-ins per client with 429 and Retry-After', async () => {
      // Failures under another name count per client just the same, without slowing the owner's account.
      const attempt = (client: string) =>
        requestJson(monitor.url, '/api/v1/auth/login', {
          method: 'POST',
          body: { username: 'not-the-owner', password: 'wrong-password' },
          headers: { 'x-forwarded-for': client },
        });
      for (let i = 0; i < LOGIN_FAILURE_LIMIT; i++) expect((await attempt('198.51.100.7')).status).toBe(401);
      const limited = await attempt('198.51.100.7');
      expect(limited.status).toBe(429);
      expect(limited.body['error_code']).toBe('rate_limited');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      // Even the right password waits, and other clients are unaffected.
      const right = await requestJson(monitor.url, '/api/v1/auth/login', {
        method: 'POST',
        body: { username: 'owner', password: 'long-enough-password' },
        headers: { 'x-forwarded-for': '198.51.100.7' },
      });
      expect(right.status).toBe(429);
      expect((await attempt('198.51.100.8')).status).toBe(401);
    });

    it('answers 429 beyond the limit to a parallel burst, then to the right password too', async () => {
      const login = (password: string, username = 'owner') =>
        requestJson(monitor.url, '/api/v1/auth/login', {
          method: 'POST',
          body: { username, password },
          headers: { 'x-forwarded-for': '198.51.100.20' },
        });
      // Failures plus checks in flight never exceed the limit, so exactly LIMIT guesses are checked.
      const burst = await Promise.all(Array.from({ length: 3 * LOGIN_FAILURE_LIMIT }, () => login('wrong-password', 'not-the-owner')));
      const statuses = burst.map((response) => response.status);
      expect(statuses.filter((status) => status === 401)).toHaveLength(LOGIN_FAILURE_LIMIT);
      expect(statuses.filter((status) => status === 429)).toHaveLength(2 * LOGIN_FAILURE_LIMIT);
      for (const limited of burst.filter((response) => response.status === 429)) {
        expect(limited.body['error_code']).toBe('rate_limited');
        expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      const right = await login('long-enough-password');
      expect(right.status).toBe(429);
      expect(right.body['error_code']).toBe('rate_limited');
    });

    it('throttles wrong current passwords of a password change like sign-ins', async () => {
      const signIn = await requestJson(monitor.url, '/api/v1/auth/login', {
        method: 'POST',
        body: { username: 'owner', password: 'long-enough-password' },
        headers: { 'x-forwarded-for': '198.51.100.30' },
      });
      expect(signIn.status).toBe(200);
      const session = { cookie: (signIn.headers.get('set-cookie') ?? '').split(';')[0], csrf: String(signIn.body['csrf_token']) };
      const change = (current: string) =>
        requestJson(monitor.url, '/api/v1/auth/password', {
          method: 'POST',
          headers: { ...adminHeaders(session), 'x-forwarded-for': '198.51.100.31' },
          body: { current_password: current, new_password: 'another-new-password-3' },
        });
      const statuses = (await Promise.all(Array.from({ length: 2 * LOGIN_FAILURE_LIMIT }, () => change('wrong-password-here')))).map(
        (response) => response.status,
      );
      expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(LOGIN_FAILURE_LIMIT);
      expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(LOGIN_FAILURE_LIMIT);
      const right = await change('long-enough-password');
      expect(right.status).toBe(429);
      expect(right.body['error_code']).toBe('rate_limited');
    });
  });

  describe('loopback setup check behind a trusted proxy setting', () => {
    // A non-loopback address of this machine, so a request can come from a remote-looking peer.
    const externalAddress = Object.values(networkInterfaces())
      .flat()
      .find((entry) => entry && entry.family === 'IPv4' && !entry.internal)?.address;

    async function status(monitor: RunningMonitor, forwardedFor: string): Promise<Record<string, unknown>> {
      return (await requestJson(monitor.url, '/api/v1/setup/status', { headers: { 'x-forwarded-for': forwardedFor } })).body as Record<string, unknown>;
    }

    it('refuses a remote peer that forges a loopback X-Forwarded-For, even with MONITOR_HTTP_TRUST_PROXY=true', async () => {
      expect(externalAddress).toBeDefined();
      const monitor = await startMonitor({ env: { MONITOR_HTTP_ADDR: '0.0.0.0:0', MONITOR_HTTP_TRUST_PROXY: 'true' } });
      try {
        const port = new URL(monitor.url).port;
        const forged = await rawPost(`http://${externalAddress}:${port}`, '/api/v1/setup', { username: 'admin', password: 'long-enough-password' }, {
          host: 'localhost',
          'x-forwarded-for': '127.0.0.1',
        });
        expect(forged.status).toBe(403);
        const local = await rawPost(`http://127.0.0.1:${port}`, '/api/v1/setup', { username: 'admin', password: 'long-enough-password' }, { host: 'localhost' });
        expect(local.status).toBe(201);
      } finally {
        await monitor.close();
      }
    });

    it('takes a hop count and an address list from MONITOR_HTTP_TRUST_PROXY', async () => {
      const oneHop = await startMonitor({ env: { MONITOR_HTTP_TRUST_PROXY: '1' } });
      try {
        // One trusted proxy: the address it appended (the last one) is the client, not what the client claimed.
        expect(await status(oneHop, '127.0.0.1, 203.0.113.9')).toMatchObject({ setup_allowed: false });
        expect(await status(oneHop, '203.0.113.9, 127.0.0.1')).toMatchObject({ setup_allowed: true });
      } finally {
        await oneHop.close();
      }
      const otherProxies = await startMonitor({ env: { MONITOR_HTTP_TRUST_PROXY: '192.0.2.0/24, fd00::/8' } });
      try {
        // The loopback peer is not in the list, so its X-Forwarded-For is ignored.
        expect(await status(otherProxies, '203.0.113.9')).toMatchObject({ setup_allowed: true });
      } finally {
        await otherProxies.close();
      }
      const loopbackProxy = await startMonitor({ env: { MONITOR_HTTP_TRUST_PROXY: '127.0.0.1/8' } });
      try {
        expect(await status(loopbackProxy, '203.0.113.9')).toMatchObject({ setup_allowed: false });
      } finally {
        await loopbackProxy.close();
      }
    });
  });

  describe('with remote setup allowed', () => {
    it('accepts setup from a remote client', async () => {
      const monitor = await startMonitor({ env: { MONITOR_HTTP_TRUST_PROXY: 'true', MONITOR_SETUP_ALLOW_REMOTE: 'true' } });
      try {
        const created = await rawPost(monitor.url, '/api/v1/setup', { username: 'admin', password: 'long-enough-password' }, {
          'x-forwarded-for': '203.0.113.9',
          host: 'monitor.example.com',
        });
        expect(created.status).toBe(201);
      } finally {
        await monitor.close();
      }
    });
  });

  describe('sessions', () => {
    let monitor: RunningMonitor;

    beforeAll(async () => {
      monitor = await startMonitor({ env: { ...TEST_ADMIN_ENV } });
    });

    afterAll(async () => {
      await monitor?.close();
    });

    it('bootstraps the admin from the environment and never overwrites it', async () => {
      expect((await requestJson(monitor.url, '/api/v1/setup/status')).body).toMatchObject({ admin_exists: true });
      await monitor.stop();
      const restarted = await startMonitor({ reuseEnv: monitor.env, env: { MONITOR_ADMIN_PASSWORD: 'a-different-password-1' } });
      try {
        const oldPassword = await requestJson(restarted.url, '/api/v1/auth/login', { method: 'POST', body: { username: 'admin', password: TEST_ADMIN_ENV['MONITOR_ADMIN_PASSWORD'] } });
        expect(oldPassword.status).toBe(200);
        const newPassword = await requestJson(restarted.url, '/api/v1/auth/login', { method: 'POST', body: { username: 'admin', password: 'a-different-password-1' } });
        expect(newPassword.status).toBe(401);
      } finally {
        await restarted.stop();
      }
      monitor = await startMonitor({ reuseEnv: monitor.env });
    });

    it('refuses wrong credentials with invalid_credentials and 400 on bad input', async () => {
      const wrong = await requestJson(monitor.url, '/api/v1/auth/login', { method: 'POST', body: { username: 'admin', password: 'not-the-password' } });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toEqual({ error_code: 'invalid_credentials', message: expect.any(String) });
      const unknownUser = await requestJson(monitor.url, '/api/v1/auth/login', { method: 'POST', body: { username: 'nobody', password: 'not-the-password' } });
      expect(unknownUser.status).toBe(401);
      const missing = await requestJson(monitor.url, '/api/v1/auth/login', { method: 'POST', body: { username: 'admin' } });
      expect(missing.status).toBe(400);
      expect(missing.body['error_code']).toBe('validation_failed');
    });

    it('sets an HttpOnly SameSite=Lax session cookie, not Secure over http, and returns a CSRF token', async () => {
      const response = await fetch(`${monitor.url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: TEST_ADMIN_ENV['MONITOR_ADMIN_PASSWORD'] }),
      });
      expect(response.status).toBe(200);
      const cookie = response.headers.get('set-cookie') ?? '';
      expect(cookie).toMatch(/^monitor_session=[A-Za-z0-9_-]{20,};/);
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      expect(cookie).not.toMatch(/Secure/i);
      const body = (await response.json()) as Record<string, unknown>;
      expect(body).toEqual({ username: 'admin', csrf_token: expect.any(String), expires_at: expect.any(String) });
    });

    it('requires the CSRF token on writes and signs out', async () => {
      const session = await loginAdmin(monitor);
      const info = await requestJson(monitor.url, '/api/v1/auth/session', { headers: { cookie: session.cookie } });
      expect(info.status).toBe(200);
      expect(info.body).toMatchObject({ username: 'admin' });

      const noToken = await requestJson(monitor.url, '/api/v1/auth/logout', { method: 'POST', headers: { cookie: session.cookie } });
      expect(noToken.status).toBe(403);
      expect(noToken.body['error_code']).toBe('csrf_failed');
      const wrongToken = await requestJson(monitor.url, '/api/v1/auth/logout', { method: 'POST', headers: { cookie: session.cookie, 'x-csrf-token': 'nope' } });
      expect(wrongToken.status).toBe(403);
      const otherSession = await loginAdmin(monitor);
      const crossed = await requestJson(monitor.url, '/api/v1/auth/logout', { method: 'POST', headers: { cookie: session.cookie, 'x-csrf-token': otherSession.csrf } });
      expect(crossed.status).toBe(403);

      const logout = await requestJson(monitor.url, '/api/v1/auth/logout', { method: 'POST', headers: adminHeaders(session) });
      expect(logout.status).toBe(204);
      expect((await requestJson(monitor.url, '/api/v1/auth/session', { headers: { cookie: session.cookie } })).status).toBe(401);
      expect((await requestJson(monitor.url, '/api/v1/auth/session', { headers: { cookie: otherSession.cookie } })).status).toBe(200);
    });

    it('changes the password and signs out every other session', async () => {
      const current = await loginAdmin(monitor);
      const other = await loginAdmin(monitor);
      const wrongCurrent = await requestJson(monitor.url, '/api/v1/auth/password', {
        method: 'POST',
        headers: adminHeaders(current),
        body: { current_password: 'wrong-password-here', new_password: 'brand-new-password-2' },
      });
      expect(wrongCurrent.status).toBe(401);
      const tooShort = await requestJson(monitor.url, '/api/v1/auth/password', {
        method: 'POST',
        headers: adminHeaders(current),
        body: { current_password: TEST_ADMIN_ENV['MONITOR_ADMIN_PASSWORD'], new_password: 'short' },
      });
      expect(tooShort.status).toBe(400);
      const changed = await requestJson(monitor.url, '/api/v1/auth/password', {
        method: 'POST',
        headers: adminHeaders(current),
        body: { current_password: TEST_ADMIN_ENV['MONITOR_ADMIN_PASSWORD'], new_password: 'brand-new-password-2' },
      });
      expect(changed.status).toBe(204);
      expect((await requestJson(monitor.url, '/api/v1/auth/session', { headers: { cookie: current.cookie } })).status).toBe(200);
      expect((await requestJson(monitor.url, '/api/v1/auth/session', { headers: { cookie: other.cookie } })).status).toBe(401);
      const oldLogin = await requestJson(monitor.url, '/api/v1/auth/login', { method: 'POST', body: { username: 'admin', password: TEST_ADMIN_ENV['MONITOR_ADMIN_PASSWORD'] } });
      expect(oldLogin.status).toBe(401);
      const newLogin = await requestJson(monitor.url, '/api/v1/auth/login', { method: 'POST', body: { username: 'admin', password: 'brand-new-password-2' } });
      expect(newLogin.status).toBe(200);
    });

    it('answers 401 without a session on every non-public route, and csrf_failed on every write without the token', async () => {
      const routes = routeTable(monitor);
      const guarded = routes.filter((route) => !PUBLIC_ROUTES.has(`${route.method} ${route.path}`));
      expect(guarded.length).toBeGreaterThan(10);
      // A public route that was renamed or removed must leave the list too, so the list stays the truth.
      expect([...PUBLIC_ROUTES].filter((entry) => !routes.some((route) => `${route.method} ${route.path}` === entry))).toEqual([]);
      const session = await requestJson<{ csrf_token: string }>(monitor.url, '/api/v1/auth/login', {
        method: 'POST',
        body: { username: 'admin', password: 'brand-new-password-2' },
      });
      const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0];
      for (const route of guarded) {
        const body = ['GET', 'HEAD', 'DELETE'].includes(route.method) ? undefined : {};
        const anonymous = await requestJson(monitor.url, route.path, { method: route.method, body });
        expect({ route: `${route.method} ${route.path}`, status: anonymous.status, code: (anonymous.body as Record<string, unknown>)?.['error_code'] }).toEqual({
          route: `${route.method} ${route.path}`,
          status: 401,
          code: 'unauthorized',
        });
        const forgedBearer = await requestJson(monitor.url, route.path, { method: route.method, body, token: 'not-a-real-token' });
        expect(forgedBearer.status).toBe(401);
        if (!['GET', 'HEAD', 'OPTIONS'].includes(route.method)) {
          const noCsrf = await requestJson(monitor.url, route.path, { method: route.method, body, headers: { cookie } });
          expect({ route: `${route.method} ${route.path}`, status: noCsrf.status }).toEqual({ route: `${route.method} ${route.path}`, status: 403 });
        }
      }
    });
  });

  describe('behind https', () => {
    it('marks the session cookie Secure when the public base URL is https', async () => {
      const monitor = await startMonitor({ env: { ...TEST_ADMIN_ENV, MONITOR_PUBLIC_BASE_URL: 'https://monitor.example.com' } });
      try {
        const response = await fetch(`${monitor.url}/api/v1/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'admin', password: TEST_ADMIN_ENV['MONITOR_ADMIN_PASSWORD'] }),
        });
        expect(response.headers.get('set-cookie')).toMatch(/;\s*Secure/i);
      } finally {
        await monitor.close();
      }
    });
  });
});
