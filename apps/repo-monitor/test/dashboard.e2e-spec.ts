import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalWebhookReceiver, requestJson } from '@shared/testing';
import { EventEntity } from '../src/app/events/event.entity';
import { InstallationEntity } from '../src/app/installations/installation.entity';
import { OutboxEntryEntity } from '../src/app/outbox/outbox-entry.entity';
import { DatabaseWork } from '../src/database/database-work';
import { RepositoryEntity } from '../src/app/repositories/repository.entity';
import { WorkflowRunEntity } from '../src/app/workflow-runs/workflow-run.entity';
import { adminHeaders, AdminSession, loginAdmin, RunningMonitor, startMonitor, TEST_ADMIN_ENV, TEST_ENCRYPTION_KEY } from './harness';

const CLIENT_SECRET = 'agent-client-secret-0123456789';
const DAY = 24 * 3600_000;
const SHANGHAI = 8 * 3600_000;

interface Dashboard {
  time_zone: string;
  checklist: Array<{ key: string; done: boolean }>;
  setup_complete: boolean;
  tiles: Record<string, number>;
  events_per_day: Array<{ date: string; total: number; by_category: Record<string, number> }>;
  notifications_per_day: Array<{ date: string; sent: number; failed: number }>;
  outbox: { pending: number; sending: number; dead: number; oldest_pending_at: string | null; oldest_pending_age_seconds: number | null };
  recent_events: Array<{ title: string }>;
  recent_notifications: Array<{ id: number }>;
  recent_deliveries: unknown[];
}

/** `YYYY-MM-DD` of an instant in Asia/Shanghai (UTC+8 all year). */
const shanghaiDate = (instant: number) => new Date(instant + SHANGHAI).toISOString().slice(0, 10);

