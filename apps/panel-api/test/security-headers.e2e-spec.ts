// Database-free: response headers (CSP, framing, caching, HSTS) set by the HTTP layer before any handler.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RawAnswer, rawRequest, tempDir } from '@shared/testing';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';

// Issue 29 items 3, 4, 5 and 9: framing, private data in the browser's cache, the browser security
// headers, and two URLs that answered a 500 or Fastify's raw error body.

/** A built web app stand-in: an index.html with an inline script, a hashed asset and the worker. */
function webRoot(dir: string, inlineScript: string): string {
  const root = join(dir, 'web');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), `<!doctype html><html><head><script>${inlineScript}</script><script type="module" src="/assets/index-abc.js"></script></head><body></body></html>`);
  writeFileSync(join(root, 'assets/index-abc.js'), 'console.log(1);');
  writeFileSync(join(root, 'sw.js'), 'self.addEventListener("fetch", () => undefined);');
  return root;
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

function expectFramingAndSniffing(answer: RawAnswer): void {
  expect(answer.headers['x-frame-options']).toBe('DENY');
  expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(answer.headers['referrer-policy']).toBe('no-referrer');
  expect(answer.headers['cross-origin-opener-policy']).toBe('same-origin');
}

describe('security headers on every answer', () => {
  const dir = tempDir('panel-headers-');
  const inlineScript = "document.documentElement.dataset.scheme = 'dark';";
  let panel: RunningPanel;
  let token: string;

  beforeAll(async () => {
    panel = await startPanel({ env: { APP_UPDATE_CHECK: '0', APP_TRUST_PROXY: '127.0.0.1' }, webRoot: webRoot(dir.path, inlineScript) });
    token = await loginAsAdmin(panel);
  });

  afterAll(async () => {
    await panel?.close();
    dir.remove();
  });

  it.each([
    ['an API answer', '/api/accounts', true],
    ['an API refusal (no token)', '/api/accounts', false],
    ['the settings', '/api/settings', true],
    ['an unknown API path', '/api/no-such-thing', true],
    ['the health probe', '/healthz', false],
    ['the readiness probe', '/readyz', false],
    ['the OpenAPI document', '/openapi.json', false],
    ['the metrics', '/metrics', false],
  ])('%s: no-store, not frameable, the API policy', async (_name, path, withToken) => {
    const answer = await rawRequest(panel.url, path, { headers: withToken ? { authorization: `Bearer ${token}` } : {} });
    expect(answer.headers['cache-control']).toBe('no-store');
    expectFramingAndSniffing(answer);
    expect(answer.headers['content-security-policy']).toContain("default-src 'none'");
    expect(answer.headers['strict-transport-security']).toBeUndefined();
  });

  it('the page: revalidated, with the app policy and its inline script by hash', async () => {
    const page = await rawRequest(panel.url, '/dashboard');
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toBe('no-cache');
    expectFramingAndSniffing(page);
    const policy = String(page.headers['content-security-policy']);
    // The hash of the script the page carries (a stale hash would block it: the test computes its own).
    expect(policy).toContain(`script-src 'self' ${sha256(inlineScript)};`);
    for (const directive of ["connect-src 'self'", "img-src 'self' data:", "object-src 'none'", "base-uri 'none'", "form-action 'self';", "style-src 'self' 'unsafe-inline'"]) {
      expect(policy).toContain(directive);
    }
    expect(policy).not.toContain("'unsafe-eval'");
  });

  it('hashed assets keep their year-long cache; the worker script is revalidated under the app policy', async () => {
    const asset = await rawRequest(panel.url, '/assets/index-abc.js');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const worker = await rawRequest(panel.url, '/sw.js');
    expect(worker.headers['cache-control']).toBe('no-cache');
    expect(worker.headers['content-security-policy']).toContain("connect-src 'self'");
  });

  it('Swagger UI has its own policy and still loads', async () => {
    const docs = await rawRequest(panel.url, '/docs');
    expect(docs.status).toBe(200);
    expectFramingAndSniffing(docs);
    expect(docs.headers['content-security-policy']).toContain("script-src 'self';");
    expect((await rawRequest(panel.url, '/docs/swagger-ui-init.js')).status).toBe(200);
  });

  it('HSTS only for HTTPS requests from a trusted proxy', async () => {
    const viaProxy = await rawRequest(panel.url, '/healthz', { headers: { 'x-forwarded-proto': 'https' } });
    expect(viaProxy.headers['strict-transport-security']).toBe('max-age=31536000');
    const plain = await rawRequest(panel.url, '/healthz');
    expect(plain.headers['strict-transport-security']).toBeUndefined();
  });

  it('event streams are not stored either', async () => {
    const controller = new AbortController();
    const stream = await fetch(`${panel.url}/api/events/sign-history?token=${encodeURIComponent(token)}`, { signal: controller.signal });
    try {
      expect(stream.headers.get('cache-control')).toContain('no-store');
      expect(stream.headers.get('x-frame-options')).toBe('DENY');
    } finally {
      controller.abort();
    }
  });

  it('/docs/../main.js without a token: 404 in the error shape, not a 500', async () => {
    for (const path of ['/docs/../main.js', '/docs/%2e%2e/main.js', '/docs/./swagger-ui-init.js', '/api/../api/accounts']) {
      const answer = await rawRequest(panel.url, path);
      expect([path, answer.status]).toEqual([path, 404]);
      expect(JSON.parse(answer.body)).toMatchObject({ statusCode: 404, code: 'not_found' });
      expect(answer.headers['cache-control']).toBe('no-store');
    }
  });

  it('/assets/%c0%ae%c0%ae/x: 400 in the error shape, not Fastify\'s body', async () => {
    const answer = await rawRequest(panel.url, '/assets/%c0%ae%c0%ae/x');
    expect(answer.status).toBe(400);
    const body = JSON.parse(answer.body) as Record<string, unknown>;
    expect(body).toEqual({ statusCode: 400, error: 'Bad Request', message: expect.any(String), code: 'validation_failed' });
    expect(answer.body).not.toContain('FST_ERR');
    expectFramingAndSniffing(answer);
  });
});
