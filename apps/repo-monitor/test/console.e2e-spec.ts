import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@shared/testing';
import { CONSOLE_ROUTES } from '../src/app/console/console-routes';
import { adminHeaders, loginAdmin, RunningMonitor, startMonitor, TEST_ADMIN_ENV } from './harness';

const METRICS_TOKEN = 'metrics-scrape-token-console-0123';

/** repo-monitor serving a built console at `/`: cache headers, index.html for the console's pages only. */
describe('console at /', () => {
  let monitor: RunningMonitor;
  const web = tempDir('monitor-web-');

  beforeAll(async () => {
    mkdirSync(join(web.path, 'assets'));
    writeFileSync(join(web.path, 'index.html'), '<!doctype html><title>repo-monitor</title><div id="root"></div>');
    writeFileSync(join(web.path, 'assets', 'index-Ab12Cd34.js'), 'console.log(1)');
    writeFileSync(join(web.path, 'manifest.webmanifest'), '{"name":"repo-monitor"}');
    writeFileSync(join(web.path, 'icon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    monitor = await startMonitor({ env: { ...TEST_ADMIN_ENV, MONITOR_METRICS_ENABLED: 'true', MONITOR_METRICS_TOKEN: METRICS_TOKEN }, webRoot: web.path });
  });

  afterAll(async () => {
    await monitor?.close();
    web.remove();
  });

  it.each(['/', '/setup', '/login', '/dashboard', '/events?kind=push&page=2', '/outbox/42', '/ai/reviews/7', '/prometheus', '/about'])(
    'answers %s with index.html, never cached',
    async (path) => {
      const response = await fetch(`${monitor.url}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/text\/html/);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.text()).toContain('<div id="root">');
    },
  );

  it('answers every page of the console list (a reload anywhere in the console works)', async () => {
    for (const route of CONSOLE_ROUTES) {
      const response = await fetch(`${monitor.url}${route.replace(/:[a-z]+/g, '1')}`);
      expect([route, response.status]).toEqual([route, 200]);
    }
  });

  it('serves hashed assets immutably and the manifest and icon revalidated', async () => {
    const asset = await fetch(`${monitor.url}/assets/index-Ab12Cd34.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    for (const path of ['/manifest.webmanifest', '/icon.svg']) {
      const response = await fetch(`${monitor.url}${path}`);
      expect([path, response.status, response.headers.get('cache-control')]).toEqual([path, 200, 'no-cache']);
    }
  });

  it('keeps the API, webhooks, OAuth, discovery, MCP, metrics, docs, OpenAPI and health routes as they are', async () => {
    const unknownApi = await fetch(`${monitor.url}/api/v1/no-such-thing`);
    expect(unknownApi.status).toBe(404);
    expect(unknownApi.headers.get('content-type')).toMatch(/application\/json/);
    expect(await unknownApi.json()).toMatchObject({ error_code: 'not_found' });
    expect((await fetch(`${monitor.url}/api/v1/repositories`)).status).toBe(401);
    const session = await loginAdmin(monitor);
    expect((await fetch(`${monitor.url}/api/v1/repositories`, { headers: adminHeaders(session) })).status).toBe(200);

    // A webhook delivery is still checked as one (no signature: refused, not answered with the page).
    const webhook = await fetch(`${monitor.url}/webhooks/github`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(webhook.headers.get('content-type')).toMatch(/application\/json/);
    expect(webhook.status).toBeGreaterThanOrEqual(400);
    expect((await fetch(`${monitor.url}/webhooks/github`)).headers.get('content-type')).toMatch(/application\/json/);

    const discovery = await fetch(`${monitor.url}/.well-known/oauth-authorization-server`);
    expect(discovery.headers.get('content-type')).toMatch(/application\/json/);
    const authorize = await fetch(`${monitor.url}/oauth/authorize`);
    expect(authorize.status).toBe(400);
    expect(await authorize.json()).toMatchObject({ error: 'unsupported_response_type' });
    expect((await fetch(`${monitor.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(401);

    expect((await fetch(`${monitor.url}/metrics`)).status).toBe(401);
    const metrics = await fetch(`${monitor.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('# HELP');

    expect((await fetch(`${monitor.url}/openapi.json`)).headers.get('content-type')).toMatch(/application\/json/);
    expect((await fetch(`${monitor.url}/openapi.yaml`)).status).toBe(200);
    const docs = await fetch(`${monitor.url}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toMatch(/swagger/i);
    expect((await fetch(`${monitor.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${monitor.url}/readyz`)).status).toBe(200);
  });

  it('does not answer with the page for paths that are not console pages', async () => {
    for (const path of ['/no-such-page', '/assets/missing.js', '/dashboard/extra', '/index.html', '/metrics/extra', '/api', '/outbox/1/2']) {
      const response = await fetch(`${monitor.url}${path}`);
      expect([path, response.status]).toEqual([path, 404]);
    }
  });

  it('answers a browser that opens an unknown page with the console (its own "page not found", status 404), never under the service\u2019s paths', async () => {
    const browser = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
    for (const path of ['/no-such-page', '/dashboard/extra', '/outbox/1/2?x=1']) {
      const response = await fetch(`${monitor.url}${path}`, { headers: browser });
      expect([path, response.status, response.headers.get('content-type')]).toEqual([path, 404, expect.stringMatching(/text\/html/)]);
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(await response.text()).toContain('<div id="root">');
    }
    for (const path of ['/api/v1/nope', '/api', '/webhooks/nope', '/assets/missing.js', '/metrics/extra', '/.well-known/nope', '/oauth/nope', '/docs/nope']) {
      const response = await fetch(`${monitor.url}${path}`, { headers: browser });
      expect([path, response.status, response.headers.get('content-type')]).toEqual([path, 404, expect.stringMatching(/json/)]);
    }
    const post = await fetch(`${monitor.url}/no-such-page`, { method: 'POST', headers: browser });
    expect(post.headers.get('content-type')).toMatch(/json/);
  });
});

describe('API-only start (no console built)', () => {
  let monitor: RunningMonitor;
  const empty = tempDir('monitor-web-none-');
  beforeAll(async () => {
    monitor = await startMonitor({ webRoot: join(empty.path, 'missing') });
  });
  afterAll(async () => {
    await monitor?.close();
    empty.remove();
  });

  it('answers / with the JSON 404', async () => {
    const response = await fetch(`${monitor.url}/`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
  });
});
