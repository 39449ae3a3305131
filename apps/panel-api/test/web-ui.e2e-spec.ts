// Database-free: the web app's static files and its fallback routes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@shared/testing';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';

/** panel-api serving a built web app at `/`: cache headers, SPA fallback for the UI's routes only. */
describe('web app at /', () => {
  let panel: RunningPanel;
  const web = tempDir('panel-web-');

  beforeAll(async () => {
    mkdirSync(join(web.path, 'assets'));
    writeFileSync(join(web.path, 'index.html'), '<!doctype html><title>panel</title><div id="root"></div>');
    writeFileSync(join(web.path, 'assets', 'index-Ab12Cd34.js'), 'console.log(1)');
    writeFileSync(join(web.path, 'sw.js'), 'self.addEventListener("fetch", () => {})');
    writeFileSync(join(web.path, 'manifest.webmanifest'), '{"name":"panel"}');
    panel = await startPanel({ webRoot: web.path });
  });

  afterAll(async () => {
    await panel?.close();
    web.remove();
  });

  it.each(['/', '/login', '/dashboard', '/tasks/daily%20check/edit', '/hits?q=x', '/about'])('answers %s with index.html, never cached', async (path) => {
    const response = await fetch(`${panel.url}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await response.text()).toContain('<div id="root">');
  });

  it('serves hashed assets immutably and the service worker and manifest revalidated', async () => {
    const asset = await fetch(`${panel.url}/assets/index-Ab12Cd34.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    const worker = await fetch(`${panel.url}/sw.js`);
    expect(worker.headers.get('cache-control')).toBe('no-cache');
    const manifest = await fetch(`${panel.url}/manifest.webmanifest`);
    expect(manifest.status).toBe(200);
    expect(manifest.headers.get('cache-control')).toBe('no-cache');
  });

  it('keeps the API, docs, OpenAPI and health routes as they are', async () => {
    const unknownApi = await fetch(`${panel.url}/api/no-such-thing`);
    expect(unknownApi.status).toBe(404);
    expect(unknownApi.headers.get('content-type')).toMatch(/application\/json/);
    expect(await unknownApi.json()).toMatchObject({ statusCode: 404 });
    expect((await fetch(`${panel.url}/api/accounts`)).status).toBe(401);
    const token = await loginAsAdmin(panel);
    expect((await fetch(`${panel.url}/api/accounts`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await fetch(`${panel.url}/openapi.json`)).headers.get('content-type')).toMatch(/application\/json/);
    expect((await fetch(`${panel.url}/docs`)).status).toBe(200);
    expect(await (await fetch(`${panel.url}/healthz`)).json()).toBeTruthy();
    expect((await fetch(`${panel.url}/readyz`)).status).toBe(200);
  });

  it('does not fall back to index.html for paths that are not UI routes', async () => {
    for (const path of ['/no-such-page', '/assets/missing.js', '/dashboard/extra', '/index.html']) {
      const response = await fetch(`${panel.url}${path}`);
      expect([path, response.status]).toEqual([path, 404]);
      expect([path, response.headers.get('content-type')]).toEqual([path, expect.stringMatching(/application\/json/)]);
    }
  });

  it('answers a browser that opens a path that is no page with the app (status 404), which says "page not found", not JSON', async () => {
    const html = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
    for (const path of ['/no-such-page', '/dashboard/extra', '/settings/x?tab=1']) {
      const response = await fetch(`${panel.url}${path}`, { headers: html });
      expect([path, response.status, response.headers.get('content-type')]).toEqual([path, 404, expect.stringMatching(/text\/html/)]);
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(await response.text()).toContain('<div id="root">');
    }
    // The API, the service's documents and missing files stay JSON for a browser too.
    for (const path of ['/api/no-such-thing', '/assets/missing.js', '/metrics/x', '/missing.png']) {
      const response = await fetch(`${panel.url}${path}`, { headers: html });
      expect([path, response.status, response.headers.get('content-type')]).toEqual([path, 404, expect.stringMatching(/application\/json/)]);
    }
  });
});

describe('API-only start (no web app built)', () => {
  let panel: RunningPanel;
  beforeAll(async () => {
    panel = await startPanel({ webRoot: join(tempDir('panel-web-none-').path, 'missing') });
  });
  afterAll(async () => panel?.close());

  it('answers / with the JSON 404', async () => {
    const response = await fetch(`${panel.url}/`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
  });
});
