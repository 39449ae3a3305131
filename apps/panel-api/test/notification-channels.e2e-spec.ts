import { LocalTelegramBotApi, LocalWebhookReceiver, requestJson, verifySha256SignatureHeader, waitFor } from '@shared/testing';
import { BackupService } from '../src/app/backups/backup.service';
import { TELEGRAM_GATEWAY } from '../src/app/telegram/telegram-gateway';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';
import { TelegramSimulator } from './telegram-simulator';

const BOT_TOKEN = '777004:channels-token';
const BOT_CHAT = '6161';
const WEBHOOK_SECRET = 'a-webhook-signing-secret';
const NTFY_TOKEN = 'tk_ntfy_access_token';

describe('notices go to every configured channel (bot, Bark, ServerChan, ntfy, signed webhook), each kind under its switch', () => {
  let panel: RunningPanel;
  let bot: LocalTelegramBotApi;
  let receiver: LocalWebhookReceiver;
  let token: string;
  const telegram = new TelegramSimulator();

  const api = <T = Record<string, unknown>>(path: string, options: { method?: string; body?: unknown; token?: string } = {}) =>
    requestJson<T>(panel.url, path, { method: options.method, body: options.body, token: options.token ?? token });
  const settings = async (patch: Record<string, unknown>) => {
    const response = await api('/api/config/settings', { method: 'PUT', body: patch });
    expect([response.status, response.text]).toEqual([200, expect.any(String)]);
  };
  const paths = { bark: '/bark/device-key', ntfy: '/ntfy/panel-topic', serverChan: '/sc/SCT123key.send', webhook: '/hook' };
  const received = () => ({
    bot: bot.messagesTo(BOT_CHAT).map((message) => message.plainText),
    bark: receiver.requestsTo(paths.bark).map((request) => JSON.parse(request.bodyText) as { title: string; body: string }),
    ntfy: receiver.requestsTo(paths.ntfy),
    serverChan: receiver.requestsTo(paths.serverChan).map((request) => JSON.parse(request.bodyText) as { title: string; desp: string }),
    webhook: receiver.requestsTo(paths.webhook),
  });
  const counts = () => {
    const now = received();
    return [now.bot.length, now.bark.length, now.ntfy.length, now.serverChan.length, now.webhook.length];
  };

  beforeAll(async () => {
    bot = await new LocalTelegramBotApi({ token: BOT_TOKEN, knownChatIds: [BOT_CHAT] }).start();
    receiver = await new LocalWebhookReceiver().start();
    panel = await startPanel({
      env: { APP_BOT_API_BASE_URL: bot.apiBaseUrl, APP_SERVER_CHAN_BASE_URL: receiver.urlFor('/sc') },
      overrides: [{ provide: TELEGRAM_GATEWAY, useValue: telegram }],
    });
    token = await loginAsAdmin(panel);
  });

  afterAll(async () => {
    await panel?.close();
    await bot?.close();
    await receiver?.close();
  });

  it('keeps channel secrets out of the settings answer and the export, and checks every new field', async () => {
    await settings({
      bot_token: BOT_TOKEN,
      bot_chat_id: BOT_CHAT,
      bot_notify_enabled: true,
      push_bark_url: receiver.urlFor(paths.bark),
      push_server_chan_key: 'SCT123key',
      push_ntfy_url: receiver.urlFor(paths.ntfy),
      push_ntfy_token: NTFY_TOKEN,
      webhook_url: receiver.urlFor(paths.webhook),
      webhook_secret: WEBHOOK_SECRET,
    });
    const view = await api<Record<string, unknown>>('/api/config/settings');
    expect(view.body).toMatchObject({
      push_bark_url_set: true,
      push_server_chan_key_set: true,
      push_ntfy_url: receiver.urlFor(paths.ntfy),
      push_ntfy_token_set: true,
      webhook_url: receiver.urlFor(paths.webhook),
      webhook_secret_set: true,
      bot_notify_backup_failure: true,
      push_notify_task_failure: true,
      push_notify_task_success: false,
      push_notify_backup_failure: true,
      push_notify_session_invalid: true,
      push_notify_admin_login: false,
    });
    for (const secret of ['device-key', 'SCT123key', NTFY_TOKEN, WEBHOOK_SECRET]) expect(view.text).not.toContain(secret);
    const exported = await api<{ settings: { global: Record<string, unknown> } }>('/api/config/export/all');
    expect(exported.body.settings.global).toMatchObject({
      push_bark_url: '***MASKED***',
      push_server_chan_key: '***MASKED***',
      push_ntfy_token: '***MASKED***',
      webhook_secret: '***MASKED***',
      push_ntfy_url: receiver.urlFor(paths.ntfy),
      push_notify_admin_login: false,
    });
    for (const [field, value] of [
      ['push_bark_url', 'not a url'],
      ['push_server_chan_key', 'has spaces'],
      ['webhook_secret', 'short'],
      ['push_notify_admin_login', 'yes'],
      ['webhook_url', 'ftp://example.org/'],
    ] as const) {
      const refused = await api<{ message: string }>('/api/config/settings', { method: 'PUT', body: { [field]: value } });
      expect([field, refused.status]).toEqual([field, 400]);
      expect(refused.body.message).toContain(field);
    }
    // A stored secret does not follow its URL to another server.
    const moved = await api<{ message: string }>('/api/config/settings', { method: 'PUT', body: { webhook_url: 'http://127.0.0.2:9/hook' } });
    expect(moved.status).toBe(400);
    expect(moved.body.message).toMatch(/webhook_secret/);
    expect((await api('/api/config/settings', { method: 'PUT', body: { push_bark_url: 'x' }, token: 'nope' })).status).toBe(401);
  });

  it('sends an admin-login notice to every channel while its switches are on, and to none of the push channels once switched off', async () => {
    await settings({ bot_notify_admin_login: true, push_notify_admin_login: true });
    const before = counts();
    await loginAsAdmin(panel);
    await waitFor(() => counts().every((count, index) => count === before[index] + 1));
    const now = received();
    expect(now.bot.at(-1)).toContain('Admin login');
    expect(now.bark.at(-1)?.title).toBe('Admin login');
    expect(now.serverChan.at(-1)?.title).toBe('Admin login');
    const ntfy = now.ntfy.at(-1);
    expect(ntfy?.headers['title']).toBe('Admin login');
    expect(ntfy?.headers['authorization']).toBe(`Bearer ${NTFY_TOKEN}`);
    const hook = now.webhook.at(-1);
    expect(hook && verifySha256SignatureHeader(hook, WEBHOOK_SECRET)).toBe(true);
    expect(JSON.parse(hook?.bodyText ?? '{}')).toMatchObject({ event: 'panel.admin_login', kind: 'admin_login', title: 'Admin login' });

    await settings({ push_notify_admin_login: false });
    const quiet = counts();
    await loginAsAdmin(panel);
    await waitFor(() => counts()[0] === quiet[0] + 1);
    // A later notice to every channel: once it has arrived, the switched-off one had its chance to arrive as well.
    await settings({ push_notify_admin_login: true });
    await loginAsAdmin(panel);
    await waitFor(() => counts().every((count, index) => count >= quiet[index] + (index === 0 ? 2 : 1)));
    expect(counts()).toEqual([quiet[0] + 2, ...quiet.slice(1).map((count) => count + 1)]);
    await settings({ push_notify_admin_login: false });
  });

  it('sends the session-invalid notice to every channel', async () => {
    const before = counts();
    const user = telegram.createUser({ phone: '+31655555501' });
    const session = telegram.issueSession(user.id);
    expect((await api('/api/accounts/import-session', { method: 'POST', body: { account_name: 'lost', session_string: session } })).status).toBe(201);
    telegram.revokeSession(session);
    expect((await api('/api/accounts/lost/devices')).status).toBe(409);
    await waitFor(() => counts().every((count, index) => count === before[index] + 1));
    expect(received().bark.at(-1)?.body).toContain('Account: lost');
  });

  it('sends the backup-failure notice to every channel, each channel kind under its own switch', async () => {
    // Nothing listens on port 1: the upload fails at once.
    await settings({ webdav_url: 'http://127.0.0.1:1/dav/', webdav_password: 'dav-password' });
    const before = counts();
    const run = await panel.app.get(BackupService).runAutomaticBackup(new Date('2024-03-01T00:00:00Z'));
    expect(run).toMatchObject({ ok: false, notified: true });
    await waitFor(() => counts().every((count, index) => count === before[index] + 1));
    expect(received().serverChan.at(-1)?.title).toBe('Automatic backup failed');

    await settings({ bot_notify_backup_failure: false, push_notify_backup_failure: false });
    const quiet = counts();
    const silent = await panel.app.get(BackupService).runAutomaticBackup(new Date('2024-03-02T00:00:00Z'));
    expect(silent).toMatchObject({ ok: false, notified: false });
    expect(counts()).toEqual(quiet);
  });
});
