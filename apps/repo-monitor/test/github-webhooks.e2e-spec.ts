import {
  generateGitHubAppKeyPair,
  LocalGitHubApi,
  LocalTelegramBotApi,
  LocalWebhookReceiver,
  requestJson,
  tempDir,
  verifyHostMonitorSignature,
  verifyStandardWebhookSignature,
  waitFor,
} from '@shared/testing';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { adminHeaders, AdminSession, loginAdmin, RunningMonitor, startMonitor, TEST_ADMIN_ENV, TEST_ENCRYPTION_KEY } from './harness';
import { INBOUND_PREVIOUS_SECRET, INBOUND_SECRET, installationCreated, issueEvent, OUTBOUND_SECRET, sendDelivery } from './github-fixtures';

const APP_ID = 4242;
const INSTALLATION_ID = 77;
const CHAT_ID = '5150';

interface ListBody<T> {
  items: T[];
  page: number;
  per_page: number;
  total: number;
}

describe('GitHub webhooks → records → notifications', () => {
  const keys = generateGitHubAppKeyPair();
  const github = new LocalGitHubApi({ appId: APP_ID, publicKey: keys.publicKey });
  const telegram = new LocalTelegramBotApi();
  const receiver = new LocalWebhookReceiver();
  const keyDir = tempDir('monitor-key-');
  let monitor: RunningMonitor;
  let session: AdminSession;

  const list = async <T>(path: string): Promise<ListBody<T>> => {
    const response = await requestJson<ListBody<T>>(monitor.url, path, { headers: adminHeaders(session) });
    expect(response.status).toBe(200);
    return response.body;
  };
  const webhookHits = () => receiver.requestsTo('/hook');

  /**
   * Resolves once a delivery has been handled and the outbox holds nothing left to send to Telegram:
   * from then on no Telegram message can follow, so "nothing more was sent" is a fact and not a guess.
   * (The webhook channel may still hold retries from earlier tests; the assertions here are about Telegram.)
   */
  const settled = async (deliveryId: string): Promise<void> => {
    const dataSource = monitor.app.get(DataSource);
    const placeholder = dataSource.options.type === 'postgres' ? '$1' : '?';
    let seen = '';
    try {
      await waitFor(async () => {
        const [delivery] = (await dataSource.query(`SELECT "status" FROM "webhook_deliveries" WHERE "delivery_id" = ${placeholder}`, [deliveryId])) as Array<{ status: string }>;
        const open = (await dataSource.query(
          `SELECT "id", "state", "channel_kind" FROM "notification_outbox" WHERE "channel_kind" = 'telegram' AND "state" IN ('pending', 'sending')`,
        )) as unknown[];
        seen = JSON.stringify({ delivery: delivery?.status, open });
        return delivery !== undefined && delivery.status !== 'accepted' && open.length === 0;
      }, 15_000);
    } catch (error) {
      throw new Error(`delivery ${deliveryId} did not settle: ${seen}`, { cause: error });
    }
  };

  beforeAll(async () => {
    await Promise.all([github.start(), telegram.start(), receiver.start()]);
    const keyPath = join(keyDir.path, 'app.pem');
    writeFileSync(keyPath, keys.privateKey);
    github.addInstallation({ id: INSTALLATION_ID, account: 'acme', repositories: ['acme/api', 'acme/web'] });
    monitor = await startMonitor({
      env: {
        ...TEST_ADMIN_ENV,
        MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        MONITOR_VCS_APP_ID: String(APP_ID),
        MONITOR_VCS_PRIVATE_KEY_PATH: keyPath,
        MONITOR_VCS_API_URL: github.url,
        MONITOR_VCS_WEBHOOK_SECRET: INBOUND_SECRET,
        MONITOR_VCS_WEBHOOK_PREVIOUS_SECRET: INBOUND_PREVIOUS_SECRET,
        MONITOR_BOT_TOKEN: telegram.token,
        MONITOR_BOT_CHAT_ID: CHAT_ID,
        MONITOR_BOT_API_BASE_URL: telegram.apiBaseUrl,
        MONITOR_HTTP_WEBHOOK_URL: receiver.urlFor('/hook'),
        MONITOR_HTTP_WEBHOOK_SECRET: OUTBOUND_SECRET,
        MONITOR_HTTP_WEBHOOK_ALLOW_PRIVATE: 'true',
        MONITOR_AGGREGATION_WINDOW: '0s',
        MONITOR_AGGREGATION_BURST_THRESHOLD: '1000',
      },
    });
    session = await loginAdmin(monitor);
  });

  afterAll(async () => {
    await monitor?.close();
    await Promise.all([github.close(), telegram.close(), receiver.close()]);
    keyDir.remove();
  });

  it('refuses unsigned, wrongly signed and header-less deliveries', async () => {
    const payload = { zen: 'Keep it logically awesome.', hook_id: 1 };
    const unsigned = await sendDelivery(monitor.url, 'ping', payload, { headers: { 'x-hub-signature-256': '' } });
    expect(unsigned.status).toBe(401);
    expect(unsigned.body).toMatchObject({ error_code: 'invalid_signature' });
    const wrong = await sendDelivery(monitor.url, 'ping', payload, { secret: 'not-the-secret' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ error_code: 'invalid_signature' });
    const noDelivery = await sendDelivery(monitor.url, 'ping', payload, { headers: { 'x-github-delivery': '' } });
    expect(noDelivery.status).toBe(400);
    expect(noDelivery.body).toMatchObject({ error_code: 'validation_failed' });
    const noEvent = await sendDelivery(monitor.url, '', payload);
    expect(noEvent.status).toBe(400);
  });

  it('answers 413 validation_failed for a body over 1 MiB', async () => {
    const big = await sendDelivery(monitor.url, 'ping', { padding: 'x'.repeat(1024 * 1024 + 10) });
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ error_code: 'validation_failed' });
  });

  it('accepts the previous secret during rotation', async () => {
    const ping = await sendDelivery(monitor.url, 'ping', { zen: 'rotate' }, { secret: INBOUND_PREVIOUS_SECRET });
    expect(ping.status).toBe(202);
    expect(ping.body).toEqual({ status: 'accepted', delivery_id: ping.deliveryId });
  });

  it('imports an installation as a baseline without notifications', async () => {
    const delivery = await sendDelivery(
      monitor.url,
      'installation',
      installationCreated(INSTALLATION_ID, 'acme', [
        { full_name: 'acme/api', id: Number(github.repositories.get('acme/api')?.id) },
        { full_name: 'acme/web', id: Number(github.repositories.get('acme/web')?.id) },
      ]),
    );
    expect(delivery.status).toBe(202);
    await waitFor(async () => {
      const repositories = await list<{ full_name: string; baseline_imported_at: string | null }>('/api/v1/repositories');
      return repositories.total === 2 && repositories.items.every((repository) => repository.baseline_imported_at !== null);
    }, 15_000);
    expect(github.issuedTokens.some((token) => token.installationId === INSTALLATION_ID)).toBe(true);
    const installations = await list<{ installation_id: number; account_login: string }>('/api/v1/installations');
    expect(installations.items).toEqual([expect.objectContaining({ installation_id: INSTALLATION_ID, account_login: 'acme' })]);
    expect(telegram.messages).toHaveLength(0);
    expect(webhookHits()).toHaveLength(0);
  });

  it('turns an opened issue into one Telegram message and one signed webhook, once', async () => {
    const repository = { full_name: 'acme/api', id: Number(github.repositories.get('acme/api')?.id) };
    const opened = issueEvent('opened', INSTALLATION_ID, repository, 7, 'Crash on <start> & exit', '2024-05-01T10:00:00Z');
    const first = await sendDelivery(monitor.url, 'issues', opened);
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ status: 'accepted', delivery_id: first.deliveryId });
    const again = await sendDelivery(monitor.url, 'issues', opened, { deliveryId: first.deliveryId });
    expect(again.status).toBe(202);
    expect(again.body).toEqual({ status: 'duplicate', delivery_id: first.deliveryId });

    await waitFor(() => telegram.messages.length === 1 && webhookHits().length === 1, 15_000);
    const message = telegram.messages[0];
    expect(String(message.chatId)).toBe(CHAT_ID);
    expect(message.parseMode).toBe('HTML');
    expect(message.text).toContain('Issue #7 opened: Crash on &lt;start&gt; &amp; exit');
    expect(message.linkPreviewOptions).toMatchObject({ is_disabled: true });
    expect(message.replyMarkup).toEqual({ inline_keyboard: [[{ text: 'View on GitHub', url: 'https://github.com/acme/api/issues/7' }]] });

    const hit = webhookHits()[0];
    expect(verifyHostMonitorSignature(hit, OUTBOUND_SECRET)).toBe(true);
    expect(verifyStandardWebhookSignature(hit, OUTBOUND_SECRET)).toBe(true);
    expect(hit.headers['x-host-monitor-event']).toBe('issues.opened');
    const body = JSON.parse(hit.bodyText) as Record<string, unknown>;
    expect(body).toMatchObject({
      spec_version: '1',
      delivery_id: hit.headers['x-host-monitor-delivery'],
      event: expect.objectContaining({ kind: 'issues.opened', repository: 'acme/api', number: 7 }),
      title: expect.stringContaining('Issue #7 opened'),
      body_plain: expect.stringContaining('Crash on <start> & exit'),
    });
    expect(typeof body['emitted_at']).toBe('string');

    const items = await list<{ kind: string; number: number; state: string }>('/api/v1/work-items?kind=issue');
    expect(items.items).toEqual([expect.objectContaining({ number: 7, state: 'open' })]);
    const events = await list<{ kind: string; fingerprint: string; notified: boolean }>('/api/v1/events');
    expect(events.items.filter((event) => event.kind === 'issues.opened')).toEqual([expect.objectContaining({ notified: true, fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) })]);

    // The same change under a new delivery id (a redelivery) is deduplicated by fingerprint.
    const redelivered = await sendDelivery(monitor.url, 'issues', opened);
    expect(redelivered.body).toMatchObject({ status: 'accepted' });
    await settled(redelivered.deliveryId);
    expect(telegram.messages).toHaveLength(1);
    expect(webhookHits()).toHaveLength(1);
  });

  it('sends a permanent failure to dead at once and retries it from the console', async () => {
    receiver.replyNext({ status: 400, body: 'no' });
    const repository = { full_name: 'acme/web', id: Number(github.repositories.get('acme/web')?.id) };
    await sendDelivery(monitor.url, 'issues', issueEvent('opened', INSTALLATION_ID, repository, 1, 'Broken link', '2024-05-02T10:00:00Z'));
    let dead: { id: number; attempts: number; last_error_code: string; channel_kind: string } | undefined;
    await waitFor(async () => {
      dead = (await list<{ id: number; attempts: number; last_error_code: string; channel_kind: string }>('/api/v1/notifications/outbox?state=dead')).items[0];
      return Boolean(dead);
    }, 15_000);
    expect(dead).toMatchObject({ channel_kind: 'http_webhook', attempts: 1, last_error_code: 'http_error' });
    const hitsBefore = webhookHits().length;

    const noCsrf = await requestJson(monitor.url, `/api/v1/notifications/outbox/${dead?.id}/retry`, { method: 'POST', headers: { cookie: session.cookie } });
    expect(noCsrf.status).toBe(403);
    const retried = await requestJson<{ state: string }>(monitor.url, `/api/v1/notifications/outbox/${dead?.id}/retry`, { method: 'POST', headers: adminHeaders(session) });
    expect(retried.status).toBe(200);
    await waitFor(() => webhookHits().length === hitsBefore + 1, 15_000);
    await waitFor(async () => (await list<{ id: number; state: string }>('/api/v1/notifications/outbox?state=sent')).items.some((entry) => entry.id === dead?.id));
    const again = await requestJson<{ error_code: string }>(monitor.url, `/api/v1/notifications/outbox/${dead?.id}/retry`, { method: 'POST', headers: adminHeaders(session) });
    expect(again.status).toBe(409);
  });

  it('backs off a retryable failure, honouring Retry-After', async () => {
    receiver.replyNext({ status: 503, headers: { 'retry-after': '120' } });
    const repository = { full_name: 'acme/web', id: Number(github.repositories.get('acme/web')?.id) };
    const before = Date.now();
    await sendDelivery(monitor.url, 'issues', issueEvent('closed', INSTALLATION_ID, repository, 1, 'Broken link', '2024-05-03T10:00:00Z'));
    let pending: { attempts: number; next_attempt_at: string; last_error_code: string } | undefined;
    await waitFor(async () => {
      pending = (await list<{ attempts: number; next_attempt_at: string; last_error_code: string; channel_kind: string }>('/api/v1/notifications/outbox?state=pending')).items.find(
        (entry) => entry.attempts === 1,
      );
      return Boolean(pending);
    }, 15_000);
    expect(pending?.last_error_code).toBe('http_error');
    const delaySeconds = (new Date(pending?.next_attempt_at ?? 0).getTime() - before) / 1000;
    expect(delaySeconds).toBeGreaterThanOrEqual(119);
    expect(delaySeconds).toBeLessThan(200);
  });

  it('lists with pagination, refuses bad paging and requires a session', async () => {
    const page = await requestJson<ListBody<unknown>>(monitor.url, '/api/v1/repositories?per_page=1&page=2', { headers: adminHeaders(session) });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ page: 2, per_page: 1, total: 2 });
    expect(page.body.items).toHaveLength(1);
    const defaults = await list<unknown>('/api/v1/events');
    expect(defaults.per_page).toBe(20);
    for (const path of ['/api/v1/repositories?per_page=101', '/api/v1/events?page=0', '/api/v1/work-items?kind=bug']) {
      const bad = await requestJson(monitor.url, path, { headers: adminHeaders(session) });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error_code: 'validation_failed' });
    }
    for (const path of [
      '/api/v1/repositories',
      '/api/v1/work-items',
      '/api/v1/workflow-runs',
      '/api/v1/security-alerts',
      '/api/v1/events',
      '/api/v1/installations',
      '/api/v1/notifications/outbox',
    ]) {
      const anonymous = await requestJson(monitor.url, path);
      expect(anonymous.status).toBe(401);
    }
  });

  it('toggles, archives and reactivates a repository', async () => {
    const repositories = await list<{ id: number; full_name: string }>('/api/v1/repositories');
    const web = repositories.items.find((repository) => repository.full_name === 'acme/web');
    const toggled = await requestJson<{ notify: Record<string, boolean> }>(monitor.url, `/api/v1/repositories/${web?.id}`, {
      method: 'PATCH',
      headers: adminHeaders(session),
      body: { issues: false },
    });
    expect(toggled.status).toBe(200);
    expect(toggled.body.notify).toMatchObject({ issues: false, pull_requests: true });
    const badToggle = await requestJson(monitor.url, `/api/v1/repositories/${web?.id}`, { method: 'PATCH', headers: adminHeaders(session), body: { issues: 'no' } });
    expect(badToggle.status).toBe(400);
    const sent = telegram.messages.length;
    const repository = { full_name: 'acme/web', id: Number(github.repositories.get('acme/web')?.id) };
    const reopened = await sendDelivery(monitor.url, 'issues', issueEvent('reopened', INSTALLATION_ID, repository, 1, 'Broken link', '2024-05-04T10:00:00Z'));
    await waitFor(async () => (await list<{ kind: string }>('/api/v1/events')).items.some((event) => event.kind === 'issues.reopened'));
    await settled(reopened.deliveryId);
    expect(telegram.messages.length).toBe(sent);
    const archived = await requestJson<{ status: string }>(monitor.url, `/api/v1/repositories/${web?.id}/archive`, { method: 'POST', headers: adminHeaders(session) });
    expect(archived.body.status).toBe('archived');
    const active = await requestJson<{ status: string }>(monitor.url, `/api/v1/repositories/${web?.id}/activate`, { method: 'POST', headers: adminHeaders(session) });
    expect(active.body.status).toBe('active');
  });

  it('processes deliveries accepted before a restart exactly once after it', async () => {
    const dataSource = monitor.app.get(DataSource);
    const repository = { full_name: 'acme/api', id: Number(github.repositories.get('acme/api')?.id) };
    const payload = JSON.stringify(issueEvent('opened', INSTALLATION_ID, repository, 9, 'Left behind at shutdown', '2024-05-05T10:00:00Z'));
    // As if the service stopped between storing the delivery (202) and processing it.
    await dataSource.query(
      `INSERT INTO "webhook_deliveries" ("delivery_id", "event", "action", "installation_id", "repository_full_name", "payload", "status", "attempts", "received_at")
       VALUES ('left-behind-1', 'issues', 'opened', ${INSTALLATION_ID}, 'acme/api', ${dataSource.options.type === 'postgres' ? '$1' : '?'}, 'accepted', 0, ${dataSource.options.type === 'postgres' ? "(now() at time zone 'utc')" : "datetime('now')"})`,
      [payload],
    );
    const sent = telegram.messages.length;
    await monitor.stop();
    monitor = await startMonitor({ reuseEnv: monitor.env });
    session = await loginAdmin(monitor);
    await waitFor(() => telegram.messages.some((message) => message.text.includes('Left behind at shutdown')), 15_000);
    await settled('left-behind-1');
    expect(telegram.messages.filter((message) => message.text.includes('Left behind at shutdown'))).toHaveLength(1);
    expect(telegram.messages.length).toBe(sent + 1);
    const rows = (await monitor.app.get(DataSource).query(`SELECT "status" FROM "webhook_deliveries" WHERE "delivery_id" = 'left-behind-1'`)) as Array<{ status: string }>;
    expect(rows).toEqual([{ status: 'processed' }]);
  });
});

describe('webhook receiver without a secret', () => {
  let monitor: RunningMonitor;

  beforeAll(async () => {
    monitor = await startMonitor();
  });

  afterAll(async () => {
    await monitor?.close();
  });

  it('answers 503 webhook_not_configured with Retry-After: 60', async () => {
    const response = await sendDelivery(monitor.url, 'ping', { zen: 'hello' });
    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({ error_code: 'webhook_not_configured' });
    expect(response.headers.get('retry-after')).toBe('60');
  });
});
