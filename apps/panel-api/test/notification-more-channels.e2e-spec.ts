import { LocalSmtpServer, LocalWebhookReceiver, requestJson, waitFor } from '@shared/testing';
import { KeywordListenersService } from '../src/app/listeners/keyword-listeners.service';
import { TELEGRAM_GATEWAY } from '../src/app/telegram/telegram-gateway';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';
import { SimUser, TelegramSimulator } from './telegram-simulator';

const GOTIFY_TOKEN = 'AppToken.gotify_1';
const SMTP_USER = 'panel-mailer';
const SMTP_PASSWORD = 'smtp-password-1';
const DEALS = '-100411';

interface Hit {
  message_id: number;
  matched_keyword: string;
  push_channel: string;
  push_status: string;
  push_error: string | null;
  url: string | null;
}

/**
 * Discord, Slack, Microsoft Teams (workflows), Gotify and email as channels of the panel's notices,
 * its test buttons and its keyword-hit pushes: each against a local receiver (HTTP, or the SMTP
 * stand-in) that holds exactly the body the service documents.
 */
describe('notices, channel tests and keyword hits through Discord, Slack, Teams, Gotify and email', () => {
  const telegram = new TelegramSimulator();
  let panel: RunningPanel;
  let receiver: LocalWebhookReceiver;
  let smtp: LocalSmtpServer;
  let token: string;
  let alice: SimUser;

  const paths = { discord: '/api/webhooks/1/discord-token', slack: '/services/T0/B0/slack-secret', teams: '/workflows/run?sig=teams-sig', gotify: '/gotify' };
  const api = <T = Record<string, unknown>>(path: string, options: { method?: string; body?: unknown; token?: string } = {}) =>
    requestJson<T>(panel.url, path, { method: options.method, body: options.body, token: options.token ?? token });
  const put = (patch: Record<string, unknown>) => api<{ code?: string; fields?: Array<{ field: string; rule: string; message: string }> }>('/api/config/settings', { method: 'PUT', body: patch });
  const received = () => ({
    discord: receiver.requestsTo(paths.discord),
    slack: receiver.requestsTo(paths.slack.split('?')[0]),
    teams: receiver.requestsTo(paths.teams.split('?')[0]),
    gotify: receiver.requestsTo(`${paths.gotify}/message`),
    email: smtp.messages,
  });
  const counts = () => Object.values(received()).map((list) => list.length);
  const json = (request: { bodyText: string } | undefined) => JSON.parse(request?.bodyText ?? 'null') as unknown;
  const hits = async (): Promise<Hit[]> => (await api<{ items: Hit[] }>('/api/keyword-hits?limit=100')).body.items;

  beforeAll(async () => {
    receiver = await new LocalWebhookReceiver().start();
    smtp = new LocalSmtpServer({ credentials: { user: SMTP_USER, password: SMTP_PASSWORD } });
    await smtp.start();
    alice = telegram.createUser({ phone: '+31600000411', firstName: 'Alice', username: 'alice' });
    telegram.addGroup({ id: DEALS, title: 'Deals' });
    panel = await startPanel({ overrides: [{ provide: TELEGRAM_GATEWAY, useValue: telegram }] });
    token = await loginAsAdmin(panel);
  });

  afterAll(async () => {
    await panel?.close();
    await receiver?.close();
    await smtp?.close();
  });

  it('refuses bad values with the field, its rule and a sentence, and changes nothing', async () => {
    const before = await api('/api/config/settings');
    for (const [field, value, rule] of [
      ['push_discord_url', 'discord.com/api/webhooks/1/x', 'http_url'],
      ['push_slack_url', 'ftp://hooks.slack.com/x', 'http_url'],
      ['push_teams_url', 'not a url', 'http_url'],
      ['push_gotify_url', 'gotify.example.org', 'http_url'],
      ['push_gotify_token', 'has spaces', 'app_token'],
      ['push_email_smtp_host', 'smtp://mail.example.org', 'host_name'],
      ['push_email_smtp_security', 'ssl', 'smtp_security'],
      ['push_email_smtp_username', 'two words', 'no_spaces'],
      ['push_email_from', 'panel at example.org', 'email_from'],
      ['push_email_to', 'ops@example.org, not-an-address', 'email_list'],
    ] as const) {
      const refused = await put({ [field]: value });
      expect([field, refused.status, refused.body.code, refused.body.fields?.map((entry) => [entry.field, entry.rule])]).toEqual([field, 400, 'validation_failed', [[field, rule]]]);
      expect(refused.body.fields?.[0].message).toMatch(/^[A-Z].*\.$/);
    }
    const port = await put({ push_email_smtp_port: 70000 });
    expect([port.status, port.body.fields]).toEqual([400, [{ field: 'push_email_smtp_port', rule: 'range', min: 1, max: 65535, message: expect.any(String) }]]);
    expect((await api('/api/config/settings')).body).toEqual(before.body);
    expect((await api('/api/config/settings', { method: 'PUT', body: { push_discord_url: receiver.urlFor(paths.discord) }, token: 'nope' })).status).toBe(401);
  });

  it('answers channel_not_configured for a channel that is not set up', async () => {
    for (const channel of ['discord', 'slack', 'teams', 'gotify', 'email']) {
      const refused = await api<{ code: string }>(`/api/config/notifications/${channel}/test`, { method: 'POST' });
      expect([channel, refused.status, refused.body.code]).toEqual([channel, 400, 'channel_not_configured']);
    }
  });

  it('keeps the new secrets out of the settings answer and the export, masked on export and kept on import', async () => {
    const saved = await put({
      push_discord_url: receiver.urlFor(paths.discord),
      push_slack_url: receiver.urlFor(paths.slack),
      push_teams_url: receiver.urlFor(paths.teams),
      push_gotify_url: receiver.urlFor(paths.gotify),
      push_gotify_token: GOTIFY_TOKEN,
      push_email_smtp_host: smtp.host,
      push_email_smtp_port: smtp.listeningPort,
      push_email_smtp_security: 'none',
      push_email_smtp_username: SMTP_USER,
      push_email_smtp_password: SMTP_PASSWORD,
      push_email_from: 'Sign Panel <panel@example.org>',
      push_email_to: 'ops@example.org, oncall@example.org',
      timezone: 'UTC',
    });
    expect(saved.status).toBe(200);
    const view = await api<Record<string, unknown>>('/api/config/settings');
    expect(view.body).toMatchObject({
      push_discord_url_set: true,
      push_slack_url_set: true,
      push_teams_url_set: true,
      push_gotify_url: receiver.urlFor(paths.gotify),
      push_gotify_token_set: true,
      push_email_smtp_host: smtp.host,
      push_email_smtp_port: smtp.listeningPort,
      push_email_smtp_security: 'none',
      push_email_smtp_username: SMTP_USER,
      push_email_smtp_password_set: true,
      push_email_from: 'Sign Panel <panel@example.org>',
      push_email_to: 'ops@example.org, oncall@example.org',
    });
    for (const secret of ['discord-token', 'slack-secret', 'teams-sig', GOTIFY_TOKEN, SMTP_PASSWORD]) expect(view.text).not.toContain(secret);

    const exported = await api<{ settings: { global: Record<string, unknown> } }>('/api/config/export/all');
    expect(exported.body.settings.global).toMatchObject({
      push_discord_url: '***MASKED***',
      push_slack_url: '***MASKED***',
      push_teams_url: '***MASKED***',
      push_gotify_url: receiver.urlFor(paths.gotify),
      push_gotify_token: '***MASKED***',
      push_email_smtp_host: smtp.host,
      push_email_smtp_port: smtp.listeningPort,
      push_email_smtp_security: 'none',
      push_email_smtp_password: '***MASKED***',
      push_email_to: 'ops@example.org, oncall@example.org',
    });
    for (const secret of ['discord-token', 'slack-secret', 'teams-sig', GOTIFY_TOKEN, SMTP_PASSWORD]) expect(exported.text).not.toContain(secret);

    // The export imported back: the masked secrets stay as stored, the other values are taken.
    const document = exported.body as Record<string, unknown> & { settings: { global: Record<string, unknown> } };
    document.settings.global['push_email_to'] = 'ops@example.org';
    const imported = await api('/api/config/import/all', { method: 'POST', body: { config_json: JSON.stringify({ ...document, signs: {}, monitors: {} }), overwrite: true } });
    expect([imported.status, imported.text]).toEqual([200, expect.any(String)]);
    expect((await api<Record<string, unknown>>('/api/config/settings')).body).toMatchObject({ push_discord_url_set: true, push_gotify_token_set: true, push_email_smtp_password_set: true, push_email_to: 'ops@example.org' });

    // A stored password does not follow the mail server to another host.
    const moved = await put({ push_email_smtp_host: 'mail.example.net' });
    expect([moved.status, moved.body.fields?.map((entry) => [entry.field, entry.rule])]).toEqual([400, [['push_email_smtp_password', 'secret_needed_again']]]);
    expect((await put({ push_email_to: 'ops@example.org, oncall@example.org' })).status).toBe(200);
  });

  it('sends a notice to each new channel with the body each service documents, under the push switch', async () => {
    expect((await put({ push_notify_admin_login: true })).status).toBe(200);
    const before = counts();
    await loginAsAdmin(panel);
    await waitFor(() => counts().every((count, index) => count === before[index] + 1));
    const now = received();
    const time = /Time: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/;
    const discord = json(now.discord.at(-1)) as { content: string; allowed_mentions: unknown };
    expect(discord).toEqual({ content: expect.any(String), allowed_mentions: { parse: [] } });
    expect(discord.content).toMatch(/^\*\*Admin login\*\*\nUser: admin\nClient IP: 127\.0\.0\.1\nTime: \d{4}\\-\d\d\\-\d\d \d\d:\d\d:\d\d UTC$/);
    expect(now.discord.at(-1)?.headers['content-type']).toBe('application/json; charset=utf-8');

    const slack = json(now.slack.at(-1)) as { text: string };
    expect(slack).toEqual({ text: expect.any(String), unfurl_links: false, unfurl_media: false });
    expect(slack.text).toMatch(/^\*Admin login\*\nUser: admin\nClient IP: 127\.0\.0\.1\nTime: .+ UTC$/);
    expect(now.slack.at(-1)?.url).toBe(paths.slack);

    const teams = json(now.teams.at(-1)) as { attachments: Array<{ content: { body: Array<{ text: string }> } }> };
    expect(now.teams.at(-1)?.url).toBe(paths.teams);
    expect(teams).toEqual({
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
              { type: 'TextBlock', text: 'Admin login', weight: 'Bolder', size: 'Medium', wrap: true },
              { type: 'TextBlock', text: expect.stringMatching(/^User: admin\nClient IP: 127\.0\.0\.1\nTime: .+ UTC$/), wrap: true },
            ],
          },
        },
      ],
    });

    const gotify = now.gotify.at(-1);
    expect(gotify?.headers['x-gotify-key']).toBe(GOTIFY_TOKEN);
    expect(json(gotify)).toEqual({ title: 'Admin login', message: expect.stringMatching(time), priority: 5 });
    expect((json(gotify) as { message: string }).message).toMatch(/^User: admin\nClient IP: 127\.0\.0\.1\nTime: /);

    const mail = now.email.at(-1);
    expect(mail).toMatchObject({ from: 'panel@example.org', to: ['ops@example.org', 'oncall@example.org'], user: SMTP_USER });
    expect(mail?.raw).toMatch(/^Subject: Admin login\r$/m);
    expect(mail?.raw).toMatch(/^From: Sign Panel <panel@example\.org>\r$/m);
    expect(mail?.raw).toMatch(/^To: ops@example\.org, oncall@example\.org\r$/m);
    expect(mail?.raw).toMatch(/\r\n\r\nUser: admin\r\nClient IP: 127\.0\.0\.1\r\nTime: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\r\n/);

    // Switched off: the next login reaches none of them (a bot-less panel, so a later notice proves the wait).
    expect((await put({ push_notify_admin_login: false, push_notify_session_invalid: true })).status).toBe(200);
    const quiet = counts();
    await loginAsAdmin(panel);
    const user = telegram.createUser({ phone: '+31600000412' });
    const session = telegram.issueSession(user.id);
    expect((await api('/api/accounts/import-session', { method: 'POST', body: { account_name: 'lost', session_string: session } })).status).toBe(201);
    telegram.revokeSession(session);
    expect((await api('/api/accounts/lost/devices')).status).toBe(409);
    await waitFor(() => counts().every((count, index) => count === quiet[index] + 1));
    expect((json(received().gotify.at(-1)) as { title: string }).title).toBe('Telegram session invalid');
  });

  it('tests each new channel from its card and keeps the results', async () => {
    for (const channel of ['discord', 'slack', 'teams', 'gotify', 'email']) {
      const result = await api(`/api/config/notifications/${channel}/test`, { method: 'POST' });
      expect([channel, result.status, result.body]).toEqual([
        channel,
        200,
        { channel, ok: true, tested_at: expect.any(String), error_code: null, status: channel === 'email' ? null : 200, detail: null },
      ]);
    }
    expect((json(received().discord.at(-1)) as { content: string }).content).toMatch(/^\*\*Test notification\*\*\nThe panel can reach this channel\. Sent at /);
    expect(received().email.at(-1)?.raw).toMatch(/^Subject: Test notification\r$/m);

    receiver.replyNext({ status: 404, body: 'Unknown Webhook' });
    const refused = await api('/api/config/notifications/discord/test', { method: 'POST' });
    expect(refused.body).toMatchObject({ channel: 'discord', ok: false, error_code: 'http_error', status: 404, detail: expect.stringContaining('Unknown Webhook') });
    smtp.rejectNext({ code: 550, message: 'mailbox unavailable' });
    const bounced = await api('/api/config/notifications/email/test', { method: 'POST' });
    expect(bounced.body).toMatchObject({ channel: 'email', ok: false, error_code: 'rejected_by_receiver', status: 550, detail: expect.stringContaining('mailbox unavailable') });
    const last = await api<{ tests: Array<{ channel: string; ok: boolean }> }>('/api/config/notifications/tests');
    expect(last.body.tests.map((row) => [row.channel, row.ok])).toEqual([
      ['discord', false],
      ['slack', true],
      ['teams', true],
      ['gotify', true],
      ['email', false],
    ]);
  });

  it('pushes keyword hits through the channels saved in the settings, and says which one is not set up', async () => {
    expect((await api('/api/accounts/import-session', { method: 'POST', body: { account_name: 'alice', session_string: telegram.issueSession(alice.id) } })).status).toBe(201);
    const created = await api('/api/sign-tasks', {
      method: 'POST',
      body: {
        name: 'watch',
        account_name: 'alice',
        execution_mode: 'listen',
        chats: [
          {
            chat_id: Number(DEALS),
            name: 'Deals',
            actions: ['discord', 'slack', 'teams', 'gotify', 'email', 'ntfy'].map((channel) => ({ action: 8, keywords: [`to-${channel}`], push_channel: channel })),
          },
        ],
      },
    });
    expect([created.status, created.text]).toEqual([201, expect.any(String)]);
    await waitFor(async () => {
      const status = await api<{ components: Record<string, { details?: { accounts: Record<string, { state: string }> } }> }>('/api/ops/runtime-status');
      return status.body.components['keyword_listeners']?.details?.accounts['alice']?.state === 'listening';
    });
    const before = counts();
    for (const channel of ['discord', 'slack', 'teams', 'gotify', 'email', 'ntfy']) {
      telegram.pushIncoming(alice.id, DEALS, { text: `sale to-${channel} now`, senderName: 'Bob', senderUsername: 'bob' });
    }
    await waitFor(async () => (await hits()).filter((hit) => hit.push_status !== 'pending').length === 6);
    await panel.app.get(KeywordListenersService).settled();
    expect(counts()).toEqual(before.map((count) => count + 1));
    const byKeyword = new Map((await hits()).map((hit) => [hit.matched_keyword, hit]));
    expect([...byKeyword.values()].map((hit) => [hit.push_channel, hit.push_status]).sort()).toEqual([
      ['discord', 'sent'],
      ['email', 'sent'],
      ['gotify', 'sent'],
      ['ntfy', 'failed'],
      ['slack', 'sent'],
      ['teams', 'sent'],
    ]);
    expect(byKeyword.get('to-ntfy')?.push_error).toBe('ntfy: the ntfy channel is not set up in the settings');

    const summary = (channel: string) => `Account: alice\nTask: watch\nChat: Deals\nSender: @bob\nKeyword: to-${channel}\n\nsale to-${channel} now`;
    const discordHit = byKeyword.get('to-discord');
    expect(json(received().discord.at(-1))).toEqual({
      content: `**Keyword hit: to\\-discord**\nAccount: alice\nTask: watch\nChat: Deals\nSender: \\@bob\nKeyword: to\\-discord\n\nsale to\\-discord now\n<${discordHit?.url}>`,
      allowed_mentions: { parse: [] },
    });
    expect(json(received().slack.at(-1))).toEqual({ text: `*Keyword hit: to-slack*\n${summary('slack')}\n<${byKeyword.get('to-slack')?.url}|Open in Telegram>`, unfurl_links: false, unfurl_media: false });
    expect(json(received().gotify.at(-1))).toEqual({
      title: 'Keyword hit: to-gotify',
      message: summary('gotify'),
      priority: 5,
      extras: { 'client::notification': { click: { url: byKeyword.get('to-gotify')?.url } } },
    });
    expect(received().email.at(-1)?.raw).toMatch(/^Subject: Keyword hit: to-email\r$/m);
    expect(received().email.at(-1)?.raw).toContain(`${summary('email').replace(/\n/g, '\r\n')}\r\n\r\n${byKeyword.get('to-email')?.url}\r\n`);
  });
});

describe('email without encryption while private addresses are off', () => {
  let panel: RunningPanel;
  let token: string;

  beforeAll(async () => {
    panel = await startPanel({ env: { APP_OUTBOUND_ALLOW_PRIVATE: '0' } });
    token = await loginAsAdmin(panel);
  });

  afterAll(async () => {
    await panel?.close();
  });

  it('sends nothing and says encryption is required, so no login crosses the internet in plain text', async () => {
    const saved = await requestJson(panel.url, '/api/config/settings', {
      method: 'PUT',
      token,
      body: { push_email_smtp_host: 'mail.example.org', push_email_smtp_security: 'none', push_email_smtp_password: 'plain-text-password', push_email_from: 'panel@example.org', push_email_to: 'ops@example.org' },
    });
    expect(saved.status).toBe(200);
    const test = await requestJson(panel.url, '/api/config/notifications/email/test', { method: 'POST', token });
    expect([test.status, test.body]).toEqual([200, { channel: 'email', ok: false, tested_at: expect.any(String), error_code: 'encryption_required', status: null, detail: null }]);
  });
});
