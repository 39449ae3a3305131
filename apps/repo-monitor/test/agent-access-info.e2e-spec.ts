import { requestJson } from '@shared/testing';
import { adminHeaders, AdminSession, loginAdmin, RunningMonitor, startMonitor, TEST_ADMIN_ENV, TEST_ENCRYPTION_KEY } from './harness';

const CLIENT_SECRET = 'agent-client-secret-0123456789';
const METRICS_TOKEN = 'metrics-token-abcdefghijklmnop';

describe('GET /api/v1/agent-access and /api/v1/system/metrics', () => {
  let configured: RunningMonitor;
  let bare: RunningMonitor;
  let configuredSession: AdminSession;
  let bareSession: AdminSession;

  beforeAll(async () => {
    configured = await startMonitor({
      env: {
        ...TEST_ADMIN_ENV,
        MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        MONITOR_OAUTH_CLIENT_ID: 'my-agent',
        MONITOR_OAUTH_CLIENT_SECRET: CLIENT_SECRET,
        MONITOR_METRICS_TOKEN: METRICS_TOKEN,
        MONITOR_PUBLIC_BASE_URL: 'https://monitor.example.com',
      },
    });
    bare = await startMonitor({ env: { ...TEST_ADMIN_ENV, MONITOR_METRICS_ENABLED: 'false' } });
    configuredSession = await loginAdmin(configured);
    bareSession = await loginAdmin(bare);
  });
  afterAll(async () => {
    await configured?.close();
    await bare?.close();
  });

  it('names every URL an agent needs and says the secret is set, without showing it', async () => {
    const answer = await requestJson(configured.url, '/api/v1/agent-access', { headers: adminHeaders(configuredSession) });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      enabled: true,
      client_id: 'my-agent',
      client_secret_set: true,
      encryption_key_set: true,
      issuer: 'https://monitor.example.com',
      issuer_from_public_base_url: true,
      token_endpoint: 'https://monitor.example.com/oauth/token',
      authorization_server_metadata_url: 'https://monitor.example.com/.well-known/oauth-authorization-server',
      api_resource_metadata_url: 'https://monitor.example.com/.well-known/oauth-protected-resource/api/v1',
      mcp_resource_metadata_url: 'https://monitor.example.com/.well-known/oauth-protected-resource/mcp',
      api_base_url: 'https://monitor.example.com/api/v1',
      mcp_endpoint: 'https://monitor.example.com/mcp',
      openapi_url: 'https://monitor.example.com/openapi.json',
      scope: 'read',
      token_lifetime_seconds: 3600,
      readable_paths: expect.arrayContaining(['/api/v1/events', '/api/v1/work-items']),
    });
    expect(answer.text).not.toContain(CLIENT_SECRET);
    // The discovery document the page points to agrees with it.
    const discovery = await requestJson(configured.url, '/.well-known/oauth-authorization-server');
    expect(discovery.body).toMatchObject({ issuer: 'https://monitor.example.com', token_endpoint: 'https://monitor.example.com/oauth/token' });
  });

  it('says agent access is off, and follows the request origin, when nothing is configured', async () => {
    const answer = await requestJson(bare.url, '/api/v1/agent-access', { headers: adminHeaders(bareSession) });
    expect(answer.body).toMatchObject({
      enabled: false,
      client_id: 'repo-monitor-agent',
      client_secret_set: false,
      encryption_key_set: false,
      issuer: bare.url,
      issuer_from_public_base_url: false,
      mcp_endpoint: `${bare.url}/mcp`,
    });
  });

  it('describes the metrics scrape with the token only as "set" and read from a file', async () => {
    const answer = await requestJson<{ prometheus_scrape_config: string }>(configured.url, '/api/v1/system/metrics', { headers: adminHeaders(configuredSession) });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ enabled: true, token_set: true, scrape_path: '/metrics', scrape_url: 'https://monitor.example.com/metrics' });
    expect(answer.body.prometheus_scrape_config).toContain('scheme: https');
    expect(answer.body.prometheus_scrape_config).toContain("targets: ['monitor.example.com']");
    expect(answer.body.prometheus_scrape_config).toContain('credentials_file:');
    expect(answer.text).not.toContain(METRICS_TOKEN);

    const off = await requestJson<{ prometheus_scrape_config: string }>(bare.url, '/api/v1/system/metrics', { headers: adminHeaders(bareSession) });
    expect(off.body).toMatchObject({ enabled: false, token_set: false, scrape_path: '/metrics', scrape_url: `${bare.url}/metrics` });
    expect(off.body.prometheus_scrape_config).not.toContain('authorization');
  });

  it('refuses both without a session, and to agent tokens', async () => {
    for (const path of ['/api/v1/agent-access', '/api/v1/system/metrics']) {
      expect((await requestJson(configured.url, path)).status).toBe(401);
    }
    const token = await requestJson<{ access_token: string }>(configured.url, '/oauth/token', {
      method: 'POST',
      rawBody: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'my-agent', client_secret: CLIENT_SECRET }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(token.status).toBe(200);
    for (const path of ['/api/v1/agent-access', '/api/v1/system/metrics']) {
      const answer = await requestJson(configured.url, path, { token: token.body.access_token });
      expect(answer.status).toBe(403);
    }
  });
});
