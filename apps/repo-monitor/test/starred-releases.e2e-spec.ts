import { requestJson } from '@shared/testing';
import { StarredReleaseTrackerEntity } from '../src/app/github/starred-release-tracker.entity';
import { DatabaseWork } from '../src/database/database-work';
import { adminHeaders, AdminSession, loginAdmin, RunningMonitor, startMonitor, TEST_ADMIN_ENV, TEST_ENCRYPTION_KEY } from './harness';

const CLIENT_SECRET = 'agent-client-secret-0123456789';

describe('GET /api/v1/starred-releases', () => {
  let monitor: RunningMonitor;
  let session: AdminSession;
  const get = (path: string) => requestJson<Record<string, unknown> & { items: Array<Record<string, unknown>> }>(monitor.url, path, { headers: adminHeaders(session) });

  beforeAll(async () => {
    monitor = await startMonitor({ env: { ...TEST_ADMIN_ENV, MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, MONITOR_OAUTH_CLIENT_SECRET: CLIENT_SECRET } });
    session = await loginAdmin(monitor);
    const store = monitor.app.get(DatabaseWork).dataSource.getRepository(StarredReleaseTrackerEntity);
    const now = new Date('2026-11-20T10:00:00Z');
    const tracker = (username: string, kind: 'starred_list' | 'releases', name: string, tag: string | null) =>
      store.save({ username, kind, repositoryFullName: name, etag: null, lastReleaseId: tag ? 1 : null, lastReleaseTag: tag, lastCheckedAt: now, createdAt: now, updatedAt: now });
    await tracker('mona', 'starred_list', '', null);
    await tracker('mona', 'releases', 'nodejs/node', 'v24.1.0');
    await tracker('mona', 'releases', 'vitejs/vite', null);
    await tracker('someone-else', 'releases', 'other/repo', 'v1');
  });
  afterAll(async () => {
    await monitor?.close();
  });

  it('is empty, naming no user, while no starred user is set', async () => {
    const answer = await get('/api/v1/starred-releases');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ items: [], page: 1, per_page: 20, total: 0, username: null, list_checked_at: null });
  });

  it('lists the starred user\u2019s repositories by name with the latest release seen, and searches them', async () => {
    expect((await requestJson(monitor.url, '/api/v1/system/settings', { method: 'PUT', headers: adminHeaders(session), body: { starred_username: 'mona' } })).status).toBe(200);
    const answer = await get('/api/v1/starred-releases');
    expect(answer.body).toMatchObject({ username: 'mona', list_checked_at: '2026-11-20T10:00:00.000Z', total: 2 });
    expect(answer.body.items).toEqual([
      {
        repository_full_name: 'nodejs/node',
        repository_url: 'https://github.com/nodejs/node',
        last_release_tag: 'v24.1.0',
        last_release_url: 'https://github.com/nodejs/node/releases/tag/v24.1.0',
        last_checked_at: '2026-11-20T10:00:00.000Z',
      },
      expect.objectContaining({ repository_full_name: 'vitejs/vite', last_release_tag: null, last_release_url: null }),
    ]);
    expect((await get('/api/v1/starred-releases?q=VITE')).body.items.map((item) => item.repository_full_name)).toEqual(['vitejs/vite']);
  });

  it('answers 400 on bad paging or search, 401 without a session, 403 to an agent token', async () => {
    for (const query of ['page=0', 'per_page=101', 'q=', `q=${'x'.repeat(201)}`, 'sort=name']) {
      expect((await get(`/api/v1/starred-releases?${query}`)).status).toBe(400);
    }
    expect((await requestJson(monitor.url, '/api/v1/starred-releases')).status).toBe(401);
    const token = await requestJson<{ access_token: string }>(monitor.url, '/oauth/token', {
      method: 'POST',
      rawBody: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'repo-monitor-agent', client_secret: CLIENT_SECRET }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect((await requestJson(monitor.url, '/api/v1/starred-releases', { token: token.body.access_token })).status).toBe(403);
  });
});
