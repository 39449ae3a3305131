import {
  generateGitHubAppKeyPair,
  LocalGitHubApi,
  LocalHttpProxy,
  LocalTelegramBotApi,
  LocalWebhookReceiver,
  requestJson,
  tempDir,
  verifyHostMonitorSignature,
  waitFor,
} from '@shared/testing';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { GitHubSyncService } from '../src/app/github/github-sync.service';
import {
  formDelivery,
  INBOUND_SECRET,
  installationCreated,
  issueEvent,
  OUTBOUND_SECRET,
  pullRequestEvent,
  releaseEvent,
  securityAlertEvent,
  sendDelivery,
  starEvent,
  watchEvent,
  workflowRunEvent,
} from './github-fixtures';
import { adminHeaders, AdminSession, loginAdmin, RunningMonitor, startMonitor, TEST_ADMIN_ENV, TEST_ENCRYPTION_KEY } from './harness';

const APP_ID = 5151;
const INSTALLATION_ID = 88;
const CHAT_ID = '6160';
const PAT = 'ghp_external_token';

interface ListBody<T> {
  items: T[];
  page: number;
  per_page: number;
  total: number;
}

interface EventRow {
  kind: string;
  category: string;
  notified: boolean;
  title: string;
}


describe('GitHub events: every notifying kind, toggles, baselines, polling, external repositories', () => {
  const keys = generateGitHubAppKeyPair();
  const github = new LocalGitHubApi({ appId: APP_ID, publicKey: keys.publicKey, personalAccessTokens: [PAT] });
  const telegram = new LocalTelegramBotApi();
  const keyDir = tempDir('monitor-events-key-');
  const repositories = ['acme/api', 'acme/ci', 'acme/sec', 'acme/social', 'acme/quiet', 'acme/shelf', 'acme/gone'];
  let monitor: RunningMonitor;
  let session: AdminSession;

  const ref = (fullName: string) => ({ full_name: fullName, id: Number(github.repositories.get(fullName)?.id) });
  const list = async <T>(path: string): Promise<ListBody<T>> => {
    const response = await requestJson<ListBody<T>>(monitor.url, path, { headers: adminHeaders(session) });
    expect(response.status).toBe(200);
    return response.body;
  };
  const events = async (): Promise<EventRow[]> => (await list<EventRow>('/api/v1/events?per_page=100')).items;
  const eventsOf = async (kind: string): Promise<EventRow[]> => (await events()).filter((event) => event.kind === kind);
  const messagesAbout = (text: string) => telegram.messages.filter((message) => message.text.includes(text));
  /** Sends in order and waits until each delivery was processed (its 202 alone only means stored). */
  const deliver = async (event: string, payload: Record<string, unknown>): Promise<string> => {
    const response = await sendDelivery(monitor.url, event, payload);
    expect(response.status).toBe(202);
    expect(response.body).toMatchObject({ status: 'accepted' });
    return response.deliveryId;
  };
  /** Waits until the outbox has nothing left to send. */
  const settle = async () => {
    await waitFor(async () => {
      const pending = await list<unknown>('/api/v1/notifications/outbox?state=pending&per_page=1');
      const sending = await list<unknown>('/api/v1/notifications/outbox?state=sending&per_page=1');
      return pending.total === 0 && sending.total === 0;
    }, 15_000);
  };
  const patchRepository = async (fullName: string, body: Record<string, unknown>) => {
    const row = (await list<{ id: number; full_name: string }>('/api/v1/repositories?per_page=100')).items.find((repository) => repository.full_name === fullName);
    const response = await requestJson(monitor.url, `/api/v1/repositories/${row?.id}`, { method: 'PATCH', headers: adminHeaders(session), body });
    expect(response.status).toBe(200);
    return row?.id as number;
  };

  beforeAll(async () => {
    await Promise.all([github.start(), telegram.start()]);
    const keyPath = join(keyDir.path, 'app.pem');
    writeFileSync(keyPath, keys.privateKey);
    github.addInstallation({ id: INSTALLATION_ID, account: 'acme', repositories });
    // Open issues and a pull request that exist before the installation: the baseline imports them silently.
    github.setIssue('acme/api', { number: 1, title: 'Existing bug' });
    github.setIssue('acme/api', { number: 2, title: 'Another existing bug' });
    github.setIssue('acme/api', { number: 3, title: 'Closed long ago', state: 'closed' });
    github.setPullRequest('acme/api', 4, { title: 'Existing change' });
    monitor = await startMonitor({
      env: {
        ...TEST_ADMIN_ENV,
        MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        MONITOR_VCS_APP_ID: String(APP_ID),
        MONITOR_VCS_PRIVATE_KEY_PATH: keyPath,
        MONITOR_VCS_API_URL: github.url,
        MONITOR_VCS_WEBHOOK_SECRET: INBOUND_SECRET,
        MONITOR_EXTERNAL_PAT: PAT,
        MONITOR_STARRED_USERNAME: 'stargazer',
        MONITOR_BOT_TOKEN: telegram.token,
        MONITOR_BOT_CHAT_ID: CHAT_ID,
        MONITOR_BOT_API_BASE_URL: telegram.apiBaseUrl,
        MONITOR_AGGREGATION_WINDOW: '0s',
        MONITOR_AGGREGATION_BURST_THRESHOLD: '1000',
      },
    });
    session = await loginAdmin(monitor);
    await deliver('installation', installationCreated(INSTALLATION_ID, 'acme', repositories.map(ref)));
    await waitFor(async () => {
      const rows = await list<{ baseline_imported_at: string | null }>('/api/v1/repositories?per_page=100');
      return rows.total === repositories.length && rows.items.every((row) => row.baseline_imported_at !== null);
    }, 20_000);
  });

  afterAll(async () => {
    await monitor?.close();
    await Promise.all([github.close(), telegram.close()]);
    keyDir.remove();
  });

  it('imports open issues and pull requests as the baseline without notifying', async () => {
    const items = await list<{ kind: string; number: number; title: string; state: string }>('/api/v1/work-items?per_page=100');
    expect(items.items.map((item) => [item.kind, item.number, item.title, item.state]).sort()).toEqual([
      ['issue', 1, 'Existing bug', 'open'],
      ['issue', 2, 'Another existing bug', 'open'],
      ['pull_request', 4, 'Existing change', 'open'],
    ]);
    expect(github.requests.some((request) => request.path === '/repos/acme/api/issues' && request.query.get('state') === 'open')).toBe(true);
    expect(await events()).toEqual([]);
    expect(telegram.messages).toHaveLength(0);
  });

  it('accepts a form-encoded delivery (payload=...) signed over the raw form body', async () => {
    const response = await formDelivery(monitor.url, 'issues', issueEvent('opened', INSTALLATION_ID, ref('acme/api'), 10, 'Sent as a form'));
    expect(response.status).toBe(202);
    expect(response.body).toMatchObject({ status: 'accepted' });
    await waitFor(() => messagesAbout('Sent as a form').length === 1, 15_000);
    const wrong = await formDelivery(monitor.url, 'issues', { action: 'opened' }, { secret: 'not-the-secret' });
    expect(wrong.status).toBe(401);
    const noPayload = await sendDelivery(monitor.url, 'issues', null, { rawBody: 'other=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(noPayload.status).toBe(400);
    expect(noPayload.body).toMatchObject({ error_code: 'validation_failed' });
  });

  it('notifies pull requests opened, ready for review and merged', async () => {
    await deliver('pull_request', pullRequestEvent(INSTALLATION_ID, ref('acme/api'), 20, 'opened'));
    await deliver('pull_request', pullRequestEvent(INSTALLATION_ID, ref('acme/api'), 20, 'ready_for_review'));
    await deliver('pull_request', pullRequestEvent(INSTALLATION_ID, ref('acme/api'), 20, 'synchronize'));
    await deliver('pull_request', pullRequestEvent(INSTALLATION_ID, ref('acme/api'), 20, 'closed', { merged: true }));
    await waitFor(async () => (await eventsOf('pull_request.merged')).length === 1, 15_000);
    await settle();
    expect((messagesAbout('Pull request #20').map((message) => message.text.split('\n')[0])).sort()).toEqual([
      '<b>[acme/api] Pull request #20 opened: Change 20</b>',
      '<b>[acme/api] Pull request #20 ready for review: Change 20</b>',
      '<b>[acme/api] Pull request #20 merged: Change 20</b>',
    ].sort());
  });

  it('notifies failed, timed-out, cancelled, action-required, startup-failure and recovered runs, not a plain success', async () => {
    const ci = ref('acme/ci');
    await deliver('workflow_run', workflowRunEvent(INSTALLATION_ID, ci, { id: 101, conclusion: 'success', updatedAt: '2024-07-01T10:00:00Z' }));
    await deliver('workflow_run', workflowRunEvent(INSTALLATION_ID, ci, { id: 102, conclusion: null, action: 'requested', updatedAt: '2024-07-01T10:05:00Z' }));
    await deliver('workflow_run', workflowRunEvent(INSTALLATION_ID, ci, { id: 102, conclusion: 'failure', updatedAt: '2024-07-01T10:10:00Z' }));
    await deliver('workflow_run', workflowRunEvent(INSTALLATION_ID, ci, { id: 103, conclusion: 'success', updatedAt: '2024-07-01T10:20:00Z' }));
    await deliver('workflow_run', workflowRunEvent(INSTALLATION_ID, ci, { id: 104, conclusion: 'success', updatedAt: '2024-07-01T10:30:00Z' }));
    for (const [id, conclusion] of [
      [201, 'timed_out'],
      [202, 'cancelled'],
      [203, 'action_required'],
      [204, 'startup_failure'],
    ] as const) {
      await deliver('workflow_run', workflowRunEvent(INSTALLATION_ID, ci, { id, conclusion, name: `Job ${conclusion}` }));
    }
    await waitFor(async () => (await eventsOf('workflow_run.startup_failure')).length === 1, 15_000);
    await settle();
    const kinds = (await events()).filter((event) => event.kind.startsWith('workflow_run.')).map((event) => event.kind).sort();
    expect(kinds).toEqual([
      'workflow_run.action_required',
      'workflow_run.cancelled',
      'workflow_run.failure',
      'workflow_run.recovered',
      'workflow_run.startup_failure',
      'workflow_run.timed_out',
    ]);
    // Sent in parallel batches: the order of arrival is not the order of the runs.
    const titles = messagesAbout('[acme/ci]').map((message) => message.text.split('\n')[0]);
    expect(titles.sort()).toEqual([
      '<b>[acme/ci] Workflow CI failed on main</b>',
      '<b>[acme/ci] Workflow CI recovered on main</b>',
      '<b>[acme/ci] Workflow Job timed_out timed out on main</b>',
      '<b>[acme/ci] Workflow Job cancelled was cancelled on main</b>',
      '<b>[acme/ci] Workflow Job action_required needs action on main</b>',
      '<b>[acme/ci] Workflow Job startup_failure failed to start on main</b>',
    ].sort());
    const runs = await list<{ run_id: number; conclusion: string | null }>('/api/v1/workflow-runs?per_page=100');
    expect(runs.total).toBe(8);
  });

  it('notifies every action of all three kinds of security alert, and none for an ignored alert', async () => {
    const sec = ref('acme/sec');
    const actions = {
      dependabot_alert: ['created', 'dismissed', 'fixed', 'reintroduced', 'reopened', 'auto_dismissed', 'auto_reopened'],
      code_scanning_alert: ['created', 'appeared_in_branch', 'closed_by_user', 'reopened_by_user', 'fixed', 'reopened'],
      secret_scanning_alert: ['created', 'resolved', 'reopened', 'revoked', 'validated', 'publicly_leaked'],
    } as const;
    let minute = 0;
    for (const [event, names] of Object.entries(actions) as Array<[keyof typeof actions, readonly string[]]>) {
      for (const action of names) {
        await deliver(event, securityAlertEvent(event, INSTALLATION_ID, sec, 1, action, `2024-08-01T10:${String(minute++).padStart(2, '0')}:00Z`));
      }
    }
    const expected = Object.values(actions).reduce((sum, names) => sum + names.length, 0);
    await waitFor(async () => (await events()).filter((event) => event.category === 'security').length === expected, 20_000);
    await settle();
    const securityEvents = (await events()).filter((event) => event.category === 'security');
    expect(securityEvents.every((event) => event.notified)).toBe(true);
    expect(new Set(securityEvents.map((event) => event.kind))).toEqual(
      new Set(Object.entries(actions).flatMap(([event, names]) => names.map((action) => `${event}.${action}`))),
    );
    expect(messagesAbout('[acme/sec]')).toHaveLength(expected);
    expect(messagesAbout('Dependabot alert #1 auto reopened (high)')).toHaveLength(1);
    expect(messagesAbout('Secret scanning alert #1 publicly leaked')).toHaveLength(1);

    const alerts = await list<{ id: number; kind: string; number: number }>('/api/v1/security-alerts?per_page=100');
    expect(alerts.items.map((alert) => alert.kind).sort()).toEqual(['code_scanning', 'dependabot', 'secret_scanning']);
    const dependabot = alerts.items.find((alert) => alert.kind === 'dependabot');
    const ignored = await requestJson(monitor.url, `/api/v1/security-alerts/${dependabot?.id}`, { method: 'PATCH', headers: adminHeaders(session), body: { ignored: true } });
    expect(ignored.status).toBe(200);
    await deliver('dependabot_alert', securityAlertEvent('dependabot_alert', INSTALLATION_ID, sec, 1, 'dismissed', '2024-08-02T00:00:00Z'));
    await waitFor(async () => (await eventsOf('dependabot_alert.dismissed')).length === 2, 15_000);
    await settle();
    expect((await eventsOf('dependabot_alert.dismissed')).filter((event) => !event.notified)).toHaveLength(1);
    expect(messagesAbout('[acme/sec]')).toHaveLength(expected);
  });

  it('notifies star created and deleted, watch started and release published (not release created)', async () => {
    const social = ref('acme/social');
    await deliver('star', starEvent(INSTALLATION_ID, social, 'created', 'fan', '2024-09-01T00:00:00Z'));
    await deliver('star', starEvent(INSTALLATION_ID, social, 'deleted', 'fan', null));
    await deliver('watch', watchEvent(INSTALLATION_ID, social, 'watcher'));
    await deliver('release', releaseEvent(INSTALLATION_ID, social, 'created', { id: 9001, tag: 'v1.0.0' }));
    await deliver('release', releaseEvent(INSTALLATION_ID, social, 'published', { id: 9001, tag: 'v1.0.0' }));
    await waitFor(async () => (await eventsOf('release.published')).length === 1, 15_000);
    await settle();
    expect((messagesAbout('[acme/social]').map((message) => message.text.split('\n')[0])).sort()).toEqual([
      '<b>[acme/social] New star</b>',
      '<b>[acme/social] Star removed</b>',
      '<b>[acme/social] New watcher</b>',
      '<b>[acme/social] Release Version v1.0.0 published</b>',
    ].sort());
    expect(messagesAbout('fan starred acme/social')).toHaveLength(1);
  });

  it('records but does not notify what a repository toggle switches off', async () => {
    const quiet = ref('acme/quiet');
    await patchRepository('acme/quiet', { issues: false, pull_requests: false, workflow_runs: false, security_alerts: false, releases: false, stars: false });
    await deliver('issues', issueEvent('opened', INSTALLATION_ID, quiet, 1, 'Quiet issue'));
    await deliver('pull_request', pullRequestEvent(INSTALLATION_ID, quiet, 2, 'opened'));
    await deliver('workflow_run', workflowRunEvent(INSTALLATION_ID, quiet, { id: 301, conclusion: 'failure' }));
    await deliver('secret_scanning_alert', securityAlertEvent('secret_scanning_alert', INSTALLATION_ID, quiet, 3, 'created'));
    await deliver('release', releaseEvent(INSTALLATION_ID, quiet, 'published', { id: 9101, tag: 'v2' }));
    await deliver('star', starEvent(INSTALLATION_ID, quiet, 'created', 'fan', '2024-09-02T00:00:00Z'));
    await deliver('watch', watchEvent(INSTALLATION_ID, quiet, 'watcher'));
    const quietId = await patchRepository('acme/quiet', {});
    const quietEvents = async () => (await list<EventRow>(`/api/v1/events?per_page=100&repository_id=${quietId}`)).items;
    // Deliveries of one repository are applied in order: the last one's event means all are in.
    await waitFor(async () => (await quietEvents()).some((event) => event.kind === 'watch.started'), 15_000);
    expect((await quietEvents()).map((event) => event.kind).sort()).toEqual([
      'issues.opened',
      'pull_request.opened',
      'release.published',
      'secret_scanning_alert.created',
      'star.created',
      'watch.started',
      'workflow_run.failure',
    ]);
    expect((await quietEvents()).every((event) => !event.notified)).toBe(true);
    await settle();
    expect(messagesAbout('[acme/quiet]')).toHaveLength(0);

    // Switching one kind back on lets exactly that kind through again.
    await patchRepository('acme/quiet', { issues: true });
    await deliver('issues', issueEvent('reopened', INSTALLATION_ID, quiet, 1, 'Quiet issue'));
    await waitFor(() => messagesAbout('[acme/quiet] Issue #1 reopened').length === 1, 15_000);
  });

  it('does not notify for an archived or a removed repository', async () => {
    const shelfId = await patchRepository('acme/shelf', {});
    const archived = await requestJson<{ status: string }>(monitor.url, `/api/v1/repositories/${shelfId}/archive`, { method: 'POST', headers: adminHeaders(session) });
    expect(archived.body.status).toBe('archived');
    await deliver('issues', issueEvent('opened', INSTALLATION_ID, ref('acme/shelf'), 1, 'On the shelf'));
    await deliver('installation_repositories', {
      action: 'removed',
      installation: { id: INSTALLATION_ID },
      repositories_added: [],
      repositories_removed: [{ id: ref('acme/gone').id, full_name: 'acme/gone' }],
      sender: { login: 'acme' },
    });
    await waitFor(async () => (await list<{ status: string }>('/api/v1/repositories?status=removed')).total === 1, 15_000);
    await deliver('issues', issueEvent('opened', INSTALLATION_ID, ref('acme/gone'), 1, 'After removal'));
    await waitFor(async () => (await events()).filter((event) => event.title.includes('On the shelf') || event.title.includes('After removal')).length === 2, 15_000);
    expect((await events()).filter((event) => event.title.includes('On the shelf') || event.title.includes('After removal')).every((event) => !event.notified)).toBe(true);
    await settle();
    expect(messagesAbout('On the shelf')).toHaveLength(0);
    expect(messagesAbout('After removal')).toHaveLength(0);
  });

  it('polls starred releases with ETags: a baseline first, free 304s, then one notification per new release', async () => {
    github.setStarred('stargazer', ['tools/alpha', 'tools/beta']);
    github.addRelease('tools/alpha', { tag_name: 'v1.0.0' });
    const sync = monitor.app.get(GitHubSyncService);
    expect(await sync.pollStarredReleases()).toEqual({ checked: 2, notModified: 0, published: 0 });
    await settle();
    expect(messagesAbout('tools/')).toHaveLength(0);

    const rateBefore = github.rateRemaining;
    const notModifiedBefore = github.notModifiedCount;
    // tools/beta has no release (404, no ETag): it is asked again but costs one request.
    expect(await sync.pollStarredReleases()).toEqual({ checked: 2, notModified: 1, published: 0 });
    expect(github.notModifiedCount - notModifiedBefore).toBe(2);
    expect(rateBefore - github.rateRemaining).toBe(1);

    github.addRelease('tools/alpha', { tag_name: 'v1.1.0' });
    github.addRelease('tools/beta', { tag_name: 'v0.1.0' });
    expect(await sync.pollStarredReleases()).toEqual({ checked: 2, notModified: 0, published: 2 });
    expect(await sync.pollStarredReleases()).toMatchObject({ published: 0 });
    await waitFor(() => messagesAbout('tools/').length === 2, 15_000);
    expect(messagesAbout('[tools/alpha] Release v1.1.0 published')).toHaveLength(1);
    expect(messagesAbout('[tools/beta] Release v0.1.0 published')).toHaveLength(1);
  });

  it('watches at most 20 external public repositories through the PAT', async () => {
    for (let index = 1; index <= 21; index++) github.addRepository(`outside/lib-${index}`);
    github.setIssue('outside/lib-1', { number: 5, title: 'Outside bug' });
    github.addRepository('outside/hidden', { private: true });
    const add = (fullName: string) => requestJson<{ full_name: string; source: string; error_code?: string }>(monitor.url, '/api/v1/repositories', { method: 'POST', headers: adminHeaders(session), body: { full_name: fullName } });
    const first = await add('outside/lib-1');
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ full_name: 'outside/lib-1', source: 'external' });
    for (let index = 2; index <= 20; index++) expect((await add(`outside/lib-${index}`)).status).toBe(201);
    const over = await add('outside/lib-21');
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ error_code: 'conflict' });
    expect((await add('outside/lib-1')).status).toBe(201);
    expect((await add('not a name')).status).toBe(400);
    expect((await add('outside/missing')).status).toBe(404);
    const externals = await list<{ full_name: string }>('/api/v1/repositories?per_page=100');
    expect(externals.items.filter((row) => row.full_name.startsWith('outside/'))).toHaveLength(20);
    expect(github.requests.filter((request) => request.path === '/repos/outside/lib-1').every((request) => request.headers.authorization === `token ${PAT}`)).toBe(true);
    const imported = await list<{ title: string }>('/api/v1/work-items?per_page=100');
    expect(imported.items.some((item) => item.title === 'Outside bug')).toBe(true);
    expect(messagesAbout('Outside bug')).toHaveLength(0);
    const anonymous = await requestJson(monitor.url, '/api/v1/repositories', { method: 'POST', body: { full_name: 'outside/lib-21' } });
    expect(anonymous.status).toBe(401);
  });
});

