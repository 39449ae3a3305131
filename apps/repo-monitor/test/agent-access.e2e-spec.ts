import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { requestJson } from '@shared/testing';
import { adminHeaders, loginAdmin, RunningMonitor, startMonitor, TEST_ADMIN_ENV, TEST_ENCRYPTION_KEY } from './harness';

const CLIENT_ID = 'repo-monitor-agent';
const CLIENT_SECRET = 'agent-client-secret-0123456789';
const ROTATED_KEY = Buffer.alloc(32, 0xc3).toString('base64');

interface TokenBody {
  access_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
}

function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

async function tokenRequest(url: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  return requestJson<Record<string, unknown>>(url, '/oauth/token', {
    method: 'POST',
    rawBody: new URLSearchParams(form).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });
}

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;
}

async function mcpClient(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'e2e-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

describe('agent access: OAuth client_credentials, read-only API and MCP', () => {
  let monitor: RunningMonitor;

  beforeAll(async () => {
    monitor = await startMonitor({ env: { ...TEST_ADMIN_ENV, MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, MONITOR_OAUTH_CLIENT_SECRET: CLIENT_SECRET } });
  });

  afterAll(async () => {
    await monitor?.close();
  });

  it('publishes discovery metadata without the signing key', async () => {
    const server = await requestJson<Record<string, unknown>>(monitor.url, '/.well-known/oauth-authorization-server');
    expect(server.status).toBe(200);
    expect(server.body).toMatchObject({
      issuer: monitor.url,
      token_endpoint: `${monitor.url}/oauth/token`,
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      scopes_supported: ['read'],
    });
    expect(server.body).not.toHaveProperty('jwks_uri');
    const resource = await requestJson<Record<string, unknown>>(monitor.url, '/.well-known/oauth-protected-resource');
    expect(resource.status).toBe(200);
    expect(resource.body).toMatchObject({ resource: `${monitor.url}/api/v1`, authorization_servers: [monitor.url] });
    expect(JSON.stringify([server.body, resource.body])).not.toContain(TEST_ENCRYPTION_KEY);
  });

  it('issues an HS256 one-hour read token with client_secret_basic and client_secret_post', async () => {
    const viaBasic = await tokenRequest(monitor.url, { grant_type: 'client_credentials' }, { authorization: basic(CLIENT_ID, CLIENT_SECRET) });
    expect(viaBasic.status).toBe(200);
    expect(viaBasic.headers.get('cache-control')).toBe('no-store');
    const body = viaBasic.body as unknown as TokenBody;
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'read' });
    const header = JSON.parse(Buffer.from(body.access_token.split('.')[0], 'base64url').toString('utf8')) as Record<string, unknown>;
    expect(header['alg']).toBe('HS256');
    const claims = claimsOf(body.access_token);
    expect(claims).toMatchObject({ iss: monitor.url, sub: CLIENT_ID, aud: `${monitor.url}/api/v1`, scope: 'read' });
    expect(typeof claims['jti']).toBe('string');
    expect(Number(claims['exp']) - Number(claims['iat'])).toBe(3600);

    const viaPost = await tokenRequest(monitor.url, { grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: CLIENT_SECRET, scope: 'read' });
    expect(viaPost.status).toBe(200);
    expect(claimsOf(String(viaPost.body['access_token']))['jti']).not.toBe(claims['jti']);
  });

  it('refuses bad token requests in the OAuth error format', async () => {
    const wrongSecret = await tokenRequest(monitor.url, { grant_type: 'client_credentials' }, { authorization: basic(CLIENT_ID, 'not-the-secret-at-all') });
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.body).toMatchObject({ error: 'invalid_client', error_code: 'invalid_credentials' });
    expect(wrongSecret.headers.get('www-authenticate')).toContain('Basic');
    const wrongClient = await tokenRequest(monitor.url, { grant_type: 'client_credentials', client_id: 'someone-else', client_secret: CLIENT_SECRET });
    expect(wrongClient.status).toBe(401);
    const noCredentials = await tokenRequest(monitor.url, { grant_type: 'client_credentials' });
    expect(noCredentials.status).toBe(401);
    const noGrant = await tokenRequest(monitor.url, { client_id: CLIENT_ID, client_secret: CLIENT_SECRET });
    expect(noGrant.status).toBe(400);
    expect(noGrant.body).toMatchObject({ error: 'invalid_request', error_code: 'validation_failed' });
    const password = await tokenRequest(monitor.url, { grant_type: 'password', client_id: CLIENT_ID, client_secret: CLIENT_SECRET });
    expect(password.body).toMatchObject({ error: 'unsupported_grant_type' });
    expect(password.status).toBe(400);
    const writeScope = await tokenRequest(monitor.url, { grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: CLIENT_SECRET, scope: 'read write' });
    expect(writeScope.status).toBe(400);
    expect(writeScope.body).toMatchObject({ error: 'invalid_scope' });
    const twoMethods = await tokenRequest(monitor.url, { grant_type: 'client_credentials', client_secret: CLIENT_SECRET }, { authorization: basic(CLIENT_ID, CLIENT_SECRET) });
    expect(twoMethods.status).toBe(400);
  });

  it('lets the token read /api/v1 and answers 403 to every write with it', async () => {
    const token = String((await tokenRequest(monitor.url, { grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: CLIENT_SECRET })).body['access_token']);
    for (const path of ['/api/v1/repositories', '/api/v1/security-alerts', '/api/v1/ai/reviews', '/api/v1/digests', '/api/v1/system/version']) {
      const read = await requestJson(monitor.url, path, { token });
      expect({ path, status: read.status }).toEqual({ path, status: 200 });
    }
    for (const [method, path, body] of [
      ['PUT', '/api/v1/ai/config', { model: 'other' }],
      ['POST', '/api/v1/digests', { period: 'daily' }],
      ['POST', '/api/v1/ai/test', {}],
      ['PUT', '/api/v1/ai/review-settings', { post_comment: true }],
      ['POST', '/api/v1/system/version/check', undefined],
    ] as const) {
      const write = await requestJson(monitor.url, path, { method, token, body });
      expect({ path, status: write.status, code: (write.body as Record<string, unknown>)['error_code'] }).toEqual({ path, status: 403, code: 'forbidden' });
    }
    const unauthenticated = await requestJson(monitor.url, '/api/v1/repositories');
    expect(unauthenticated.status).toBe(401);
    const [head] = token.split('.');
    const forged = `${head}.${Buffer.from(JSON.stringify({ ...claimsOf(token), scope: 'read write' })).toString('base64url')}.${token.split('.')[2]}`;
    expect((await requestJson(monitor.url, '/api/v1/repositories', { token: forged })).status).toBe(401);
    expect((await requestJson(monitor.url, '/api/v1/repositories', { token: `${token}x` })).status).toBe(401);
  });

  it('serves the read-only MCP tools behind the same token', async () => {
    const unauthenticated = await fetch(`${monitor.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('www-authenticate')).toContain('resource_metadata=');

    const token = String((await tokenRequest(monitor.url, { grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: CLIENT_SECRET })).body['access_token']);
    const client = await mcpClient(monitor.url, token);
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((tool) => tool.name).sort()).toEqual(['get_digest', 'list_alerts', 'list_events', 'list_repositories', 'list_work_items']);
      expect(tools.tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
      const repositories = await client.callTool({ name: 'list_repositories', arguments: { per_page: 5 } });
      const content = repositories.content as Array<{ type: string; text: string }>;
      expect(JSON.parse(content[0].text)).toMatchObject({ items: [], page: 1, per_page: 5, total: 0 });
      for (const name of ['list_events', 'list_work_items', 'list_alerts']) {
        const result = await client.callTool({ name, arguments: { repository: 'acme/none' } });
        expect(JSON.parse((result.content as Array<{ text: string }>)[0].text)).toMatchObject({ total: 0 });
      }
      const digest = await client.callTool({ name: 'get_digest', arguments: {} });
      expect(JSON.parse((digest.content as Array<{ text: string }>)[0].text)).toMatchObject({ digest: null });
      const invalid = await client.callTool({ name: 'list_events', arguments: { per_page: 1000 } });
      expect(invalid.isError).toBe(true);
    } finally {
      await client.close();
    }
    const session = await loginAdmin(monitor);
    const viaSession = await requestJson(monitor.url, '/mcp', { method: 'POST', headers: adminHeaders(session), body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect(viaSession.status).toBe(401);
  });

  it('invalidates every token when the master key rotates', async () => {
    const before = String((await tokenRequest(monitor.url, { grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: CLIENT_SECRET })).body['access_token']);
    expect((await requestJson(monitor.url, '/api/v1/repositories', { token: before })).status).toBe(200);
    await monitor.stop();
    monitor = await startMonitor({ reuseEnv: monitor.env, env: { MONITOR_ENCRYPTION_KEY: ROTATED_KEY, MONITOR_ENCRYPTION_KEY_PREVIOUS: TEST_ENCRYPTION_KEY } });
    const stale = await requestJson(monitor.url, '/api/v1/repositories', { token: before });
    expect(stale.status).toBe(401);
    const after = String((await tokenRequest(monitor.url, { grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: CLIENT_SECRET })).body['access_token']);
    expect((await requestJson(monitor.url, '/api/v1/repositories', { token: after })).status).toBe(200);
  });

  it('rate-limits token requests per client (and failures per address) with 429 and Retry-After', async () => {
    let limited: Awaited<ReturnType<typeof tokenRequest>> | undefined;
    for (let attempt = 0; attempt < 25 && !limited; attempt++) {
      const response = await tokenRequest(monitor.url, { grant_type: 'client_credentials', client_id: 'flooding-client', client_secret: 'whatever-secret' });
      if (response.status === 429) limited = response;
      else expect(response.status).toBe(401);
    }
    expect(limited?.body).toMatchObject({ error_code: 'rate_limited' });
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('agent access token rate limits', () => {
  let monitor: RunningMonitor;

  beforeAll(async () => {
    // Trusting X-Forwarded-For lets the test present many client addresses.
    monitor = await startMonitor({
      env: { MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, MONITOR_OAUTH_CLIENT_SECRET: CLIENT_SECRET, MONITOR_HTTP_TRUST_PROXY: 'true' },
    });
  });

  afterAll(async () => {
    await monitor?.close();
  });

  it('does not let wrong-secret requests naming the real client id from other addresses lock the agent out', async () => {
    for (let attempt = 0; attempt < 30; attempt++) {
      const guess = await tokenRequest(
        monitor.url,
        { grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: `guess-${attempt}` },
        { 'x-forwarded-for': `203.0.113.${attempt + 1}` },
      );
      expect(guess.status).toBe(401);
    }
    const legit = await tokenRequest(monitor.url, { grant_type: 'client_credentials' }, { authorization: basic(CLIENT_ID, CLIENT_SECRET), 'x-forwarded-for': '198.51.100.50' });
    expect(legit.status).toBe(200);
  });

  it('still limits failures per address and issued tokens per client', async () => {
    let addressLimited = 0;
    for (let attempt = 0; attempt < 25; attempt++) {
      const guess = await tokenRequest(monitor.url, { grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: 'wrong' }, { 'x-forwarded-for': '203.0.113.200' });
      if (guess.status === 429) addressLimited++;
    }
    expect(addressLimited).toBeGreaterThan(0);
    // The right secret from that address waits as well; other addresses are unaffected.
    expect((await tokenRequest(monitor.url, { grant_type: 'client_credentials' }, { authorization: basic(CLIENT_ID, CLIENT_SECRET), 'x-forwarded-for': '203.0.113.200' })).status).toBe(429);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 25; attempt++) {
      const issued = await tokenRequest(monitor.url, { grant_type: 'client_credentials' }, { authorization: basic(CLIENT_ID, CLIENT_SECRET), 'x-forwarded-for': '198.51.100.51' });
      statuses.push(issued.status);
    }
    expect(statuses[0]).toBe(200);
    expect(statuses).toContain(429);
  });
});

describe('agent access without a client secret', () => {
  let monitor: RunningMonitor;

  beforeAll(async () => {
    monitor = await startMonitor({ env: { MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY } });
  });

  afterAll(async () => {
    await monitor?.close();
  });

  it('still serves discovery but refuses every token request with unauthorized_client', async () => {
    expect((await requestJson(monitor.url, '/.well-known/oauth-authorization-server')).status).toBe(200);
    expect((await requestJson(monitor.url, '/.well-known/oauth-protected-resource')).status).toBe(200);
    const refused = await tokenRequest(monitor.url, { grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: 'anything-goes-here' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'unauthorized_client', error_code: 'validation_failed' });
    const mcp = await requestJson(monitor.url, '/mcp', { method: 'POST', token: 'a.b.c', body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect(mcp.status).toBe(401);
  });
});