describe('GET /api/v1/dashboard', () => {
  const receiver = new LocalWebhookReceiver();
  let monitor: RunningMonitor;
  let session: AdminSession;

  const get = () => requestJson<Dashboard>(monitor.url, '/api/v1/dashboard', { headers: adminHeaders(session) });
  const call = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
    requestJson<T>(monitor.url, path, { method, headers: adminHeaders(session), body });
  const done = (dashboard: Dashboard) => Object.fromEntries(dashboard.checklist.map((item) => [item.key, item.done]));

  beforeAll(async () => {
    await receiver.start();
    monitor = await startMonitor({ env: { ...TEST_ADMIN_ENV, MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, MONITOR_OAUTH_CLIENT_SECRET: CLIENT_SECRET } });
    session = await loginAdmin(monitor);
  });
  afterAll(async () => {
    await monitor?.close();
    await receiver.close();
  });

  it('starts with an open checklist, zero tiles and 14 empty days in UTC', async () => {
    const answer = await get();
    expect(answer.status).toBe(200);
    expect(answer.body.time_zone).toBe('UTC');
    expect(answer.body.checklist).toEqual([
      { key: 'github_app_credentials', done: false },
      { key: 'inbound_webhook_secret', done: false },
      { key: 'installation', done: false },
      { key: 'repository', done: false },
      { key: 'channel_tested', done: false },
    ]);
    expect(answer.body.setup_complete).toBe(false);
    expect(Object.values(answer.body.tiles).every((value) => value === 0)).toBe(true);
    expect(answer.body.events_per_day).toHaveLength(14);
    expect(answer.body.events_per_day[13].date).toBe(new Date().toISOString().slice(0, 10));
    expect(answer.body.notifications_per_day.every((day) => day.sent === 0 && day.failed === 0)).toBe(true);
    expect(answer.body.outbox).toEqual({ pending: 0, sending: 0, dead: 0, oldest_pending_at: null, oldest_pending_age_seconds: null });
    expect(answer.body.recent_events).toEqual([]);
  });

  it('ticks each checklist step off as the real state gets there', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    expect((await call('PUT', '/api/v1/github/app', { app_id: '12345', client_id: 'Iv1.abc', private_key: pem })).status).toBe(200);
    expect(done((await get()).body)).toMatchObject({ github_app_credentials: true, inbound_webhook_secret: false });
    expect((await call('PUT', '/api/v1/github/app', { webhook_secret: 'inbound-secret-0123456789' })).status).toBe(200);
    expect(done((await get()).body)).toMatchObject({ inbound_webhook_secret: true, installation: false });

    const manager = monitor.app.get(DatabaseWork).dataSource.manager;
    const now = new Date();
    await manager.getRepository(InstallationEntity).save({
      installationId: 777,
      accountLogin: 'octo-org',
      accountType: 'Organization',
      repositorySelection: 'all',
      suspended: false,
      removedAt: null,
      lastReconciledAt: null,
      createdAt: now,
      updatedAt: now,
    });
    expect(done((await get()).body)).toMatchObject({ installation: true, repository: false });
    await manager.getRepository(RepositoryEntity).save({
      githubId: 1,
      fullName: 'octo-org/app',
      htmlUrl: 'https://github.com/octo-org/app',
      private: false,
      source: 'installation',
      installationId: 777,
      status: 'active',
      baselineImportedAt: null,
      createdAt: now,
      updatedAt: now,
    });
    expect(done((await get()).body)).toMatchObject({ repository: true, channel_tested: false });

    // A failing test does not count; a passing one does, until the channel's target changes.
    const created = await call<{ id: string; last_test: unknown }>('POST', '/api/v1/notification-channels', {
      kind: 'http_webhook',
      name: 'Team hook',
      url: receiver.urlFor('/hook'),
      allow_private: true,
    });
    expect(created.body.last_test).toBeNull();
    const id = created.body.id;
    receiver.replyNext({ status: 500, body: 'down' });
    expect((await call<{ ok: boolean }>('POST', `/api/v1/notification-channels/${id}/test`)).body.ok).toBe(false);
    const failedTest = await call<{ last_test: { ok: boolean; error: string | null; at: string } }>('GET', `/api/v1/notification-channels/${id}`);
    expect(failedTest.body.last_test).toMatchObject({ ok: false, error: expect.any(String), at: expect.any(String) });
    expect(done((await get()).body).channel_tested).toBe(false);
    expect((await call<{ ok: boolean }>('POST', `/api/v1/notification-channels/${id}/test`)).body.ok).toBe(true);
    const passed = await get();
    expect(done(passed.body).channel_tested).toBe(true);
    expect(passed.body.setup_complete).toBe(true);
    expect(passed.body.tiles).toMatchObject({ repositories: 1, installations: 1, enabled_channels: 1 });

    await call('PATCH', `/api/v1/notification-channels/${id}`, { url: receiver.urlFor('/elsewhere') });
    expect((await call<{ last_test: unknown }>('GET', `/api/v1/notification-channels/${id}`)).body.last_test).toBeNull();
    expect(done((await get()).body).channel_tested).toBe(false);
  });

  it('counts events and notifications per day in the configured time zone', async () => {
    expect((await call('PUT', '/api/v1/system/settings', { time_zone: 'Asia/Shanghai' })).status).toBe(200);
    const manager = monitor.app.get(DatabaseWork).dataSource.manager;
    const now = Date.now();
    const todayStart = Math.floor((now + SHANGHAI) / DAY) * DAY - SHANGHAI;
    let n = 0;
    const event = (at: number, category: EventEntity['category']) =>
      manager.getRepository(EventEntity).save({
        repositoryId: null,
        deliveryId: null,
        kind: category === 'issue' ? 'issues.opened' : 'workflow_run.failure',
        category,
        title: `event ${++n}`,
        bodyText: '',
        htmlUrl: null,
        actor: null,
        fingerprint: `dashboard-${n}`,
        notified: false,
        occurredAt: new Date(at),
        createdAt: new Date(now),
      });
    await event(todayStart + 60_000, 'issue'); // today, just after local midnight (16:01 UTC the day before)
    await event(todayStart - 60_000, 'issue'); // yesterday, just before local midnight
    await event(todayStart - 60_000, 'actions');
    await event(todayStart - 13 * DAY + 60_000, 'actions'); // the first day shown
    await event(todayStart - 13 * DAY - 60_000, 'issue'); // before the window

    const outbox = (state: OutboxEntryEntity['state'], at: number) =>
      manager.getRepository(OutboxEntryEntity).save({
        idempotencyKey: `dashboard-${++n}`,
        eventId: null,
        channelId: 'channel-x',
        channelKind: 'http_webhook',
        groupKey: 'channel-x|-|issue',
        role: 'single',
        aggregatedInto: null,
        itemCount: 1,
        message: JSON.stringify({ title: `notification ${n}` }),
        state,
        attempts: 1,
        nextAttemptAt: new Date(now + 3600_000),
        leaseUntil: null,
        lastErrorCode: null,
        lastError: null,
        sentAt: state === 'sent' ? new Date(at) : null,
        createdAt: new Date(at),
        updatedAt: new Date(at),
      });
    await outbox('sent', todayStart + 60_000);
    await outbox('sent', todayStart - 60_000);
    await outbox('dead', todayStart - 60_000);
    await outbox('pending', now - 300_000);
    await outbox('pending', now - 10_000);

    const { body } = await get();
    expect(body.time_zone).toBe('Asia/Shanghai');
    const today = shanghaiDate(now);
    const yesterday = shanghaiDate(todayStart - 60_000);
    expect(body.events_per_day[13]).toMatchObject({ date: today, total: 1, by_category: { issue: 1, actions: 0, pr: 0, security: 0, other: 0 } });
    expect(body.events_per_day[12]).toMatchObject({ date: yesterday, total: 2, by_category: { issue: 1, actions: 1 } });
    expect(body.events_per_day[0]).toMatchObject({ date: shanghaiDate(todayStart - 13 * DAY), total: 1, by_category: { actions: 1 } });
    expect(body.events_per_day.reduce((sum, day) => sum + day.total, 0)).toBe(4);
    expect(body.notifications_per_day[13]).toEqual({ date: today, sent: 1, failed: 0 });
    expect(body.notifications_per_day[12]).toEqual({ date: yesterday, sent: 1, failed: 1 });
    expect(body.outbox).toMatchObject({ pending: 2, sending: 0, dead: 1 });
    expect(body.outbox.oldest_pending_age_seconds).toBeGreaterThanOrEqual(300);
    expect(body.outbox.oldest_pending_at).toBe(new Date(now - 300_000).toISOString());
    expect(body.recent_events[0].title).toBe(`event 5`);
    expect(body.recent_events).toHaveLength(5);
    expect(body.recent_notifications).toHaveLength(5);
  });

  it('counts the workflow runs of the 14 days shown that concluded as failed, in every failed conclusion', async () => {
    const manager = monitor.app.get(DatabaseWork).dataSource.manager;
    const repository = await manager.getRepository(RepositoryEntity).save({
      githubId: null,
      fullName: 'acme/runs',
      htmlUrl: 'https://github.com/acme/runs',
      private: false,
      source: 'external',
      installationId: null,
      status: 'active',
      baselineImportedAt: null,
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    const before = (await get()).body.tiles.failed_workflow_runs;
    const now = Date.now();
    let runId = 7_000;
    const run = (conclusion: string | null, updatedAt: number) =>
      manager.getRepository(WorkflowRunEntity).save({
        repositoryId: repository.id,
        runId: ++runId,
        workflowName: 'CI',
        headBranch: 'main',
        headSha: null,
        triggerEvent: 'push',
        status: conclusion ? 'completed' : 'in_progress',
        conclusion,
        runAttempt: 1,
        htmlUrl: `https://github.com/acme/app/actions/runs/${runId}`,
        createdAt: new Date(updatedAt),
        updatedAt: new Date(updatedAt),
      });
    for (const conclusion of ['failure', 'timed_out', 'cancelled', 'action_required', 'startup_failure']) await run(conclusion, now - DAY);
    for (const conclusion of ['success', 'skipped', 'neutral', null]) await run(conclusion, now - DAY);
    await run('failure', now - 20 * DAY); // before the window
    expect((await get()).body.tiles.failed_workflow_runs - before).toBe(5);
  });

  it('answers 401 without a session and 403 to an agent token', async () => {
    expect((await requestJson(monitor.url, '/api/v1/dashboard')).status).toBe(401);
    const token = await requestJson<{ access_token: string }>(monitor.url, '/oauth/token', {
      method: 'POST',
      rawBody: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'repo-monitor-agent', client_secret: CLIENT_SECRET }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const answer = await requestJson(monitor.url, '/api/v1/dashboard', { token: token.body.access_token });
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ error_code: 'forbidden' });
  });
});

