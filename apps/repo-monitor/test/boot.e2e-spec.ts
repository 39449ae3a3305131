import { requestJson } from '@shared/testing';
import { RunningMonitor, startMonitor } from './harness';

describe('repo-monitor boot', () => {
  let monitor: RunningMonitor;

  beforeAll(async () => {
    monitor = await startMonitor();
  });

  afterAll(async () => {
    await monitor?.close();
  });

  it('answers liveness and readiness', async () => {
    expect((await requestJson(monitor.url, '/healthz')).body).toEqual({ status: 'ok' });
    const ready = await requestJson<{ status: string; database: { driver: string; status: string } }>(monitor.url, '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ready', database: { driver: monitor.config.database.driver, status: 'ok' } });
  });

  it('serves the OpenAPI document with cookie, CSRF and bearer schemes, and Swagger UI', async () => {
    const openapi = await requestJson<{ components: { securitySchemes: Record<string, { type: string; in?: string; scheme?: string }> } }>(
      monitor.url,
      '/openapi.json',
    );
    expect(openapi.status).toBe(200);
    const schemes = openapi.body.components.securitySchemes;
    expect(schemes['session']).toMatchObject({ type: 'apiKey', in: 'cookie' });
    expect(schemes['csrf']).toMatchObject({ type: 'apiKey', in: 'header' });
    expect(schemes['agent']).toMatchObject({ type: 'http', scheme: 'bearer' });
    const docs = await fetch(`${monitor.url}/docs`);
    expect(docs.status).toBe(200);
  });

  it('answers errors as {error_code, message}', async () => {
    const missing = await requestJson(monitor.url, '/api/v1/nothing-here');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error_code: 'not_found', message: expect.any(String) });
    const malformed = await requestJson(monitor.url, '/healthz', {
      method: 'POST',
      rawBody: '{"broken',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBeGreaterThanOrEqual(400);
    expect(malformed.status).toBeLessThan(500);
    expect(malformed.body).toMatchObject({ error_code: expect.any(String), message: expect.any(String) });
  });
});
