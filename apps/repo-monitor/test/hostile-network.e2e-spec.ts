import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LocalReverseProxy, requestJson } from '@shared/testing';
import { request as httpRequest } from 'node:http';
import { networkInterfaces } from 'node:os';
import { DataSource } from 'typeorm';
import { LOGIN_FAILURE_LIMIT } from '../src/app/admin/login-throttle';
import { TOKEN_REQUESTS_PER_MINUTE } from '../src/app/agent-access/oauth.controller';
import { RunningMonitor, TEST_ADMIN_ENV, TEST_ENCRYPTION_KEY, adminHeaders, loginAdmin, startMonitor } from './harness';

const CLIENT_ID = 'repo-monitor-agent';
const CLIENT_SECRET = 'agent-client-secret-for-hostile-network-tests';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A request with any headers, Host included (fetch does not let a caller set Host), optionally from a chosen local address. */
function rawRequest(url: string, options: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string } = {}): Promise<RawResponse> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: options.method ?? 'GET',
        localAddress: options.localAddress,
        headers: { ...(options.body !== undefined ? { 'content-length': String(Buffer.byteLength(options.body)) } : {}), ...(options.headers ?? {}) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

function json(response: RawResponse): Record<string, unknown> {
  return JSON.parse(response.text || '{}') as Record<string, unknown>;
}

const externalAddress = Object.values(networkInterfaces())
  .flat()
  .find((entry) => entry && entry.family === 'IPv4' && !entry.internal)?.address;

describe('cross-site writes to the console API (first-run setup takeover)', () => {
  let monitor: RunningMonitor;

  beforeAll(async () => {
    monitor = await startMonitor();
  });

  afterAll(async () => {
    await monitor?.close();
  });

  const setupBody = JSON.stringify({ username: 'owner', password: 'long-enough-password' });

  it('refuses a form or text/plain POST to setup and login with 415, creating nothing', async () => {
    const form = await rawRequest(`${monitor.url}/api/v1/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'username=attacker&password=long-enough-password',
    });
    expect(form.status).toBe(415);
    expect(json(form)).toMatchObject({ error_code: 'validation_failed', message: expect.stringContaining('application/json') });
    const plain = await rawRequest(`${monitor.url}/api/v1/setup`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: setupBody });
    expect(plain.status).toBe(415);
    const multipart = await rawRequest(`${monitor.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      body: '--x\r\nContent-Disposition: form-data; name="username"\r\n\r\nowner\r\n--x--\r\n',
    });
    expect(multipart.status).toBe(415);
    const noType = await rawRequest(`${monitor.url}/api/v1/auth/login`, { method: 'POST', body: setupBody });
    expect(noType.status).toBe(415);
    const login = await rawRequest(`${monitor.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'username=owner&password=long-enough-password',
    });
    expect(login.status).toBe(415);
    expect((await requestJson(monitor.url, '/api/v1/setup/status')).body).toMatchObject({ admin_exists: false });
  });

  it('refuses a JSON write a browser marks as cross-site, or from another Origin, with 403', async () => {
    const attempts: Array<Record<string, string>> = [
      { 'sec-fetch-site': 'cross-site', origin: 'http://evil.example' },
      { 'sec-fetch-site': 'same-site', origin: 'http://localhost:9999' },
      { origin: 'http://evil.example' },
      { origin: 'null' },
    ];
    for (const headers of attempts) {
      const refused = await rawRequest(`${monitor.url}/api/v1/setup`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: setupBody });
      expect(refused.status).toBe(403);
      expect(json(refused)).toMatchObject({ error_code: 'csrf_failed', message: expect.stringContaining('cross-site') });
    }
    expect((await requestJson(monitor.url, '/api/v1/setup/status')).body).toMatchObject({ admin_exists: false });
  });

  it('accepts the same request from the console itself (same origin) and signs in the same way', async () => {
    const origin = monitor.url;
    const created = await rawRequest(`${monitor.url}/api/v1/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', origin, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' },
      body: setupBody,
    });
    expect(created.status).toBe(201);
    const login = await rawRequest(`${monitor.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ username: 'owner', password: 'long-enough-password' }),
    });
    expect(login.status).toBe(200);
    // A bodiless write (sign-out) needs no content type.
    const cookie = String(login.headers['set-cookie']?.[0] ?? '').split(';')[0];
    const logout = await rawRequest(`${monitor.url}/api/v1/auth/logout`, {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': String(json(login)['csrf_token']), 'sec-fetch-site': 'same-origin' },
    });
    expect(logout.status).toBe(204);
  });
});

describe('behind an appending reverse proxy (MONITOR_HTTP_TRUST_PROXY=true)', () => {
  let monitor: RunningMonitor;
  let proxy: LocalReverseProxy;

  beforeAll(async () => {
    monitor = await startMonitor({
      env: { ...TEST_ADMIN_ENV, MONITOR_HTTP_TRUST_PROXY: 'true', MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, MONITOR_OAUTH_CLIENT_SECRET: CLIENT_SECRET },
    });
    // Listens on every interface, so a client can reach it from a non-loopback address.
    proxy = await new LocalReverseProxy({ upstream: monitor.url, host: '0.0.0.0' }).start();
  });

  afterAll(async () => {
    await proxy?.close();
    await monitor?.close();
  });

  it('takes the address the proxy appended, so a forged loopback X-Forwarded-For cannot open setup', async () => {
    expect(externalAddress).toBeDefined();
    // No admin yet: setup is open to loopback clients only.
    const fresh = await startMonitor({ env: { MONITOR_HTTP_TRUST_PROXY: 'true' } });
    const sameHostProxy = await new LocalReverseProxy({ upstream: fresh.url, host: '0.0.0.0' }).start();
    try {
      const remote = `http://${externalAddress}:${sameHostProxy.port}`;
      const status = await rawRequest(`${remote}/api/v1/setup/status`, { headers: { host: 'localhost', 'x-forwarded-for': '127.0.0.1' } });
      expect(json(status)).toMatchObject({ admin_exists: false, setup_allowed: false });
      const setup = await rawRequest(`${remote}/api/v1/setup`, {
        method: 'POST',
        headers: { host: 'localhost', 'x-forwarded-for': '127.0.0.1', 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'intruder', password: 'long-enough-password' }),
      });
      expect(setup.status).toBe(403);
      // The same proxy used from the machine itself still allows setup.
      const local = await rawRequest(`${sameHostProxy.url}/api/v1/setup/status`, { headers: { host: 'localhost' } });
      expect(json(local)).toMatchObject({ setup_allowed: true });
    } finally {
      await sameHostProxy.close();
      await fresh.close();
    }
  });

  it('throttles sign-in failures by the real client however the client rotates X-Forwarded-For', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < LOGIN_FAILURE_LIMIT + 2; attempt++) {
      const response = await rawRequest(`${proxy.url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${attempt + 1}` },
        body: JSON.stringify({ username: 'someone-else', password: `guess-${attempt}` }),
        localAddress: '127.0.0.7',
      });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, LOGIN_FAILURE_LIMIT)).toEqual(new Array(LOGIN_FAILURE_LIMIT).fill(401));
    expect(statuses.slice(LOGIN_FAILURE_LIMIT)).toEqual([429, 429]);
    // Another client behind the same proxy is unaffected.
    const other = await rawRequest(`${proxy.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: TEST_ADMIN_ENV['MONITOR_ADMIN_USERNAME'], password: TEST_ADMIN_ENV['MONITOR_ADMIN_PASSWORD'] }),
      localAddress: '127.0.0.8',
    });
    expect(other.status).toBe(200);
  });

  it('limits failed OAuth client authentications by the real client however it rotates X-Forwarded-For', async () => {
    let limited = 0;
    for (let attempt = 0; attempt < TOKEN_REQUESTS_PER_MINUTE + 3; attempt++) {
      const response = await rawRequest(`${proxy.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': `192.0.2.${attempt + 1}` },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: `wrong-${attempt}` }).toString(),
        localAddress: '127.0.0.9',
      });
      if (response.status === 429) limited++;
    }
    expect(limited).toBeGreaterThan(0);
  });

  it('marks the session cookie Secure with the __Host- prefix when the proxy says https', async () => {
    const tlsProxy = await new LocalReverseProxy({ upstream: monitor.url, forwardedProto: 'https' }).start();
    try {
      const login = await rawRequest(`${tlsProxy.url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: TEST_ADMIN_ENV['MONITOR_ADMIN_USERNAME'], password: TEST_ADMIN_ENV['MONITOR_ADMIN_PASSWORD'] }),
      });
      expect(login.status).toBe(200);
      const cookies = (login.headers['set-cookie'] ?? []) as string[];
      const session = cookies.find((cookie) => cookie.startsWith('__Host-monitor_session='));
      expect(session).toBeDefined();
      expect(session).toMatch(/; Secure/);
      expect(session).toMatch(/; Path=\//);
      expect(session).not.toMatch(/Domain=/i);
      expect(session).toMatch(/HttpOnly/);
      const sessionCheck = await rawRequest(`${tlsProxy.url}/api/v1/auth/session`, { headers: { cookie: String(session).split(';')[0] } });
      expect(sessionCheck.status).toBe(200);
    } finally {
      await tlsProxy.close();
    }
    // Plain http straight to the service keeps the plain, non-Secure cookie (localhost works).
    const plain = await rawRequest(`${monitor.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: TEST_ADMIN_ENV['MONITOR_ADMIN_USERNAME'], password: TEST_ADMIN_ENV['MONITOR_ADMIN_PASSWORD'] }),
      localAddress: '127.0.0.10',
    });
    const plainCookie = ((plain.headers['set-cookie'] ?? []) as string[]).find((cookie) => cookie.startsWith('monitor_session='));
    expect(plainCookie).toBeDefined();
    expect(plainCookie).not.toMatch(/Secure/);
  });
});

