import { LocalTelegramBotApi, requestJson } from '@shared/testing';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { RuntimeStatusRegistry } from '../src/app/ops/runtime-status.registry';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';

const BOT_TOKEN = '777002:ops-test-token';
const BOT_CHAT = '4242';

async function startReleaseFeed(): Promise<{ server: Server; url: string; hits: () => number; answer: (status: number, body: unknown) => void }> {
  let hits = 0;
  let reply: { status: number; body: unknown } = { status: 200, body: { tag_name: 'v99.0.0', html_url: 'https://example.test/releases/v99.0.0', published_at: '2024-05-01T00:00:00Z' } };
  const server = createServer((_request, response) => {
    hits += 1;
    response.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/repos/x/y/releases/latest`,
    hits: () => hits,
    answer: (status, body) => {
      reply = { status, body };
    },
  };
}

describe('operations, version and bot test', () => {
  let panel: RunningPanel;
  let feed: Awaited<ReturnType<typeof startReleaseFeed>>;
  let bot: LocalTelegramBotApi;
  let token: string;

  beforeAll(async () => {
    feed = await startReleaseFeed();
    bot = await new LocalTelegramBotApi({ token: BOT_TOKEN, knownChatIds: [BOT_CHAT] }).start();
    panel = await startPanel({
      env: {
        APP_VERSION: '1.4.0',
        GIT_SHA: 'abc1234',
        GIT_BRANCH: 'main',
        BUILD_TIME: '2024-04-01T12:00:00Z',
        APP_UPDATE_CHECK_URL: feed.url,
        APP_BOT_API_BASE_URL: bot.apiBaseUrl,
      },
    });
    token = await loginAsAdmin(panel);
  });

  afterAll(async () => {
    await panel?.close();
    await new Promise((resolve) => feed?.server.close(resolve));
    await bot?.close();
  });

  it('answers 401 without a token on every ops and bot route', async () => {
    for (const [method, path] of [
      ['GET', '/api/ops/version'],
      ['POST', '/api/ops/version/check'],
      ['GET', '/api/ops/memory'],
      ['GET', '/api/ops/runtime-status'],
      ['POST', '/api/config/bot/test'],
    ]) {
      expect({ path, status: (await requestJson(panel.url, path, { method })).status }).toEqual({ path, status: 401 });
    }
    expect(feed.hits()).toBe(0);
  });

  it('reports version, build metadata and the Node version', async () => {
    const response = await requestJson(panel.url, '/api/ops/version', { token });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      version: '1.4.0',
      git_sha: 'abc1234',
      git_branch: 'main',
      build_time: '2024-04-01T12:00:00Z',
      runtime: 'node',
      node_version: process.version,
    });
  });

  it('checks the release feed, caches the answer, asks again with force=true, and fails softly', async () => {
    const first = await requestJson(panel.url, '/api/ops/version/check', { method: 'POST', token });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ enabled: true, ok: true, current_version: '1.4.0', latest_version: '99.0.0', update_available: true, cached: false });
    const cached = await requestJson(panel.url, '/api/ops/version/check?force=false', { method: 'POST', token });
    expect(cached.body).toMatchObject({ cached: true, latest_version: '99.0.0' });
    expect(feed.hits()).toBe(1);

    feed.answer(503, { message: 'unavailable' });
    const failed = await requestJson(panel.url, '/api/ops/version/check?force=true', { method: 'POST', token });
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ ok: false, reason: expect.stringContaining('HTTP 503') });
    expect(feed.hits()).toBe(2);

    expect((await requestJson(panel.url, '/api/ops/version/check?force=maybe', { method: 'POST', token })).status).toBe(400);
  });

  it('shows memory figures from the running monitor and the runtime status of registered parts', async () => {
    const memory = await requestJson<{ running: boolean; current: { rss_bytes: number; heap_used_bytes: number }; samples: unknown[] }>(
      panel.url,
      '/api/ops/memory',
      { token },
    );
    expect(memory.status).toBe(200);
    expect(memory.body.running).toBe(true);
    expect(memory.body.current.rss_bytes).toBeGreaterThan(memory.body.current.heap_used_bytes);
    expect(memory.body.samples.length).toBeGreaterThanOrEqual(1);

    panel.app.get(RuntimeStatusRegistry).register('listeners', () => ({ state: 'stopped', details: { reason: 'no listen tasks' } }));
    const runtime = await requestJson<{ components: Record<string, { state: string }>; database_driver: string }>(panel.url, '/api/ops/runtime-status', { token });
    expect(runtime.status).toBe(200);
    expect(runtime.body.database_driver).toBe(panel.config.database.driver);
    expect(runtime.body.components['memory_monitor'].state).toBe('running');
    expect(runtime.body.components['auto_backup'].state).toBe('disabled');
    expect(runtime.body.components['listeners']).toEqual({ state: 'stopped', details: { reason: 'no listen tasks' } });
  });

  it('sends a bot test message with the saved settings and reports the Bot API answer', async () => {
    const unsaved = await requestJson<{ message: string }>(panel.url, '/api/config/bot/test', { method: 'POST', token });
    expect(unsaved.status).toBe(400);
    expect(unsaved.body.message).toBe('Save the bot token and the chat id in the settings first');

    await requestJson(panel.url, '/api/config/settings', { method: 'PUT', token, body: { bot_token: BOT_TOKEN, bot_chat_id: BOT_CHAT } });
    const sent = await requestJson<{ ok: boolean; message_ids: number[]; chat_id: string }>(panel.url, '/api/config/bot/test', { method: 'POST', token });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ ok: true, chat_id: BOT_CHAT, status: 200 });
    expect(sent.body.message_ids).toHaveLength(1);
    expect(bot.messagesTo(BOT_CHAT)[0]).toMatchObject({ parseMode: 'HTML', plainText: expect.stringContaining('Test notification') });

    await requestJson(panel.url, '/api/config/settings', { method: 'PUT', token, body: { bot_chat_id: '999' } });
    const refused = await requestJson(panel.url, '/api/config/bot/test', { method: 'POST', token });
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ ok: false, status: 400, telegram_error_code: 400, description: expect.stringContaining('chat not found') });
  });
});

describe('update check switched off', () => {
  it('does not contact the feed when APP_UPDATE_CHECK=0', async () => {
    const feed = await startReleaseFeed();
    const panel = await startPanel({ env: { APP_UPDATE_CHECK: '0', APP_UPDATE_CHECK_URL: feed.url } });
    try {
      const token = await loginAsAdmin(panel);
      const response = await requestJson(panel.url, '/api/ops/version/check?force=true', { method: 'POST', token });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ enabled: false, ok: false });
      expect(feed.hits()).toBe(0);
    } finally {
      await panel.close();
      await new Promise((resolve) => feed.server.close(resolve));
    }
  });
});

