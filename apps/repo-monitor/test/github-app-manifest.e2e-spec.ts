import { generateKeyPairSync } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { generateGitHubAppKeyPair, LocalGitHubApi, requestJson, waitFor } from '@shared/testing';
import { SettingsStore } from '../src/app/settings/settings.store';
import { PUBLIC_BASE_URL_KEY } from '../src/app/settings/github-app-shared-settings';
import { installationCreated, sendDelivery } from './github-fixtures';
import { adminHeaders, AdminSession, loginAdmin, RunningMonitor, startMonitor, TEST_ADMIN_ENV, TEST_ENCRYPTION_KEY } from './harness';

const APP_ID = 4242;
const WEBHOOK_SECRET = 'manifest-webhook-secret-0123456789';
const CLIENT_SECRET = 'manifest-client-secret-abcdef0123456789';

interface ManifestStart {
  post_url: string;
  state: string;
  expires_at: string;
  manifest: Record<string, unknown> & { hook_attributes: { url: string }; redirect_url: string; default_permissions: Record<string, string>; default_events: string[] };
}

describe('one-click GitHub App creation (manifest flow) against the local GitHub', () => {
  const keys = generateGitHubAppKeyPair();
  const github = new LocalGitHubApi({
    appId: APP_ID,
    publicKey: keys.publicKey,
    clientId: 'Iv1.manifest0001',
    appSlug: 'repo-monitor-e2e',
    manifestFlow: { privateKey: keys.privateKey, webhookSecret: WEBHOOK_SECRET, clientSecret: CLIENT_SECRET },
  });
  let monitor: RunningMonitor;
  let session: AdminSession;

  const call = <T = Record<string, unknown>>(method: string, path: string, body?: unknown, as: AdminSession = session) =>
    requestJson<T>(monitor.url, path, { method, headers: adminHeaders(as), body });
  const start = (body: Record<string, unknown> = {}, as: AdminSession = session) => call<ManifestStart>('POST', '/api/v1/github/app/manifest', body, as);

  /** What the browser does: posts the manifest form to GitHub, confirms there, follows GitHub's redirect back. */
  async function walkGitHub(flow: ManifestStart): Promise<string> {
    const page = await fetch(flow.post_url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ manifest: JSON.stringify(flow.manifest) }).toString(),
    });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Create GitHub App for');
    const submission = /name="submission" value="([0-9a-f]+)"/.exec(html)?.[1] as string;
    const confirmed = await fetch(`${github.url}/settings/apps/new/confirm`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ submission }).toString(),
    });
    expect(confirmed.status).toBe(302);
    return confirmed.headers.get('location') as string;
  }

  /** Follows the return to the monitor with the session cookie; answers where the monitor redirects. */
  async function returnTo(location: string, cookie?: string): Promise<URL> {
    const answer = await fetch(location, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    expect(answer.status).toBe(303);
    return new URL(answer.headers.get('location') as string);
  }

  beforeAll(async () => {
    await github.start();
    github.addInstallation({ id: 77, account: 'octo-org', repositories: ['octo-org/app'] });
    monitor = await startMonitor({
      env: { ...TEST_ADMIN_ENV, MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, MONITOR_VCS_API_URL: github.url, MONITOR_VCS_WEB_URL: github.url },
    });
    session = await loginAdmin(monitor);
  });
  afterAll(async () => {
    await monitor?.close();
    await github.close();
  });

  it('needs a session, the CSRF token, valid input and a public base URL', async () => {
    expect((await requestJson(monitor.url, '/api/v1/github/app/manifest', { method: 'POST', body: {} })).status).toBe(401);
    expect((await requestJson(monitor.url, '/api/v1/github/app/manifest', { method: 'POST', body: {}, headers: { cookie: session.cookie } })).status).toBe(403);
    for (const bad of [{ organization: 'bad org!' }, { organization: '-leading' }, { name: 'x'.repeat(35) }, { name: '<script>' }, { allow_pr_comments: 'yes' }, { extra: 1 }]) {
      const answer = await start(bad);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ error_code: 'validation_failed' });
    }
    const noBase = await start();
    expect(noBase.status).toBe(409);
    expect(noBase.body).toMatchObject({ error_code: 'conflict', details: { field: 'public_base_url' } });
  });

  it('describes the App this service needs and where to post it', async () => {
    expect((await call('PUT', '/api/v1/github/app', { public_base_url: monitor.url })).status).toBe(200);
    const personal = await start();
    expect(personal.status).toBe(200);
    expect(personal.body.post_url).toBe(`${github.url}/settings/apps/new?state=${personal.body.state}`);
    expect(personal.body.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(personal.body.expires_at)).toBeGreaterThan(Date.now());
    expect(personal.body.manifest).toMatchObject({
      url: monitor.url,
      hook_attributes: { url: `${monitor.url}/webhooks/github`, active: true },
      redirect_url: `${monitor.url}/api/v1/github/app/manifest/callback`,
      public: false,
      default_permissions: { metadata: 'read', issues: 'read', pull_requests: 'read', contents: 'read', actions: 'read', vulnerability_alerts: 'read', security_events: 'read', secret_scanning_alerts: 'read' },
    });
    expect(personal.body.manifest.default_events).toEqual(
      expect.arrayContaining(['issues', 'pull_request', 'workflow_run', 'release', 'star', 'dependabot_alert', 'code_scanning_alert', 'secret_scanning_alert']),
    );
    const organization = await start({ organization: 'octo-org', name: 'Acme monitor', allow_pr_comments: true });
    expect(organization.body.post_url).toBe(`${github.url}/organizations/octo-org/settings/apps/new?state=${organization.body.state}`);
    expect(organization.body.manifest).toMatchObject({ name: 'Acme monitor', default_permissions: { pull_requests: 'write' } });
  });

  it('creates the App on GitHub, stores every credential encrypted, and the App works at once', async () => {
    const flow = await start({ organization: 'octo-org' });
    const back = await walkGitHub(flow.body);
    expect(back.startsWith(`${monitor.url}/api/v1/github/app/manifest/callback?`)).toBe(true);
    const landed = await returnTo(back, session.cookie);
    expect(`${landed.origin}${landed.pathname}`).toBe(`${monitor.url}/github-app`);
    expect(Object.fromEntries(landed.searchParams)).toEqual({ manifest: 'created', app_slug: 'repo-monitor-e2e' });

    const settings = await call('GET', '/api/v1/github/app');
    expect(settings.body).toMatchObject({
      app_id: String(APP_ID),
      client_id: 'Iv1.manifest0001',
      app_slug: 'repo-monitor-e2e',
      private_key_set: true,
      webhook_secret_set: true,
      client_secret_set: true,
      configured: true,
    });
    expect(settings.text).not.toContain(CLIENT_SECRET);
    expect(settings.text).not.toContain(WEBHOOK_SECRET);
    const stored = JSON.stringify(await monitor.app.get(SettingsStore).getMany(['github.client_secret', 'github.webhook_secret', 'github.private_key']));
    expect(stored).not.toContain(CLIENT_SECRET);
    expect(stored).not.toContain('PRIVATE KEY');

    const audit = await call<{ items: Array<{ action: string; details: Record<string, unknown> | null }> }>('GET', '/api/v1/audit-log');
    expect(audit.body.items.find((entry) => entry.action === 'github_app.created_from_manifest')?.details).toEqual({
      app_id: String(APP_ID),
      slug: 'repo-monitor-e2e',
      client_id: 'Iv1.manifest0001',
    });

    // GitHub signs with the webhook secret it generated; the private key authenticates as the App.
    const repository = { full_name: 'octo-org/app', id: Number(github.repositories.get('octo-org/app')?.id) };
    const delivery = await sendDelivery(monitor.url, 'installation', installationCreated(77, 'octo-org', [repository]), { secret: WEBHOOK_SECRET });
    expect(delivery.status).toBe(202);
    await waitFor(async () => {
      const repositories = (await call<{ items: Array<{ baseline_imported_at: string | null }> }>('GET', '/api/v1/repositories')).body.items;
      return repositories.length === 1 && repositories[0]?.baseline_imported_at !== null;
    }, 15_000);
    expect(github.issuedTokens.some((token) => token.installationId === 77)).toBe(true);

    // The state is used up: the same return again changes nothing.
    const replay = await returnTo(back, session.cookie);
    expect(Object.fromEntries(replay.searchParams)).toEqual({ manifest: 'error', reason: 'invalid_state' });
  });

  it('sends a return without the session, with another session\u2019s state, or with a bad query back with the reason', async () => {
    const flow = await start();
    const back = await walkGitHub(flow.body);
    expect(Object.fromEntries((await returnTo(back)).searchParams)).toEqual({ manifest: 'error', reason: 'session_required' });
    const other = await loginAdmin(monitor);
    expect(Object.fromEntries((await returnTo(back, other.cookie)).searchParams)).toEqual({ manifest: 'error', reason: 'invalid_state' });
    const url = new URL(back);
    for (const query of ['', `?state=${flow.body.state}`, `?code=a%20b&state=${flow.body.state}`, `?code=abc&state=${'s'.repeat(129)}`]) {
      const landed = await returnTo(`${url.origin}${url.pathname}${query}`, session.cookie);
      expect(Object.fromEntries(landed.searchParams)).toEqual({ manifest: 'error', reason: 'invalid_request' });
    }
    // The wrong tries left the flow of the right session pending.
    const landed = await returnTo(back, session.cookie);
    expect(landed.searchParams.get('manifest')).toBe('created');
  });

  it('reports a code GitHub refuses and a state that expired', async () => {
    const flow = await start();
    const back = await walkGitHub(flow.body);
    const code = new URL(back).searchParams.get('code') as string;
    expect((await fetch(`${github.url}/app-manifests/${code}/conversions`, { method: 'POST' })).status).toBe(201);
    expect(Object.fromEntries((await returnTo(back, session.cookie)).searchParams)).toEqual({ manifest: 'error', reason: 'code_refused' });

    const late = await start();
    const lateBack = await walkGitHub(late.body);
    const store = monitor.app.get(SettingsStore);
    const pending = (await store.get<Record<string, string>>('github.manifest_state')) as Record<string, string>;
    await store.set('github.manifest_state', { ...pending, expires_at: new Date(Date.now() - 1000).toISOString() });
    expect(Object.fromEntries((await returnTo(lateBack, session.cookie)).searchParams)).toEqual({ manifest: 'error', reason: 'state_expired' });
    expect(await store.get('github.manifest_state')).toBeUndefined();

    const unreachable = await start();
    const unreachableBack = await walkGitHub(unreachable.body);
    github.failNext({ status: 502, path: /^\/app-manifests\// });
    expect(Object.fromEntries((await returnTo(unreachableBack, session.cookie)).searchParams)).toEqual({ manifest: 'error', reason: 'github_unreachable' });

    const audit = await call<{ items: Array<{ action: string; details: Record<string, unknown> | null }> }>('GET', '/api/v1/audit-log?per_page=100');
    const reasons = audit.body.items.filter((entry) => entry.action === 'github_app.manifest_failed').map((entry) => entry.details?.['reason']);
    expect(reasons).toEqual(expect.arrayContaining(['code_refused', 'state_expired', 'github_unreachable', 'invalid_state']));
  });

  it('takes the private key as PEM text or a file\u2019s content, and refuses anything but an RSA private key', async () => {
    const put = (privateKey: unknown) => call('PUT', '/api/v1/github/app', { private_key: privateKey });
    const pkcs8 = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect((await put(pkcs8)).status).toBe(200);
    // A file saved on Windows: byte-order mark and CRLF line ends.
    expect((await put(`\uFEFF${keys.privateKey.replace(/\n/g, '\r\n')}`)).status).toBe(200);
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const encrypted = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'secret-passphrase' })
      .toString();
    for (const bad of [ec, encrypted, keys.publicKey, 'not a key', `-----BEGIN RSA PRIVATE KEY-----\n${'A'.repeat(16_400)}\n-----END RSA PRIVATE KEY-----`, 42]) {
      const answer = await put(bad);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ error_code: 'validation_failed' });
    }
    // The last good key is still the one in effect.
    expect((await call('GET', '/api/v1/github/app')).body).toMatchObject({ private_key_set: true, configured: true });
  });
});

