import { requestJson } from '@shared/testing';
import { EventEntity } from '../src/app/events/event.entity';
import { OutboxEntryEntity } from '../src/app/outbox/outbox-entry.entity';
import { DatabaseWork } from '../src/database/database-work';
import { RepositoryEntity } from '../src/app/repositories/repository.entity';
import { SecurityAlertEntity } from '../src/app/security-alerts/security-alert.entity';
import { WorkflowRunEntity } from '../src/app/workflow-runs/workflow-run.entity';
import { WorkItemEntity } from '../src/app/work-items/work-item.entity';
import { adminHeaders, AdminSession, loginAdmin, RunningMonitor, startMonitor, TEST_ADMIN_ENV, TEST_ENCRYPTION_KEY } from './harness';

const CLIENT_SECRET = 'agent-client-secret-0123456789';

interface Page<T> {
  items: T[];
  total: number;
}

/** Filters, text search and the outbox operations the console's list pages use. */
describe('console lists: filters, search and the outbox', () => {
  let monitor: RunningMonitor;
  let session: AdminSession;
  let agentToken: string;
  let repoA: number;
  let repoB: number;
  const outboxIds: Record<string, number> = {};

  const get = <T = Record<string, unknown>>(path: string) => requestJson<T>(monitor.url, path, { headers: adminHeaders(session) });
  const post = <T = Record<string, unknown>>(path: string, body?: unknown) =>
    requestJson<T>(monitor.url, path, { method: 'POST', headers: adminHeaders(session), body: body ?? {} });

  beforeAll(async () => {
    monitor = await startMonitor({ env: { ...TEST_ADMIN_ENV, MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, MONITOR_OAUTH_CLIENT_SECRET: CLIENT_SECRET } });
    session = await loginAdmin(monitor);
    const token = await requestJson<{ access_token: string }>(monitor.url, '/oauth/token', {
      method: 'POST',
      rawBody: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'repo-monitor-agent', client_secret: CLIENT_SECRET }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    agentToken = token.body.access_token;

    const manager = monitor.app.get(DatabaseWork).dataSource.manager;
    const now = new Date('2026-11-20T12:00:00Z');
    const repository = (fullName: string, source: 'installation' | 'external') =>
      manager.getRepository(RepositoryEntity).save({
        githubId: null,
        fullName,
        htmlUrl: `https://github.com/${fullName}`,
        private: false,
        source,
        installationId: null,
        status: 'active',
        baselineImportedAt: null,
        createdAt: now,
        updatedAt: now,
      });
    repoA = (await repository('octo-org/alpha_widget', 'installation')).id;
    repoB = (await repository('someone/Beta', 'external')).id;

    const event = (id: string, repositoryId: number, kind: string, category: EventEntity['category'], title: string, occurredAt: string) =>
      manager.getRepository(EventEntity).save({
        repositoryId,
        deliveryId: null,
        kind,
        category,
        title,
        bodyText: `body of ${title}`,
        htmlUrl: null,
        actor: id === 'e3' ? 'Mona_Lisa' : 'hubot',
        fingerprint: `fp-${id}`,
        notified: false,
        occurredAt: new Date(occurredAt),
        createdAt: now,
      });
    await event('e1', repoA, 'issues.opened', 'issue', 'Crash on start', '2026-11-18T08:00:00Z');
    await event('e2', repoA, 'issues.closed', 'issue', 'Crash on start', '2026-11-19T08:00:00Z');
    await event('e3', repoB, 'workflow_run.failure', 'actions', 'CI failed: 100% broken', '2026-11-20T08:00:00Z');
    await event('e4', repoB, 'pull_request.opened', 'pr', 'Add issues_template', '2026-11-21T08:00:00Z');

    const item = (repositoryId: number, kind: 'issue' | 'pull_request', number: number, title: string, author: string) =>
      manager.getRepository(WorkItemEntity).save({
        repositoryId,
        kind,
        number,
        title,
        state: 'open',
        merged: false,
        draft: false,
        author,
        htmlUrl: `https://github.com/x/y/${number}`,
        githubUpdatedAt: null,
        createdAt: now,
        updatedAt: now,
      });
    await item(repoA, 'issue', 7, 'Memory LEAK in parser', 'alice');
    await item(repoA, 'pull_request', 42, 'Fix the parser', 'bob');
    await item(repoB, 'issue', 420, 'Docs: 50%_off typo', 'carol');

    const run = (runId: number, workflowName: string, headBranch: string, conclusion: string) =>
      manager.getRepository(WorkflowRunEntity).save({
        repositoryId: repoA,
        runId,
        workflowName,
        headBranch,
        headSha: `abc${runId}def`,
        triggerEvent: 'push',
        status: 'completed',
        conclusion,
        runAttempt: 1,
        htmlUrl: `https://github.com/x/y/actions/runs/${runId}`,
        createdAt: now,
        updatedAt: now,
      });
    await run(1001, 'CI', 'main', 'success');
    await run(1002, 'Release', 'feature/Login', 'failure');
    await run(1003, 'Nightly', 'main', 'timed_out');

    const alert = (number: number, summary: string, severity: string) =>
      manager.getRepository(SecurityAlertEntity).save({
        repositoryId: repoB,
        kind: 'dependabot',
        number,
        state: 'open',
        severity,
        summary,
        htmlUrl: `https://github.com/x/y/security/dependabot/${number}`,
        ignored: false,
        ignoredAt: null,
        createdAt: now,
        updatedAt: now,
      });
    await alert(1, 'Prototype pollution in lodash', 'high');
    await alert(2, 'ReDoS in minimatch', 'medium');

    const outbox = async (key: string, channelId: string, state: OutboxEntryEntity['state'], message: string) => {
      const row = await manager.getRepository(OutboxEntryEntity).save({
        idempotencyKey: key,
        eventId: null,
        channelId,
        channelKind: 'http_webhook',
        groupKey: `${channelId}|x|issue`,
        role: 'single',
        aggregatedInto: null,
        itemCount: 1,
        message,
        state,
        attempts: state === 'dead' ? 8 : 0,
        nextAttemptAt: now,
        leaseUntil: null,
        lastErrorCode: state === 'dead' ? 'http_500' : null,
        lastError: state === 'dead' ? 'the receiver answered 500' : null,
        sentAt: null,
        createdAt: now,
        updatedAt: now,
      });
      outboxIds[key] = row.id;
    };
    const message = JSON.stringify({
      kind: 'issues.opened',
      category: 'issue',
      repository: 'octo-org/alpha_widget',
      title: '<b>Crash</b> on start',
      bodyHtml: '<b>x</b>',
      bodyPlain: 'Crash on start\nby hubot',
      url: 'https://github.com/octo-org/alpha_widget/issues/1',
      occurredAt: '2026-11-18T08:00:00.000Z',
      event: { secret: 'not part of the summary' },
    });
    await outbox('dead-a1', 'channel-a', 'dead', message);
    await outbox('dead-a2', 'channel-a', 'dead', message);
    await outbox('dead-b1', 'channel-b', 'dead', message);
    await outbox('sent-a', 'channel-a', 'sent', 'not json');
  });

  afterAll(async () => {
    await monitor?.close();
  });

  const titles = (page: Page<{ title: string }>) => page.items.map((item) => item.title);

  it('filters events by repository, category, kind or its family, time range and text', async () => {
    expect((await get<Page<unknown>>(`/api/v1/events?repository_id=${repoA}`)).body.total).toBe(2);
    expect((await get<Page<unknown>>('/api/v1/events?kind=issues')).body.total).toBe(2);
    expect((await get<Page<unknown>>('/api/v1/events?kind=issues.closed')).body.total).toBe(1);
    // `_` in a family is no wildcard: `issue_` must not match `issues.*`.
    expect((await get<Page<unknown>>('/api/v1/events?kind=issue_')).body.total).toBe(0);
    expect((await get<Page<unknown>>('/api/v1/events?kind=workflow_run')).body.total).toBe(1);
    const range = await get<Page<{ title: string; occurred_at: string }>>('/api/v1/events?since=2026-11-19T00:00:00Z&until=2026-11-21T08:00:00Z');
    expect(range.body.items.map((item) => item.occurred_at)).toEqual(['2026-11-20T08:00:00.000Z', '2026-11-19T08:00:00.000Z']);
    expect((await get<Page<unknown>>('/api/v1/events?since=2026-11-20T09:00:00%2B01:00')).body.total).toBe(2);
    expect(titles((await get<Page<{ title: string }>>('/api/v1/events?q=100%25')).body)).toEqual(['CI failed: 100% broken']);
    expect(titles((await get<Page<{ title: string }>>('/api/v1/events?q=mona_')).body)).toEqual(['CI failed: 100% broken']);
    expect((await get<Page<unknown>>('/api/v1/events?q=%25')).body.total).toBe(1);
    expect((await get<Page<unknown>>('/api/v1/events?category=pr&q=issues_')).body.total).toBe(1);
  });

  it.each([
    '/api/v1/events?kind=Issues',
    '/api/v1/events?kind=issues.opened.now',
    '/api/v1/events?since=yesterday',
    '/api/v1/events?since=2026-11-20',
    '/api/v1/events?since=2026-02-30T00:00:00Z',
    '/api/v1/events?until=2026-11-20T00:00:00',
    '/api/v1/events?since=2026-11-21T00:00:00Z&until=2026-11-20T00:00:00Z',
    `/api/v1/events?q=${'x'.repeat(201)}`,
    '/api/v1/events?q=%20%20',
    '/api/v1/work-items?q=',
    '/api/v1/workflow-runs?status=' + 'x'.repeat(33),
    '/api/v1/security-alerts?severity=' + 'x'.repeat(33),
    '/api/v1/repositories?source=fork',
    '/api/v1/notifications/outbox?channel_id=a%20b',
    '/api/v1/notifications/outbox?channel_id=' + 'c'.repeat(65),
  ])('GET %s answers 400 validation_failed', async (path) => {
    const answer = await get(path);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error_code: 'validation_failed', message: expect.any(String) });
  });

  it('searches work items by title, author or number, with LIKE wildcards taken literally', async () => {
    expect(titles((await get<Page<{ title: string }>>('/api/v1/work-items?q=leak')).body)).toEqual(['Memory LEAK in parser']);
    expect(titles((await get<Page<{ title: string }>>('/api/v1/work-items?q=BOB')).body)).toEqual(['Fix the parser']);
    expect(titles((await get<Page<{ title: string }>>('/api/v1/work-items?q=%2342')).body)).toEqual(['Fix the parser']);
    expect((await get<Page<unknown>>('/api/v1/work-items?q=parser&kind=issue')).body.total).toBe(1);
    expect(titles((await get<Page<{ title: string }>>('/api/v1/work-items?q=50%25_')).body)).toEqual(['Docs: 50%_off typo']);
    expect((await get<Page<unknown>>('/api/v1/work-items?q=5_%25')).body.total).toBe(0);
  });

  it('searches workflow runs by name, branch or SHA and filters by status', async () => {
    expect((await get<Page<{ workflow_name: string }>>('/api/v1/workflow-runs?q=login')).body.items.map((run) => run.workflow_name)).toEqual(['Release']);
    expect((await get<Page<unknown>>('/api/v1/workflow-runs?q=abc1001')).body.total).toBe(1);
    expect((await get<Page<unknown>>('/api/v1/workflow-runs?status=completed&conclusion=failure')).body.total).toBe(1);
    expect((await get<Page<unknown>>('/api/v1/workflow-runs?status=queued')).body.total).toBe(0);
  });

  it('marks each run failed or not as the service counts it (a timed-out run is failed too)', async () => {
    const runs = (await get<Page<{ workflow_name: string; conclusion: string; failed: boolean }>>('/api/v1/workflow-runs?per_page=100')).body.items;
    expect(runs.map((run) => [run.workflow_name, run.conclusion, run.failed]).sort()).toEqual([
      ['CI', 'success', false],
      ['Nightly', 'timed_out', true],
      ['Release', 'failure', true],
    ]);
  });

  it('searches security alerts and filters by severity and state', async () => {
    expect((await get<Page<{ summary: string }>>('/api/v1/security-alerts?q=LODASH')).body.items.map((alert) => alert.summary)).toEqual([
      'Prototype pollution in lodash',
    ]);
    expect((await get<Page<unknown>>('/api/v1/security-alerts?severity=medium&state=open')).body.total).toBe(1);
    expect((await get<Page<unknown>>('/api/v1/security-alerts?state=fixed')).body.total).toBe(0);
  });

  it('searches repositories and filters by source', async () => {
    expect((await get<Page<{ full_name: string }>>('/api/v1/repositories?q=beta')).body.items.map((repo) => repo.full_name)).toEqual(['someone/Beta']);
    expect((await get<Page<unknown>>('/api/v1/repositories?q=a_w')).body.total).toBe(1);
    expect((await get<Page<unknown>>('/api/v1/repositories?source=external')).body.total).toBe(1);
  });

  it('lets an agent token search the monitored data', async () => {
    const answer = await requestJson<Page<unknown>>(monitor.url, '/api/v1/work-items?q=parser', { token: agentToken });
    expect(answer.status).toBe(200);
    expect(answer.body.total).toBe(2);
  });

  it('filters the outbox by channel and state', async () => {
    expect((await get<Page<unknown>>('/api/v1/notifications/outbox?channel_id=channel-a')).body.total).toBe(3);
    expect((await get<Page<unknown>>('/api/v1/notifications/outbox?channel_id=channel-a&state=dead')).body.total).toBe(2);
  });

  it('shows one outbox entry with its attempts, last error and a summary of what it says', async () => {
    const answer = await get(`/api/v1/notifications/outbox/${outboxIds['dead-a1']}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      id: outboxIds['dead-a1'],
      channel_id: 'channel-a',
      channel_name: null,
      state: 'dead',
      attempts: 8,
      last_error_code: 'http_500',
      last_error: 'the receiver answered 500',
      next_attempt_at: '2026-11-20T12:00:00.000Z',
      merged_entry_ids: [],
      payload: {
        kind: 'issues.opened',
        repository: 'octo-org/alpha_widget',
        title: '<b>Crash</b> on start',
        body_text: 'Crash on start\nby hubot',
        url: 'https://github.com/octo-org/alpha_widget/issues/1',
      },
    });
    expect(JSON.stringify(answer.body)).not.toContain('not part of the summary');
    const unreadable = await get(`/api/v1/notifications/outbox/${outboxIds['sent-a']}`);
    expect(unreadable.body).toMatchObject({ payload: null, title: '' });
    expect((await get('/api/v1/notifications/outbox/2147483647')).status).toBe(404);
    expect((await get('/api/v1/notifications/outbox/abc')).status).toBe(400);
  });

  it('retries the dead entries of one channel, then all, answering how many', async () => {
    expect((await post('/api/v1/notifications/outbox/retry-dead', { channel_id: 'bad id' })).status).toBe(400);
    expect((await post('/api/v1/notifications/outbox/retry-dead', { channel_id: 'channel-a', state: 'sent' })).status).toBe(400);
    const one = await post<{ retried: number }>('/api/v1/notifications/outbox/retry-dead', { channel_id: 'channel-a' });
    expect(one).toMatchObject({ status: 200, body: { retried: 2 } });
    // The running worker picks a retried entry up at once and, these channels not existing, may
    // already have dead-lettered it again (channel_unavailable); a fresh attempt count (the
    // fixture's was 8) is what proves the retry either way.
    const attempts = async (key: string) => (await get<{ attempts: number }>(`/api/v1/notifications/outbox/${outboxIds[key]}`)).body.attempts;
    expect(await attempts('dead-a1')).toBeLessThanOrEqual(1);
    expect(await attempts('dead-a2')).toBeLessThanOrEqual(1);
    expect(await attempts('dead-b1')).toBe(8);
    const rest = await post<{ retried: number }>('/api/v1/notifications/outbox/retry-dead');
    expect(rest.body.retried).toBeGreaterThanOrEqual(1);
    expect(await attempts('dead-b1')).toBeLessThanOrEqual(1);
  });

  it('refuses the outbox without a session, without the CSRF token, and to agent tokens', async () => {
    expect((await requestJson(monitor.url, `/api/v1/notifications/outbox/${outboxIds['sent-a']}`)).status).toBe(401);
    expect((await requestJson(monitor.url, '/api/v1/notifications/outbox/retry-dead', { method: 'POST', body: {} })).status).toBe(401);
    const noCsrf = await requestJson(monitor.url, '/api/v1/notifications/outbox/retry-dead', { method: 'POST', body: {}, headers: { cookie: session.cookie } });
    expect(noCsrf.status).toBe(403);
    expect((await requestJson(monitor.url, `/api/v1/notifications/outbox/${outboxIds['sent-a']}`, { token: agentToken })).status).toBe(403);
    expect((await requestJson(monitor.url, '/api/v1/notifications/outbox/retry-dead', { method: 'POST', body: {}, token: agentToken })).status).toBe(403);
  });
});