describe('GET /api/v1/dashboard with the GitHub App credentials from environment variables', () => {
  let directory: string;
  const monitors: RunningMonitor[] = [];

  const checklist = async (env: Record<string, string>) => {
    const monitor = await startMonitor({ env: { ...TEST_ADMIN_ENV, MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, ...env } });
    monitors.push(monitor);
    const answer = await requestJson<Dashboard>(monitor.url, '/api/v1/dashboard', { headers: adminHeaders(await loginAdmin(monitor)) });
    expect(answer.status).toBe(200);
    return Object.fromEntries(answer.body.checklist.map((item) => [item.key, item.done]));
  };

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'monitor-dashboard-'));
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    await writeFile(join(directory, 'app.pem'), privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(), { mode: 0o600 });
  });
  afterEach(async () => {
    for (const monitor of monitors.splice(0)) await monitor.close();
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('ticks the credentials off for an App id and a private key file given by the environment (no client id)', async () => {
    const done = await checklist({
      MONITOR_VCS_APP_ID: '12345',
      MONITOR_VCS_PRIVATE_KEY_PATH: join(directory, 'app.pem'),
      MONITOR_VCS_WEBHOOK_SECRET: 'inbound-secret-0123456789',
    });
    expect(done).toMatchObject({ github_app_credentials: true, inbound_webhook_secret: true, installation: false });
  });

  it('leaves them to do when the key file named by the environment cannot be read', async () => {
    const done = await checklist({ MONITOR_VCS_APP_ID: '12345', MONITOR_VCS_PRIVATE_KEY_PATH: join(directory, 'missing.pem') });
    expect(done).toMatchObject({ github_app_credentials: false });
  });
});