describe('the manifest flow with App fields set by environment', () => {
  it('refuses to start with 409 github_field_locked, naming the variables', async () => {
    const monitor = await startMonitor({
      env: { ...TEST_ADMIN_ENV, MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, MONITOR_VCS_APP_ID: '99', MONITOR_VCS_WEBHOOK_SECRET: 'env-webhook-secret-0123', MONITOR_PUBLIC_BASE_URL: 'https://monitor.example.com' },
    });
    try {
      const session = await loginAdmin(monitor);
      const answer = await requestJson(monitor.url, '/api/v1/github/app/manifest', { method: 'POST', headers: adminHeaders(session), body: {} });
      expect(answer.status).toBe(409);
      expect(answer.body).toMatchObject({ error_code: 'github_field_locked', details: { fields: ['app_id', 'webhook_secret'] } });
      expect(answer.body['message']).toContain('MONITOR_VCS_APP_ID');
    } finally {
      await monitor.close();
    }
  });
});

/** A GET with the Host header a client chooses (fetch does not let a test set it); answers status and Location. */
function getWithHost(baseUrl: string, path: string, host: string): Promise<{ status: number; location: string | undefined }> {
  const target = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: target.hostname, port: target.port, path, method: 'GET', headers: { host } }, (answer) => {
      answer.resume();
      answer.on('end', () => resolve({ status: answer.statusCode ?? 0, location: answer.headers.location }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('the manifest flow and the public base URL against hostile input', () => {
  const ZONE_IDS = ['https://[fe80::1%25eth0]/h', 'http://[fe80::1%25eth0]:8080', 'https://[fe80::1%eth0]/'];
  let monitor: RunningMonitor;
  let session: AdminSession;
  const call = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => requestJson<T>(monitor.url, path, { method, headers: adminHeaders(session), body });

  beforeAll(async () => {
    monitor = await startMonitor({ env: { ...TEST_ADMIN_ENV, MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY } });
    session = await loginAdmin(monitor);
  });
  afterAll(async () => {
    await monitor?.close();
  });

  it('refuses an IPv6 zone-id URL as the public base URL or a channel URL with a 400 naming the field, and stores nothing', async () => {
    for (const url of ZONE_IDS) {
      const base = await call('PUT', '/api/v1/github/app', { public_base_url: url });
      expect(base.status).toBe(400);
      expect(base.body).toMatchObject({ error_code: 'validation_failed' });
      expect(String(base.body['message'])).toMatch(/^public_base_url must be an http\(s\) URL/);
      const channel = await call('POST', '/api/v1/notification-channels', { kind: 'http_webhook', name: 'zone', url, allow_private: true });
      expect(channel.status).toBe(400);
      expect(channel.body).toMatchObject({ error_code: 'validation_failed' });
      expect(String(channel.body['message'])).toMatch(/^url must be an http\(s\) URL/);
    }
    expect((await call('GET', '/api/v1/github/app')).body).toMatchObject({ public_base_url: null });
    expect((await call<{ items: unknown[] }>('GET', '/api/v1/notification-channels')).body.items).toEqual([]);
    // The AI endpoint is held to the same rule.
    const ai = await call('PUT', '/api/v1/ai/config', { base_url: ZONE_IDS[0] });
    expect(ai.status).toBe(400);
    expect(String(ai.body['message'])).toMatch(/^base_url must be an http\(s\) URL/);
  });

  it('answers the manifest start with 409 (never 500) when a zone-id base URL was stored by an earlier version', async () => {
    await monitor.app.get(SettingsStore).setSecret(PUBLIC_BASE_URL_KEY, ZONE_IDS[0]);
    const answer = await call('POST', '/api/v1/github/app/manifest', {});
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ error_code: 'conflict', details: { field: 'public_base_url' } });
    expect((await fetch(`${monitor.url}/healthz`)).status).toBe(200);
    await monitor.app.get(SettingsStore).setSecret(PUBLIC_BASE_URL_KEY, null);
  });

  it('redirects the callback relative to the page when no base URL is set, and to the base URL when one is, never to the Host header', async () => {
    const path = '/api/v1/github/app/manifest/callback?code=abc&state=def';
    const relative = await getWithHost(monitor.url, path, 'evil.example');
    expect(relative.status).toBe(303);
    expect(relative.location).toBe('/github-app?manifest=error&reason=session_required');
    expect((await call('PUT', '/api/v1/github/app', { public_base_url: 'https://monitor.example.com/' })).status).toBe(200);
    const configured = await getWithHost(monitor.url, path, 'evil.example:8443');
    expect(configured.status).toBe(303);
    expect(configured.location).toBe('https://monitor.example.com/github-app?manifest=error&reason=session_required');
  });
});