describe('aggregation window and burst summaries', () => {
  const telegram = new LocalTelegramBotApi();
  let monitor: RunningMonitor;

  beforeAll(async () => {
    await telegram.start();
    monitor = await startMonitor({
      env: {
        MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        MONITOR_VCS_WEBHOOK_SECRET: INBOUND_SECRET,
        MONITOR_BOT_TOKEN: telegram.token,
        MONITOR_BOT_CHAT_ID: CHAT_ID,
        MONITOR_BOT_API_BASE_URL: telegram.apiBaseUrl,
        MONITOR_AGGREGATION_WINDOW: '3s',
        MONITOR_AGGREGATION_BURST_THRESHOLD: '4',
        MONITOR_AGGREGATION_BURST_WINDOW: '7s',
      },
    });
  });

  afterAll(async () => {
    await monitor?.close();
    await telegram.close();
  });

  it('sends the first at once, merges the next within the window, and turns the rest of a burst into one summary, per repository and category', async () => {
    const repo = { full_name: 'agg/one', id: 1 };
    const other = { full_name: 'agg/two', id: 2 };
    const started = Date.now();
    for (let number = 1; number <= 6; number++) {
      expect((await sendDelivery(monitor.url, 'issues', issueEvent('opened', 1, repo, number, `Burst issue ${number}`))).status).toBe(202);
    }
    // Another category of the same repository and the same category of another repository are separate groups.
    await sendDelivery(monitor.url, 'pull_request', pullRequestEvent(1, repo, 50, 'opened'));
    await sendDelivery(monitor.url, 'issues', issueEvent('opened', 1, other, 1, 'Elsewhere'));
    // Known state: three sent, and the other five issues held as members of pending summaries (the
    // summaries come due after the window). Every send is recorded by the local Bot API before its
    // entry is marked sent, so exactly three messages have arrived.
    const dataSource = monitor.app.get(DataSource);
    await waitFor(async () => {
      const rows = (await dataSource.query(`SELECT "state", COUNT(*) AS "count" FROM "notification_outbox" GROUP BY "state"`)) as Array<{ state: string; count: number | string }>;
      const count = (state: string) => Number(rows.find((row) => row.state === state)?.count ?? 0);
      return count('sent') === 3 && count('suppressed') === 5;
    }, 10_000);
    const immediate = telegram.messages.map((message) => message.text.split('\n')[0]);
    expect(immediate).toEqual(
      expect.arrayContaining(['<b>[agg/one] Issue #1 opened: Burst issue 1</b>', '<b>[agg/one] Pull request #50 opened: Change 50</b>', '<b>[agg/two] Issue #1 opened: Elsewhere</b>']),
    );
    expect(telegram.messages).toHaveLength(3);

    await waitFor(() => telegram.messages.length >= 4, 10_000);
    const aggregate = telegram.messages[3];
    expect(Date.now() - started).toBeGreaterThanOrEqual(2500);
    expect(aggregate.text.split('\n')[0]).toBe('<b>[agg/one] 3 issue events</b>');
    expect(aggregate.text).toContain('Burst issue 2');
    expect(aggregate.text).toContain('Burst issue 4');

    await waitFor(() => telegram.messages.length >= 5, 15_000);
    const burst = telegram.messages[4];
    expect(Date.now() - started).toBeGreaterThanOrEqual(6000);
    expect(burst.text.split('\n')[0]).toBe('<b>[agg/one] 2 issue events in a burst (within 7 s)</b>');
    expect(burst.text).toContain('Burst issue 5');
    expect(burst.text).toContain('Burst issue 6');
    // Nothing is left in the outbox to send or to merge: no sixth message can follow.
    await waitFor(async () => {
      const [open] = (await dataSource.query(`SELECT COUNT(*) AS "count" FROM "notification_outbox" WHERE "state" IN ('pending', 'sending')`)) as Array<{ count: number | string }>;
      return Number(open.count) === 0;
    }, 15_000);
    expect(telegram.messages).toHaveLength(5);
  });
});

