// Database-free: the served OpenAPI document against the registered routes, and 401 before any handler.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AdminSession, loginAdmin, RunningMonitor, startMonitor, TEST_ADMIN_ENV } from './harness';

interface Operation {
  operationId: string;
  security?: Array<Record<string, string[]>>;
  responses: Record<string, unknown>;
}

type Paths = Record<string, Record<string, Operation>>;

const COMMITTED = JSON.parse(readFileSync(join(__dirname, '../openapi.json'), 'utf8')) as { paths: Paths };
const WRITE_METHODS = new Set(['post', 'put', 'patch', 'delete']);

/** Every documented operation, with a concrete path (each parameter filled with 1). */
function operations(paths: Paths): Array<{ method: string; path: string; operation: Operation }> {
  return Object.entries(paths).flatMap(([pattern, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ method, path: pattern.replace(/\{[^}]+\}/g, '1'), operation })),
  );
}

/** An operation that needs credentials: it names a scheme and offers no anonymous alternative (`{}`). */
const needsCredentials = (operation: Operation) =>
  (operation.security ?? []).length > 0 && !(operation.security ?? []).some((requirement) => Object.keys(requirement).length === 0);

/**
 * The committed document against the running service: it is the document the service serves, and
 * its security and auth errors are what the guard really does.
 */
describe('the OpenAPI document against the running service', () => {
  let monitor: RunningMonitor;
  let session: AdminSession;

  beforeAll(async () => {
    monitor = await startMonitor({ env: { ...TEST_ADMIN_ENV } });
    session = await loginAdmin(monitor);
  });

  afterAll(async () => {
    await monitor?.close();
  });

  it('is the document the service serves at /openapi.json', async () => {
    const served = (await (await fetch(`${monitor.url}/openapi.json`)).json()) as unknown;
    expect(served).toEqual(COMMITTED);
  });

  it('answers 401 without credentials on every operation that documents a required scheme, and documents that 401', async () => {
    const protectedOperations = operations(COMMITTED.paths).filter(({ operation }) => needsCredentials(operation));
    expect(protectedOperations.length).toBeGreaterThan(30);
    const wrong: string[] = [];
    for (const { method, path, operation } of protectedOperations) {
      const response = await fetch(`${monitor.url}${path}`, {
        method: method.toUpperCase(),
        ...(WRITE_METHODS.has(method) ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {}),
      });
      await response.arrayBuffer();
      if (response.status !== 401 || !('401' in operation.responses)) wrong.push(`${method.toUpperCase()} ${path} -> ${response.status}`);
    }
    expect(wrong).toEqual([]);
  });

  it('needs the session AND the CSRF header on every console write, as documented (403 without the header)', async () => {
    // Console writes: every write behind the session guard (not /mcp, which checks its agent token itself).
    const writes = operations(COMMITTED.paths).filter(
      ({ method, operation }) => WRITE_METHODS.has(method) && (operation.security ?? []).some((requirement) => 'session' in requirement),
    );
    expect(writes.length).toBeGreaterThan(15);
    const wrong: string[] = [];
    for (const { method, path, operation } of writes) {
      expect({ path, security: operation.security }).toEqual({ path, security: [{ session: [], csrf: [] }] });
      const response = await fetch(`${monitor.url}${path}`, {
        method: method.toUpperCase(),
        headers: { cookie: session.cookie, 'content-type': 'application/json' },
        body: '{}',
      });
      const body = (await response.json()) as { error_code?: string };
      if (response.status !== 403 || body.error_code !== 'csrf_failed' || !('403' in operation.responses)) {
        wrong.push(`${method.toUpperCase()} ${path} -> ${response.status} ${body.error_code}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
