import { request as httpRequest } from 'node:http';
import { Logger } from '@nestjs/common';
import { adminHeaders, AdminSession, loginAdmin, RunningMonitor, startMonitor, TEST_ADMIN_ENV, TEST_ENCRYPTION_KEY } from './harness';

/** Every paged list of the console API. */
const PAGED_LISTS = [
  '/api/v1/repositories',
  '/api/v1/installations',
  '/api/v1/events',
  '/api/v1/work-items',
  '/api/v1/workflow-runs',
  '/api/v1/security-alerts',
  '/api/v1/notifications/outbox',
  '/api/v1/notification-channels',
  '/api/v1/audit-log',
  '/api/v1/ai/reviews',
  '/api/v1/digests',
  '/api/v1/starred-releases',
];

const BAD_QUERIES = [
  'page=99999999999999999999',
  'page=100001',
  'page=-1',
  'page=0',
  'page=NaN',
  'page=1.5',
  'page=1e3',
  'page=0x10',
  'page=%201',
  'page=',
  'per_page=101',
  'per_page=99999999999999999999',
  'per_page=0',
  'per_page=-5',
  'per_page=Infinity',
];

/** A GET with the path sent exactly as written (fetch would resolve `..` segments first). */
function rawGet(base: string, path: string): Promise<{ status: number; body: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method: 'GET' }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('paging bounds and static-file errors', () => {
  let monitor: RunningMonitor;
  let session: AdminSession;
  const logged: string[] = [];
  const spies: jest.SpyInstance[] = [];

  beforeAll(async () => {
    // Every 5xx is logged once, with its error, through Nest's Logger (the exception filter): keep
    // what is logged at warn and error, to check that no error and no SQL reaches the log.
    for (const level of ['error', 'warn'] as const) {
      const original = Logger.prototype[level];
      spies.push(
        jest.spyOn(Logger.prototype, level).mockImplementation(function (this: Logger, ...args: unknown[]) {
          logged.push(JSON.stringify(args, (_key, value: unknown) => (value instanceof Error ? { message: value.message, stack: value.stack } : value)));
          return (original as (...parameters: unknown[]) => void).apply(this, args);
        }),
      );
    }
    monitor = await startMonitor({ env: { ...TEST_ADMIN_ENV, MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, MONITOR_LOG_LEVEL: 'warn' } });
    session = await loginAdmin(monitor);
  });
  afterAll(async () => {
    for (const spy of spies) spy.mockRestore();
    await monitor?.close();
  });

  const get = async (path: string) => {
    const response = await fetch(`${monitor.url}${path}`, { headers: adminHeaders(session) });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  const cases = PAGED_LISTS.flatMap((path) => BAD_QUERIES.map((query) => [`${path}?${query}`] as const));

  it.each(cases)('GET %s answers 400 validation_failed', async (path) => {
    const answer = await get(path);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error_code: 'validation_failed', message: expect.any(String) });
  });

  it.each(PAGED_LISTS)('GET %s still pages: the last allowed page is an empty page, not an error', async (path) => {
    const answer = await get(`${path}?page=100000&per_page=100`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ items: [], page: 100000, per_page: 100 });
  });

  it.each([
    '/api/v1/events?repository_id=99999999999999999999',
    '/api/v1/work-items?repository_id=2147483648',
    '/api/v1/workflow-runs?repository_id=-1',
    '/api/v1/security-alerts?repository_id=abc',
    '/api/v1/ai/reviews?pr_number=99999999999999999999',
    '/api/v1/repositories/99999999999999999999',
    '/api/v1/repositories/2147483648',
    '/api/v1/repositories/0',
    '/api/v1/repositories/-1',
    '/api/v1/repositories/abc',
    '/api/v1/ai/reviews/99999999999999999999',
  ])('GET %s answers 400 validation_failed', async (path) => {
    const answer = await get(path);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error_code: 'validation_failed' });
  });

  it.each(['/docs/../../etc/passwd', '/docs/..%2f..%2fetc%2fpasswd', '/docs/%2e%2e/%2e%2e/etc/passwd', '/docs/..%5c..%5cetc%5cpasswd', '/docs/%00', '/docs/a%00.js', '/docs/no-such-file.js'])(
    'GET %s answers 404 not_found',
    async (path) => {
      const answer = await rawGet(monitor.url, path);
      expect(answer.status).toBe(404);
      expect(JSON.parse(answer.body)).toMatchObject({ error_code: 'not_found' });
      expect(answer.body).not.toContain('root:');
    },
  );

  it('answers a malformed percent-escape with 400 validation_failed, not a 500', async () => {
    const answer = await rawGet(monitor.url, '/docs/%E0%A4%A');
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ error_code: 'validation_failed' });
  });

  it('still serves the Swagger UI and its assets', async () => {
    expect((await rawGet(monitor.url, '/docs/')).status).toBe(200);
    expect((await rawGet(monitor.url, '/docs/swagger-ui.css')).status).toBe(200);
  });

  it('wrote no error and no SQL to the log', async () => {
    // The log catches what it is shown: one unexpected error is written (and seen here).
    const before = logged.length;
    new Logger('HttpError').error({ err: new Error('SELECT 1 OFFSET 2 probe') }, 'request failed');
    expect(logged.slice(before).join('')).toContain('SELECT 1 OFFSET 2 probe');
    const text = logged.slice(0, before).join('');
    expect(text).not.toMatch(/request failed|internal_error/);
    expect(text).not.toMatch(/SELECT|OFFSET|QueryFailedError/i);
  });
});