describe('outbound webhook through HTTPS_PROXY', () => {
  const receiver = new LocalWebhookReceiver();
  const proxy = new LocalHttpProxy();
  let monitor: RunningMonitor;

  beforeAll(async () => {
    await Promise.all([receiver.start(), proxy.start()]);
    monitor = await startMonitor({
      env: {
        MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        MONITOR_VCS_WEBHOOK_SECRET: INBOUND_SECRET,
        MONITOR_HTTP_WEBHOOK_URL: receiver.urlFor('/hook'),
        MONITOR_HTTP_WEBHOOK_SECRET: OUTBOUND_SECRET,
        MONITOR_HTTP_WEBHOOK_ALLOW_PRIVATE: 'true',
        MONITOR_AGGREGATION_WINDOW: '0s',
        HTTPS_PROXY: proxy.url,
      },
    });
  });

  afterAll(async () => {
    await monitor?.close();
    await Promise.all([receiver.close(), proxy.close()]);
  });

  it('tunnels the signed webhook through the proxy to the vetted address', async () => {
    await sendDelivery(monitor.url, 'issues', issueEvent('opened', 1, { full_name: 'proxied/repo', id: 3 }, 1, 'Through the proxy'));
    await waitFor(() => receiver.requestsTo('/hook').length === 1, 15_000);
    expect(proxy.requests.filter((request) => request.method === 'CONNECT').map((request) => request.target)).toEqual([`127.0.0.1:${receiver.port}`]);
    expect(verifyHostMonitorSignature(receiver.requestsTo('/hook')[0], OUTBOUND_SECRET)).toBe(true);
  });
});