describe('login throttle: a stranger cannot lock the owner out', () => {
  let monitor: RunningMonitor;
  let device: string;
  const credentials = JSON.stringify({ username: TEST_ADMIN_ENV['MONITOR_ADMIN_USERNAME'], password: TEST_ADMIN_ENV['MONITOR_ADMIN_PASSWORD'] });
  const login = (body: string, localAddress: string, cookie?: string) =>
    rawRequest(`${monitor.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body,
      localAddress,
    });

  beforeAll(async () => {
    monitor = await startMonitor({ env: { ...TEST_ADMIN_ENV } });
    const first = await login(credentials, '127.0.2.1');
    expect(first.status).toBe(200);
    device = String(((first.headers['set-cookie'] ?? []) as string[]).find((cookie) => cookie.startsWith('monitor_device=')) ?? '').split(';')[0];
    expect(device).toMatch(/^monitor_device=/);
  });

  afterAll(async () => {
    await monitor?.close();
  });

  it('slows guesses at the admin account from many addresses, but not the browser the admin used before', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 8; attempt++) {
      const guess = JSON.stringify({ username: TEST_ADMIN_ENV['MONITOR_ADMIN_USERNAME'], password: `guess-${attempt}` });
      statuses.push((await login(guess, `127.0.3.${attempt + 1}`)).status);
    }
    expect(statuses).toContain(429);
    expect(statuses.filter((status) => status === 401).length).toBeLessThan(8);
    const stranger = await login(credentials, '127.0.3.100');
    expect(stranger.status).toBe(429);
    expect(Number(stranger.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await login(credentials, '127.0.3.101', device)).status).toBe(200);
  });

  it('lets that browser through while its shared address is blocked (trust off behind a proxy)', async () => {
    for (let attempt = 0; attempt < LOGIN_FAILURE_LIMIT; attempt++) {
      expect((await login(JSON.stringify({ username: 'not-the-admin', password: `guess-${attempt}` }), '127.0.4.1')).status).toBe(401);
    }
    expect((await login(credentials, '127.0.4.1')).status).toBe(429);
    expect((await login(credentials, '127.0.4.1', device)).status).toBe(200);
    // A forged device cookie is just a stranger.
    expect((await login(credentials, '127.0.4.1', 'monitor_device=abc.def')).status).toBe(429);
  });
});

describe('Host header, issuer binding and MCP discovery', () => {
  let monitor: RunningMonitor;

  beforeAll(async () => {
    monitor = await startMonitor({ env: { ...TEST_ADMIN_ENV, MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, MONITOR_OAUTH_CLIENT_SECRET: CLIENT_SECRET } });
  });

  afterAll(async () => {
    await monitor?.close();
  });

  async function token(host?: string, form: Record<string, string> = {}): Promise<RawResponse> {
    return rawRequest(`${monitor.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(host ? { host } : {}) },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: CLIENT_SECRET, ...form }).toString(),
    });
  }

  it('never reflects a hostile Host into WWW-Authenticate', async () => {
    const injected = await rawRequest(`${monitor.url}/mcp`, {
      method: 'POST',
      headers: { host: 'evil.example", error="injected', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(injected.status).toBe(400);
    expect(String(injected.headers['www-authenticate'] ?? '')).not.toContain('injected');
    const plain = await rawRequest(`${monitor.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(plain.status).toBe(401);
    expect(plain.headers['www-authenticate']).toBe(`Bearer resource_metadata="${monitor.url}/.well-known/oauth-protected-resource/mcp", scope="read"`);
  });

  it('ignores X-Forwarded-Host from a peer that is not a trusted proxy', async () => {
    const metadata = await rawRequest(`${monitor.url}/.well-known/oauth-authorization-server`, { headers: { 'x-forwarded-host': 'evil.example' } });
    expect(json(metadata)).toMatchObject({ issuer: monitor.url, token_endpoint: `${monitor.url}/oauth/token` });
  });

  it('refuses a token issued under another Host (a foreign iss)', async () => {
    const foreign = await token('evil.example');
    expect(foreign.status).toBe(200);
    const accessToken = String(json(foreign)['access_token']);
    const claims = JSON.parse(Buffer.from(accessToken.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;
    expect(claims['iss']).toBe('http://evil.example');
    expect((await requestJson(monitor.url, '/api/v1/repositories', { token: accessToken })).status).toBe(401);
    const mcp = await rawRequest(`${monitor.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${accessToken}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(mcp.status).toBe(401);
    const own = String(json(await token())['access_token']);
    expect((await requestJson(monitor.url, '/api/v1/repositories', { token: own })).status).toBe(200);
  });

  it('serves per-resource metadata and an honest authorization endpoint', async () => {
    const mcpResource = await requestJson(monitor.url, '/.well-known/oauth-protected-resource/mcp');
    expect(mcpResource.status).toBe(200);
    expect(mcpResource.body).toMatchObject({ resource: `${monitor.url}/mcp`, authorization_servers: [monitor.url] });
    expect((await requestJson(monitor.url, '/.well-known/oauth-protected-resource/api/v1')).body).toMatchObject({ resource: `${monitor.url}/api/v1` });
    const server = await requestJson(monitor.url, '/.well-known/oauth-authorization-server');
    expect(server.body).toMatchObject({ authorization_endpoint: `${monitor.url}/oauth/authorize`, response_types_supported: [], grant_types_supported: ['client_credentials'] });
    const authorize = await requestJson(monitor.url, '/oauth/authorize?response_type=code&client_id=x');
    expect(authorize.status).toBe(400);
    expect(authorize.body).toMatchObject({ error: 'unsupported_response_type' });
    const wrongResource = await token(undefined, { resource: 'https://elsewhere.example/mcp' });
    expect(wrongResource.status).toBe(400);
    expect(json(wrongResource)).toMatchObject({ error: 'invalid_target' });
  });

  it('lets the official MCP SDK client find a token with only the MCP URL, client id and secret, then list and call tools', async () => {
    const mcpUrl = new URL(`${monitor.url}/mcp`);
    const provider = new ClientCredentialsProvider({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, expectedIssuer: mcpUrl.origin });
    const client = new Client({ name: 'sdk-discovery-agent', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
    await client.connect(transport);
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['list_repositories', 'get_digest']));
      const result = await client.callTool({ name: 'list_repositories', arguments: {} });
      expect(result.isError).toBeFalsy();
      const issued = provider.tokens();
      expect(issued?.access_token).toBeDefined();
      const claims = JSON.parse(Buffer.from(String(issued?.access_token).split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;
      expect(claims).toMatchObject({ iss: monitor.url, aud: `${monitor.url}/mcp` });
      // A token asked for the MCP resource is not good for the REST API.
      expect((await requestJson(monitor.url, '/api/v1/repositories', { token: String(issued?.access_token) })).status).toBe(401);
    } finally {
      await client.close();
    }
  });

  it('keeps an agent token out of the audit log, channels and settings, and in the monitored data', async () => {
    const admin = await loginAdmin(monitor);
    await rawRequest(`${monitor.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'probably-the-admins-password', password: 'nope' }),
      localAddress: '127.0.0.20',
    });
    expect((await requestJson<{ items: Array<{ actor: string }> }>(monitor.url, '/api/v1/audit-log', { headers: adminHeaders(admin) })).text).toContain(
      'probably-the-admins-password',
    );
    const agentToken = String(json(await token())['access_token']);
    for (const path of ['/api/v1/audit-log', '/api/v1/notification-channels', '/api/v1/notifications/outbox', '/api/v1/ai/config', '/api/v1/github/app', '/api/v1/system/settings']) {
      const response = await requestJson(monitor.url, path, { token: agentToken });
      expect({ path, status: response.status }).toEqual({ path, status: 403 });
      expect(response.text).not.toContain('probably-the-admins-password');
    }
    for (const path of ['/api/v1/repositories', '/api/v1/events', '/api/v1/work-items', '/api/v1/security-alerts', '/api/v1/digests']) {
      expect({ path, status: (await requestJson(monitor.url, path, { token: agentToken })).status }).toEqual({ path, status: 200 });
    }
  });
});

describe('console-set GitHub App fields: sealed, and the public base URL used at once', () => {
  it('stores app id, client id and public base URL encrypted, seals clear rows of an earlier version, and issues under the new URL without restart', async () => {
    let monitor = await startMonitor({ env: { ...TEST_ADMIN_ENV, MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, MONITOR_OAUTH_CLIENT_SECRET: CLIENT_SECRET } });
    try {
      const admin = await loginAdmin(monitor);
      const saved = await requestJson(monitor.url, '/api/v1/github/app', {
        method: 'PUT',
        headers: adminHeaders(admin),
        body: { app_id: '987654', client_id: 'Iv1.sealedclient', public_base_url: 'https://monitor.example.com/' },
      });
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({ app_id: '987654', client_id: 'Iv1.sealedclient', public_base_url: 'https://monitor.example.com' });
      const dataSource = monitor.app.get(DataSource);
      const rows: Array<{ key: string; value: string }> = await dataSource.query(`SELECT "key", "value" FROM "settings" WHERE "key" LIKE 'github.%'`);
      const stored = rows.map((row) => row.value).join('\n');
      for (const clear of ['987654', 'Iv1.sealedclient', 'monitor.example.com']) expect(stored).not.toContain(clear);
      expect(rows.map((row) => row.key).sort()).toEqual(['github.app_id', 'github.client_id', 'github.public_base_url']);

      // The console value is the issuer and discovery origin right away.
      const metadata = await requestJson(monitor.url, '/.well-known/oauth-authorization-server');
      expect(metadata.body).toMatchObject({ issuer: 'https://monitor.example.com', token_endpoint: 'https://monitor.example.com/oauth/token' });
      const mcp = await requestJson(monitor.url, '/mcp', { method: 'POST', body: {} });
      expect(mcp.headers.get('www-authenticate')).toContain('resource_metadata="https://monitor.example.com/.well-known/oauth-protected-resource/mcp"');
      const issued = await rawRequest(`${monitor.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: CLIENT_SECRET }).toString(),
      });
      const claims = JSON.parse(Buffer.from(String(json(issued)['access_token']).split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;
      expect(claims['iss']).toBe('https://monitor.example.com');
      // The https public base URL makes the session cookie Secure.
      const login = await rawRequest(`${monitor.url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: TEST_ADMIN_ENV['MONITOR_ADMIN_USERNAME'], password: TEST_ADMIN_ENV['MONITOR_ADMIN_PASSWORD'] }),
      });
      expect(((login.headers['set-cookie'] ?? []) as string[]).some((cookie) => cookie.startsWith('__Host-monitor_session=') && /; Secure/.test(cookie))).toBe(true);

      // Rows an earlier version stored in clear are still read, and sealed at the next start.
      await dataSource.query(`UPDATE "settings" SET "value" = $1 WHERE "key" = 'github.app_id'`.replace('$1', dataSource.options.type === 'postgres' ? '$1' : '?'), [JSON.stringify('111222')]);
      expect((await requestJson(monitor.url, '/api/v1/github/app', { headers: adminHeaders(admin) })).body).toMatchObject({ app_id: '111222' });
      await monitor.stop();
      monitor = await startMonitor({ reuseEnv: monitor.env });
      const after: Array<{ value: string }> = await monitor.app
        .get(DataSource)
        .query(`SELECT "value" FROM "settings" WHERE "key" = 'github.app_id'`);
      expect(after[0].value).not.toContain('111222');
      expect(after[0].value).toContain('envelope');
      const again = await loginAdmin(monitor);
      expect((await requestJson(monitor.url, '/api/v1/github/app', { headers: adminHeaders(again) })).body).toMatchObject({ app_id: '111222' });
    } finally {
      await monitor.close();
    }
  });
});
