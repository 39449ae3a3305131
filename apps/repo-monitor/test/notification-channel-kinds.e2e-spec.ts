import { LocalSmtpServer, LocalWebhookReceiver, requestJson, waitFor } from '@shared/testing';
import { randomUUID } from 'node:crypto';
import { INBOUND_SECRET, repositoryPayload, sendDelivery } from './github-fixtures';
import { adminHeaders, AdminSession, loginAdmin, RunningMonitor, startMonitor, TEST_ADMIN_ENV, TEST_ENCRYPTION_KEY } from './harness';

interface Channel {
  id: string;
  kind: string;
  url: string | null;
  secret_set: boolean;
  email_to: string[] | null;
  smtp_port: number | null;
  smtp_security: string | null;
}

describe('channel kinds discord, slack, teams, ntfy, bark, gotify and email: validation, the test button, routed notifications', () => {
  const receiver = new LocalWebhookReceiver();
  const smtp = new LocalSmtpServer({ credentials: { user: 'monitor', password: 'smtp-password' } });
  let monitor: RunningMonitor;
  let session: AdminSession;
  const channels: Record<string, Channel> = {};

  const call = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => requestJson<T>(monitor.url, path, { method, headers: adminHeaders(session), body });
  const json = (path: string) => receiver.requestsTo(path).map((request) => JSON.parse(request.bodyText) as unknown);

  beforeAll(async () => {
    await Promise.all([receiver.start(), smtp.start()]);
    receiver.setDefaultReply({ status: 200, body: 'ok' });
    monitor = await startMonitor({
      databasePrefix: 'h4_channels',
      env: {
        ...TEST_ADMIN_ENV,
        MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        MONITOR_VCS_WEBHOOK_SECRET: INBOUND_SECRET,
        MONITOR_AGGREGATION_WINDOW: '0s',
        MONITOR_AGGREGATION_BURST_THRESHOLD: '1000',
      },
    });
    session = await loginAdmin(monitor);
  }, 60_000);

  afterAll(async () => {
    await monitor?.close();
    await Promise.all([receiver.close(), smtp.close()]);
  });

  it('refuses each kind\'s malformed settings and private targets without allow_private, changing nothing', async () => {
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ kind: 'discord', name: 'd', url: receiver.urlFor('/not-a-discord-path'), allow_private: true }, 'url'],
      [{ kind: 'discord', name: 'd', url: 'https://discord.com/api/webhooks/1/abcdefghijkl', secret: 'x' }, 'secret'],
      [{ kind: 'slack', name: 's' }, 'url'],
      [{ kind: 'slack', name: 's', url: receiver.urlFor('/slack') }, 'url'],
      [{ kind: 'teams', name: 't', url: 'ftp://example.com/x' }, 'url'],
      [{ kind: 'gotify', name: 'g', url: receiver.urlFor('/gotify'), allow_private: true }, 'secret'],
      [{ kind: 'gotify', name: 'g', url: receiver.urlFor('/gotify'), allow_private: true, secret: 'bad token!' }, 'secret'],
      [{ kind: 'ntfy', name: 'n', url: receiver.urlFor('/topic'), allow_private: true, secret: 'not-a-token' }, 'secret'],
      [{ kind: 'email', name: 'e', smtp_host: 'smtp.example.com', email_from: 'monitor@example.com' }, 'email_to'],
      [{ kind: 'email', name: 'e', smtp_host: 'smtp.example.com', email_to: ['ops@example.com'] }, 'email_from'],
      [{ kind: 'email', name: 'e', smtp_host: 'smtp.example.com', email_from: 'monitor@example.com', email_to: ['not an address'] }, 'email_to'],
      [{ kind: 'email', name: 'e', smtp_host: '127.0.0.1', email_from: 'monitor@example.com', email_to: ['ops@example.com'] }, 'smtp_host'],
      [{ kind: 'email', name: 'e', smtp_host: 'smtp.example.com', smtp_security: 'none', email_from: 'monitor@example.com', email_to: ['ops@example.com'] }, 'smtp_security'],
      [{ kind: 'email', name: 'e', smtp_host: 'smtp.example.com', smtp_port: 70000, email_from: 'monitor@example.com', email_to: ['ops@example.com'] }, 'smtp_port'],
      [{ kind: 'pager', name: 'p' }, 'kind'],
      [{ kind: 'slack', url: 'https://hooks.slack.com/services/T/B/X' }, 'name'],
      [{ kind: 'slack', name: 's', url: 'https://hooks.slack.com/services/T/B/X', message_thread_id: 4 }, 'message_thread_id'],
    ];
    for (const [body, field] of bad) {
      const response = await call<{ error_code: string; message: string; details?: { field?: string } }>('POST', '/api/v1/notification-channels', body);
      expect({ body, status: response.status, code: response.body.error_code }).toEqual({ body, status: 400, code: 'validation_failed' });
      expect(`${response.body.message} ${response.body.details?.field ?? ''}`).toContain(field);
    }
    expect((await call<{ total: number }>('GET', '/api/v1/notification-channels')).body.total).toBe(0);
  });

  it('creates a channel of each kind, hiding the token a webhook URL carries, and tests each through its receiver', async () => {
    const create = async (key: string, body: Record<string, unknown>) => {
      const response = await call<Channel>('POST', '/api/v1/notification-channels', { name: key, allow_private: true, ...body });
      expect(response.status).toBe(201);
      channels[key] = response.body;
    };
    await create('discord', { kind: 'discord', url: receiver.urlFor('/api/webhooks/123/discord-token-abcdef') });
    await create('slack', { kind: 'slack', url: receiver.urlFor('/services/T000/B000/slack-secret') });
    await create('teams', { kind: 'teams', url: receiver.urlFor('/workflows/teams-secret') });
    await create('bark', { kind: 'bark', url: receiver.urlFor('/bark-device-key') });
    await create('ntfy', { kind: 'ntfy', url: receiver.urlFor('/ntfy/repo-monitor'), secret: 'tk_AbCdEfGhIjKlMnOpQrStUv' });
    await create('gotify', { kind: 'gotify', url: receiver.urlFor('/gotify'), secret: 'AppToken.123' });
    await create('email', {
      kind: 'email',
      smtp_host: smtp.host,
      smtp_port: smtp.listeningPort,
      smtp_security: 'none',
      smtp_username: 'monitor',
      secret: 'smtp-password',
      email_from: 'repo-monitor <monitor@example.test>',
      email_to: ['ops@example.test'],
    });
    expect(channels['discord'].url).toBe(`${receiver.url}/…`);
    // Sending back the shortened URL the console shows would replace the real one: refused.
    const shortened = await call<{ details?: { field?: string } }>('PATCH', `/api/v1/notification-channels/${channels['discord'].id}`, { url: channels['discord'].url });
    expect([shortened.status, shortened.body.details?.field]).toEqual([400, 'url']);
    expect(JSON.stringify(await call('GET', `/api/v1/notification-channels/${channels['slack'].id}`))).not.toContain('slack-secret');
    expect(channels['email']).toMatchObject({ smtp_port: smtp.listeningPort, smtp_security: 'none', email_to: ['ops@example.test'], secret_set: true });

    receiver.replyNext({ status: 204 });
    for (const key of Object.keys(channels)) {
      const tested = await call<{ ok: boolean; error_code?: string }>('POST', `/api/v1/notification-channels/${channels[key].id}/test`);
      expect({ key, ok: tested.body.ok, error: tested.body.error_code }).toEqual({ key, ok: true, error: undefined });
    }
    expect(json('/api/webhooks/123/discord-token-abcdef')).toEqual([
      { content: '**repo\\-monitor test message**\nThe channel “discord” works.', allowed_mentions: { parse: [] }, username: 'repo-monitor' },
    ]);
    expect(json('/services/T000/B000/slack-secret')).toEqual([{ text: '*repo-monitor test message*\nThe channel “slack” works.', unfurl_links: false, unfurl_media: false }]);
    expect(receiver.requestsTo('/ntfy/repo-monitor')[0]?.headers).toMatchObject({ title: 'repo-monitor test message', authorization: 'Bearer tk_AbCdEfGhIjKlMnOpQrStUv' });
    expect(receiver.requestsTo('/gotify/message')[0]?.headers['x-gotify-key']).toBe('AppToken.123');
    expect(json('/bark-device-key')).toEqual([{ title: 'repo-monitor test message', body: 'The channel “bark” works.', group: 'repo-monitor' }]);
    expect(smtp.messages.map((message) => message.to)).toEqual([['ops@example.test']]);
    expect(smtp.messages[0].raw).toMatch(/^Subject: repo-monitor test message\r$/m);
  });

  it('sends a routed event to every new kind with its documented body', async () => {
    receiver.clearRequests();
    smtp.messages.length = 0;
    const rule = await call('POST', '/api/v1/notification-rules', {
      name: 'Failures everywhere',
      match: { events: ['workflow_run'], conclusions: ['failure'] },
      route: { channel_ids: Object.values(channels).map((channel) => channel.id) },
    });
    expect(rule.status).toBe(201);
    const payload = {
      action: 'completed',
      repository: repositoryPayload('acme/api', 4242),
      workflow_run: {
        id: 777,
        name: 'CI',
        head_branch: 'main',
        head_sha: 'abc',
        event: 'push',
        status: 'completed',
        conclusion: 'failure',
        run_number: 31,
        run_attempt: 1,
        html_url: 'https://github.com/acme/api/actions/runs/777',
        updated_at: new Date().toISOString(),
      },
      sender: { login: 'octocat' },
    };
    expect((await sendDelivery(monitor.url, 'workflow_run', payload, { deliveryId: randomUUID() })).status).toBe(202);
    await waitFor(() => receiver.requests.length === 6 && smtp.messages.length === 1, 20_000);
    const title = '[acme/api] Workflow CI failed on main';
    const body = 'Run #31 (attempt 1) concluded failure\nby octocat';
    const link = 'https://github.com/acme/api/actions/runs/777';
    expect(json('/api/webhooks/123/discord-token-abcdef')).toEqual([
      { content: `**\\[acme/api\\] Workflow CI failed on main**\nRun \\#31 \\(attempt 1\\) concluded failure\nby octocat\n<${link}>`, allowed_mentions: { parse: [] }, username: 'repo-monitor' },
    ]);
    expect(json('/services/T000/B000/slack-secret')).toEqual([{ text: `*${title}*\n${body}\n<${link}|View on GitHub>`, unfurl_links: false, unfurl_media: false }]);
    expect(json('/workflows/teams-secret')).toEqual([
      {
        type: 'message',
        attachments: [
          {
            contentType: 'application/vnd.microsoft.card.adaptive',
            contentUrl: null,
            content: {
              $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
              type: 'AdaptiveCard',
              version: '1.4',
              body: [
                { type: 'TextBlock', text: title, weight: 'Bolder', size: 'Medium', wrap: true },
                { type: 'TextBlock', text: body, wrap: true },
              ],
              actions: [{ type: 'Action.OpenUrl', title: 'View on GitHub', url: link }],
            },
          },
        ],
      },
    ]);
    expect(json('/bark-device-key')).toEqual([{ title, body, url: link, group: 'repo-monitor' }]);
    const ntfy = receiver.requestsTo('/ntfy/repo-monitor')[0];
    expect([ntfy?.bodyText, ntfy?.headers['title'], ntfy?.headers['click']]).toEqual([body, title, link]);
    expect(json('/gotify/message')).toEqual([{ title, message: body, priority: 5, extras: { 'client::notification': { click: { url: link } } } }]);
    expect(smtp.messages[0].raw).toMatch(/^Subject: \[acme\/api\] Workflow CI failed on main\r$/m);
    expect(smtp.messages[0].raw.split('\r\n\r\n').slice(1).join('\r\n\r\n')).toBe(`${body.replace('\n', '\r\n')}\r\n\r\n${link}\r\n`);
  }, 60_000);

  it('marks a notification a receiver refuses (4xx) dead with its error code', async () => {
    receiver.clearRequests();
    receiver.setDefaultReply({ status: 404, body: 'no_service' });
    const slack = channels['slack'].id;
    const payload = {
      action: 'completed',
      repository: repositoryPayload('acme/api', 4242),
      workflow_run: { id: 778, name: 'CI', head_branch: 'main', head_sha: 'abd', event: 'push', status: 'completed', conclusion: 'failure', run_number: 32, run_attempt: 1, html_url: 'https://github.com/acme/api/actions/runs/778', updated_at: new Date().toISOString() },
      sender: { login: 'octocat' },
    };
    expect((await sendDelivery(monitor.url, 'workflow_run', payload, { deliveryId: randomUUID() })).status).toBe(202);
    await waitFor(async () => (await call<{ total: number }>('GET', `/api/v1/notifications/outbox?state=dead&channel_id=${slack}`)).body.total === 1, 20_000);
    const dead = await call<{ items: Array<{ last_error_code: string; channel_kind: string }> }>('GET', `/api/v1/notifications/outbox?state=dead&channel_id=${slack}`);
    expect(dead.body.items[0]).toMatchObject({ channel_kind: 'slack', last_error_code: 'http_error' });
    receiver.setDefaultReply({ status: 200, body: 'ok' });
  }, 60_000);
});
