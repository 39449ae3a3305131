import { requestJson } from '@shared/testing';
import { DataSource } from 'typeorm';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { RunningPanel, startPanel } from './harness';

describe('panel-api boot', () => {
  let panel: RunningPanel;

  beforeAll(async () => {
    panel = await startPanel();
  });

  afterAll(async () => {
    await panel?.close();
  });

  it('answers liveness and readiness without a token', async () => {
    for (const path of ['/health', '/healthz']) {
      const response = await requestJson(panel.url, path);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ status: 'ok' });
    }
    const ready = await requestJson<{ status: string; database: { status: string; driver: string } }>(panel.url, '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('ready');
    expect(ready.body.database.status).toBe('ok');
    expect(ready.body.database.driver).toBe(panel.config.database.driver);
  });

  it('keeps SQLite in WAL mode under the data directory, or creates no db.sqlite on PostgreSQL', () => {
    const sqlite = join(panel.dataDir, 'db.sqlite');
    if (panel.config.database.driver === 'sqlite') {
      expect(existsSync(sqlite)).toBe(true);
      expect(existsSync(`${sqlite}-wal`)).toBe(true);
    } else {
      expect(existsSync(sqlite)).toBe(false);
    }
  });

  it('serves the OpenAPI document with the bearer scheme and Swagger UI', async () => {
    const openapi = await requestJson<{ openapi: string; components: { securitySchemes: Record<string, { scheme: string }> } }>(
      panel.url,
      '/openapi.json',
    );
    expect(openapi.status).toBe(200);
    expect(openapi.body.openapi).toMatch(/^3\./);
    expect(openapi.body.components.securitySchemes['bearer'].scheme).toBe('bearer');
    const docs = await fetch(`${panel.url}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('swagger-ui');
  });

  it('answers unknown routes and malformed JSON with the error shape, never a 500', async () => {
    const missing = await requestJson(panel.url, '/no-such-route');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ statusCode: 404, error: 'Not Found', message: expect.any(String), code: 'not_found' });
    const malformed = await requestJson(panel.url, '/api/auth/login', {
      method: 'POST',
      rawBody: '{"broken',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBeGreaterThanOrEqual(400);
    expect(malformed.status).toBeLessThan(500);
    expect(malformed.body).toEqual({ statusCode: 400, error: 'Bad Request', message: 'Request body is not valid JSON', code: 'invalid_json' });
  });

  it('gives every response a request id, echoing a sane incoming one', async () => {
    const fresh = await fetch(`${panel.url}/healthz`);
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await fetch(`${panel.url}/healthz`, { headers: { 'x-request-id': 'trace-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('trace-123');
  });

  // Last: it takes the database away from this instance.
  it('answers 503 degraded from /readyz when the database is gone, while liveness stays 200', async () => {
    await panel.app.get(DataSource).destroy();
    const ready = await requestJson<{ status: string; database: { status: string } }>(panel.url, '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ status: 'degraded', database: { status: 'unavailable' } });
    expect((await requestJson(panel.url, '/healthz')).status).toBe(200);
  });
});
