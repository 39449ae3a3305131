import { LocalTelegramBotApi, LocalWebhookReceiver, requestJson, verifySha256SignatureHeader } from '@shared/testing';
import { createServer } from 'node:net';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';

const BOT_TOKEN = '777005:channel-tests-token';
const BOT_CHAT = '7171';
const WEBHOOK_SECRET = 'a-webhook-signing-secret';

interface ChannelTest {
  channel: string;
  tested_at: string;
  ok: boolean;
  error_code: string | null;
  status: number | null;
  detail: string | null;
}

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('every notification channel can be tested from its card, and its last result is kept', () => {
  let panel: RunningPanel & { databaseUrl?: string };
  /** The first instance owns the data directory and database (a restarted one reuses them). */
  let first: RunningPanel | undefined;
  let bot: LocalTelegramBotApi;
  let receiver: LocalWebhookReceiver;
  let token: string;
  const paths = { bark: '/bark/device-key', ntfy: '/ntfy/panel-topic', serverChan: '/sc/SCT123key.send', webhook: '/hook' };

  const api = <T = Record<string, unknown>>(path: string, options: { method?: string; body?: unknown; token?: string } = {}) =>
    requestJson<T>(panel.url, path, { method: options.method, body: options.body, token: options.token ?? token });
  const test = (channel: string) => api<ChannelTest & { code?: string; message?: string }>(`/api/config/notifications/${channel}/test`, { method: 'POST' });

  beforeAll(async () => {
    bot = await new LocalTelegramBotApi({ token: BOT_TOKEN, knownChatIds: [BOT_CHAT] }).start();
    receiver = await new LocalWebhookReceiver().start();
    panel = await startPanel({ env: { APP_BOT_API_BASE_URL: bot.apiBaseUrl, APP_SERVER_CHAN_BASE_URL: receiver.urlFor('/sc') } });
    first = panel;
    token = await loginAsAdmin(panel);
  });

  afterAll(async () => {
    await panel?.stop();
    await first?.close();
    await bot?.close();
    await receiver?.close();
  });

  it('answers 401 without a token and 400 for an unknown or an unconfigured channel', async () => {
    expect((await requestJson(panel.url, '/api/config/notifications/tests')).status).toBe(401);
    expect((await requestJson(panel.url, '/api/config/notifications/bark/test', { method: 'POST' })).status).toBe(401);
    const unknown = await test('pigeon');
    expect([unknown.status, unknown.body.code]).toEqual([400, 'validation_failed']);
    const unconfigured = await test('bark');
    expect([unconfigured.status, unconfigured.body.code]).toEqual([400, 'channel_not_configured']);
    expect(unconfigured.body.message).toBe('Set up the Bark URL in the settings and save before testing it');
    expect((await api<{ tests: ChannelTest[] }>('/api/config/notifications/tests')).body).toEqual({ tests: [] });
  });

  it('sends a test through each of the five channels, whatever the notice switches say', async () => {
    const saved = await api('/api/config/settings', {
      method: 'PUT',
      body: {
        bot_token: BOT_TOKEN,
        bot_chat_id: BOT_CHAT,
        bot_notify_enabled: false,
        push_bark_url: receiver.urlFor(paths.bark),
        push_server_chan_key: 'SCT123key',
        push_ntfy_url: receiver.urlFor(paths.ntfy),
        webhook_url: receiver.urlFor(paths.webhook),
        webhook_secret: WEBHOOK_SECRET,
      },
    });
    expect(saved.status).toBe(200);
    for (const channel of ['bot', 'bark', 'server_chan', 'ntfy', 'custom_webhook']) {
      const result = await test(channel);
      expect({ channel, status: result.status, body: result.body }).toEqual({
        channel,
        status: 200,
        body: { channel, ok: true, tested_at: expect.any(String), error_code: null, status: 200, detail: null },
      });
    }
    expect(bot.messagesTo(BOT_CHAT).at(-1)?.plainText).toContain('Test notification');
    expect(receiver.requestsTo(paths.bark)).toHaveLength(1);
    expect(receiver.requestsTo(paths.serverChan)).toHaveLength(1);
    expect(receiver.requestsTo(paths.ntfy)).toHaveLength(1);
    const hook = receiver.requestsTo(paths.webhook)[0];
    expect(hook && verifySha256SignatureHeader(hook, WEBHOOK_SECRET)).toBe(true);
    expect(JSON.parse(hook?.bodyText ?? '{}')).toMatchObject({ event: 'panel.test', title: 'Test notification' });
  });

  it('keeps a failure with a code the web app explains, and the receiver\'s own words, never an errno', async () => {
    receiver.replyNext({ status: 403, body: 'topic is reserved' });
    const refused = await test('ntfy');
    expect(refused.body).toMatchObject({ channel: 'ntfy', ok: false, error_code: 'http_error', status: 403 });
    expect(refused.body.detail).toContain('topic is reserved');

    await api('/api/config/settings', { method: 'PUT', body: { push_bark_url: `http://127.0.0.1:${await closedPort()}/bark/key` } });
    const unreachable = await test('bark');
    expect(unreachable.body).toMatchObject({ channel: 'bark', ok: false, error_code: 'network_error', status: null, detail: null });

    await api('/api/config/settings', { method: 'PUT', body: { bot_chat_id: '999' } });
    const bot = await test('bot');
    expect(bot.body).toMatchObject({ channel: 'bot', ok: false, status: 400, detail: expect.stringContaining('chat not found') });
    // The older endpoint of the bot's test keeps its result the same way.
    const viaOld = await api<{ ok: boolean }>('/api/config/bot/test', { method: 'POST' });
    expect(viaOld.body.ok).toBe(false);

    const last = await api<{ tests: ChannelTest[] }>('/api/config/notifications/tests');
    expect(last.body.tests.map((row) => [row.channel, row.ok, row.error_code])).toEqual([
      ['bot', false, 'http_error'],
      ['bark', false, 'network_error'],
      ['server_chan', true, null],
      ['ntfy', false, 'http_error'],
      ['custom_webhook', true, null],
    ]);
    expect(JSON.stringify(last.body)).not.toMatch(/ECONN|ENOTFOUND|127\.0\.0\.1/);
  });

  it('still shows the last results after a restart', async () => {
    await panel.stop();
    panel = await startPanel({
      reuse: { dataDir: panel.dataDir, databaseUrl: panel.databaseUrl },
      env: { APP_BOT_API_BASE_URL: bot.apiBaseUrl, APP_SERVER_CHAN_BASE_URL: receiver.urlFor('/sc') },
    });
    token = await loginAsAdmin(panel);
    const last = await api<{ tests: ChannelTest[] }>('/api/config/notifications/tests');
    expect(last.body.tests.map((row) => row.channel)).toEqual(['bot', 'bark', 'server_chan', 'ntfy', 'custom_webhook']);
  });
});
