// Database-free: the routes Fastify registered and the answers of retired paths; no route here depends on the driver.
import { requestJson } from '@shared/testing';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { loginAsAdmin, RegisteredRoute, RunningPanel, startPanel } from './harness';

/**
 * The only routes that answer without a token, on purpose: the health probes, the login, the
 * API documentation (Swagger UI and its assets, the OpenAPI document) and /metrics, which is open
 * only while APP_METRICS_TOKEN is not set (metrics.e2e-spec.ts proves the 401s with the token).
 */
const PUBLIC_ROUTES = new Set(['/health', '/healthz', '/readyz', '/api/auth/login', '/metrics', '/docs', '/docs/', '/docs/*', '/openapi.json', '/openapi.yaml']);

/** A concrete path for a route pattern: every parameter and wildcard filled with a plain value. */
function concretePath(pattern: string): string {
  return pattern.replace(/:[A-Za-z0-9_]+(\([^)]*\))?\??/g, 'x').replace(/\*/g, 'x');
}

function uniqueRoutes(routes: RegisteredRoute[]): RegisteredRoute[] {
  const seen = new Map<string, RegisteredRoute>();
  for (const route of routes) seen.set(`${route.method} ${route.url}`, route);
  return [...seen.values()];
}

/** The status of a request with any method (fetch refuses TRACE and friends). */
function statusOf(baseUrl: string, method: string, path: string, token?: string): Promise<number> {
  const withBody = ['POST', 'PUT', 'PATCH', 'DELETE', 'QUERY'].includes(method);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = withBody ? { 'content-type': 'application/json', 'content-length': '2' } : {};
    if (token) headers['authorization'] = `Bearer ${token}`;
    const request = httpRequest(new URL(path, baseUrl), { method, headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
    request.end(withBody ? '{}' : undefined);
  });
}

interface OpenApiDocument {
  paths: Record<string, Record<string, { security?: Array<Record<string, string[]>> }>>;
}

describe('route table', () => {
  let panel: RunningPanel;

  beforeAll(async () => {
    panel = await startPanel();
  });

  afterAll(async () => {
    await panel?.close();
  });

  it('records the routes the application registered', () => {
    const urls = panel.routes.map((route) => route.url);
    expect(urls).toEqual(expect.arrayContaining(['/api/auth/login', '/api/auth/me', '/api/config/settings', '/healthz']));
  });

  it('answers 401 on every route except the public ones when no token or a bad token is sent', async () => {
    const protectedRoutes = uniqueRoutes(panel.routes).filter((route) => !PUBLIC_ROUTES.has(route.url));
    expect(protectedRoutes.length).toBeGreaterThan(10);
    const unexpected: string[] = [];
    for (const route of protectedRoutes) {
      const path = concretePath(route.url);
      for (const token of [undefined, 'not-a-token']) {
        const status = await statusOf(panel.url, route.method, path, token);
        if (status !== 401) unexpected.push(`${route.method} ${path} (${token ? 'bad token' : 'no token'}) -> ${status}`);
      }
    }
    expect(unexpected).toEqual([]);
  });

  it('serves the public routes without a token', async () => {
    for (const route of uniqueRoutes(panel.routes).filter((candidate) => PUBLIC_ROUTES.has(candidate.url))) {
      const body = route.method === 'POST' ? { username: 'admin', password: 'wrong password' } : undefined;
      const response = await requestJson(panel.url, route.url, { method: route.method, body });
      // The login answers 401 for wrong credentials; that is the handler speaking, not the guard.
      if (route.url === '/api/auth/login') expect(response.body).toMatchObject({ message: 'Invalid username or password' });
      else if (route.url === '/docs/*') expect(response.status).toBe(404);
      else expect(response.status).toBe(200);
    }
  });

  it('serves the committed OpenAPI document (apps/panel-api/openapi.json)', async () => {
    const committed = JSON.parse(readFileSync(join(__dirname, '../openapi.json'), 'utf8')) as unknown;
    expect((await requestJson(panel.url, '/openapi.json')).body).toEqual(committed);
  });

  it('documents every /api operation with the bearer scheme, except the login', async () => {
    const document = await requestJson<OpenApiDocument>(panel.url, '/openapi.json');
    const undocumented: string[] = [];
    let operations = 0;
    for (const [path, methods] of Object.entries(document.body.paths)) {
      if (!path.startsWith('/api/')) continue;
      for (const [method, operation] of Object.entries(methods)) {
        operations++;
        const bearer = (operation.security ?? []).some((requirement) => 'bearer' in requirement);
        const isLogin = path === '/api/auth/login' && method === 'post';
        if (bearer === isLogin) undocumented.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(operations).toBeGreaterThan(10);
    expect(undocumented).toEqual([]);
  });
});

describe('legacy /api/tasks', () => {
  let panel: RunningPanel;
  let token: string;

  beforeAll(async () => {
    panel = await startPanel();
    token = await loginAsAdmin(panel);
  });

  afterAll(async () => {
    await panel?.close();
  });

  it.each([
    ['GET', '/api/tasks'],
    ['POST', '/api/tasks'],
    ['GET', '/api/tasks/daily'],
    ['PUT', '/api/tasks/daily'],
    ['DELETE', '/api/tasks/daily'],
    ['POST', '/api/tasks/daily/run'],
    ['GET', '/api/tasks/daily/logs?limit=5'],
  ])('%s %s answers 410 Gone naming /api/sign-tasks', async (method, path) => {
    const body = method === 'POST' || method === 'PUT' ? { name: 'daily' } : undefined;
    const response = await requestJson(panel.url, path, { method, token, body });
    expect(response.status).toBe(410);
    expect(response.body).toEqual({ statusCode: 410, error: 'Gone', message: expect.stringContaining('/api/sign-tasks'), code: 'gone' });
    expect((await requestJson(panel.url, path, { method, body })).status).toBe(401);
  });
});
