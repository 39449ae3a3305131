import { LocalTelegramBotApi, LocalWebhookReceiver, requestJson, waitFor } from '@shared/testing';
import { KeywordListenersService } from '../src/app/listeners/keyword-listeners.service';
import { shardOf } from '../src/app/cluster/account-scope';
import { TELEGRAM_GATEWAY } from '../src/app/telegram/telegram-gateway';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';
import { SimUser, TelegramSimulator } from './telegram-simulator';

const DEALS = '-100111';
const FORUM = '-100222';
const INBOX = '-100333';
const BOT_CHAT = '777001';

interface Hit {
  id: number;
  task_name: string;
  chat_id: string;
  chat_title: string | null;
  message_id: number;
  sender_username: string | null;
  text: string;
  matched_keyword: string;
  push_channel: string;
  push_status: string;
  push_error: string | null;
  url: string | null;
}

interface ListenerStatusBody {
  components: Record<string, { state: string; details?: { accounts: Record<string, { state: string; reason?: string; tasks: string[]; rules: number }> } }>;
}

/**
 * A simulated Telegram message flow through real listen tasks: hits are recorded, then pushed to a
 * local Bot API, a webhook receiver (Bark, ServerChan, custom GET and POST), forwarded to a chat,
 * or followed up (deep link + text); a restart catches up from the watermark without replaying.
 */
describe('keyword listeners', () => {
  const telegram = new TelegramSimulator();
  const bot = new LocalTelegramBotApi();
  const receiver = new LocalWebhookReceiver();
  let panel: RunningPanel & { databaseUrl?: string };
  let token: string;
  let alice: SimUser;
  let giftBot: { id: string; username: string };

  const call = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
    requestJson<T>(panel.url, path, { method, token, ...(body === undefined ? {} : { body }) });
  const hits = async (query = ''): Promise<Hit[]> => (await call<{ items: Hit[] }>('GET', `/api/keyword-hits?limit=500${query}`)).body.items;
  const listenerState = async (account: string) =>
    (await call<ListenerStatusBody>('GET', '/api/ops/runtime-status')).body.components['keyword_listeners']?.details?.accounts[account];
  const settled = () => panel.app.get(KeywordListenersService).settled();
  const say = (chatId: string, text: string, extra: { senderUsername?: string; threadId?: number } = {}) =>
    telegram.pushIncoming(alice.id, chatId, { text, senderName: extra.senderUsername ?? 'Someone', senderUsername: extra.senderUsername ?? 'someone', threadId: extra.threadId });

  async function boot(reuse?: { dataDir: string; databaseUrl?: string }): Promise<void> {
    panel = await startPanel({
      reuse,
      env: { APP_BOT_API_BASE_URL: bot.apiBaseUrl, APP_SERVER_CHAN_BASE_URL: receiver.urlFor('/sc') },
      overrides: [{ provide: TELEGRAM_GATEWAY, useValue: telegram }],
    });
    token = await loginAsAdmin(panel);
  }

  beforeAll(async () => {
    await bot.start();
    await receiver.start();
    alice = telegram.createUser({ phone: '+31600000101', firstName: 'Alice', username: 'alice' });
    telegram.addGroup({ id: DEALS, title: 'Deals' });
    telegram.addGroup({ id: FORUM, title: 'Forum', forum: true });
    telegram.addGroup({ id: INBOX, title: 'Inbox' });
    giftBot = telegram.addBot({ username: 'GiftBot', onMessage: (text) => ({ text: `Welcome ${text.replace('/start ', '')}` }) });
    // History before the listener starts is never treated as new.
    say(DEALS, 'old gift from before');
    await boot();
    const saved = await call('PUT', '/api/config/settings', { bot_token: bot.token, bot_chat_id: BOT_CHAT });
    expect(saved.status).toBe(200);
    const imported = await call('POST', '/api/accounts/import-session', { account_name: 'alice', session_string: telegram.issueSession(alice.id) });
    expect(imported.status).toBe(201);
    const tasks = [
      {
        name: 'deals',
        account_name: 'alice',
        execution_mode: 'listen',
        chats: [
          {
            chat_id: Number(DEALS),
            name: 'Deals',
            actions: [
              { action: 8, keywords: ['gift', 'coupon'], push_channel: 'telegram' },
              { action: 8, keywords: ['code:\\s*(\\w+)'], match_mode: 'regex', push_channel: 'custom', custom_url: receiver.urlFor('/custom-post') },
              { action: 8, keywords: ['red', 'packet'], match_mode: 'all', push_channel: 'bark', bark_url: receiver.urlFor('/bark/device-key') },
              { action: 8, keywords: ['alert'], push_channel: 'server_chan', server_chan_key: 'SCT123abc' },
              { action: 8, keywords: ['lookup'], push_channel: 'custom', custom_url: `${receiver.urlFor('/custom-get')}?kw={keyword}&from={sender}&chat={chat_title}` },
              { action: 8, keywords: ['broken'], push_channel: 'custom', custom_url: 'http://127.0.0.1:9/unreachable' },
            ],
          },
        ],
      },
      {
        name: 'forum-watch',
        account_name: 'alice',
        execution_mode: 'listen',
        chats: [
          {
            chat_id: Number(FORUM),
            message_thread_id: 7,
            actions: [
              { action: 8, keywords: ['ping'], match_mode: 'exact', sender_filter: '@bob', push_channel: 'forward', forward_chat_id: Number(INBOX), forward_message_thread_id: 3 },
            ],
          },
        ],
      },
      {
        name: 'invites',
        account_name: 'alice',
        execution_mode: 'listen',
        chats: [
          {
            chat_id: Number(DEALS),
            actions: [
              {
                action: 8,
                keywords: ['invite'],
                push_channel: 'continue',
                continue_chat_id: Number(INBOX),
                continue_actions: [{ action: 9 }, { action: 1, text: 'seen {keyword} from {sender} in {chat_title}' }],
              },
            ],
          },
        ],
      },
    ];
    for (const task of tasks) {
      const created = await call('POST', '/api/sign-tasks', task);
      expect([created.status, created.text]).toEqual([201, expect.any(String)]);
    }
    await waitFor(async () => (await listenerState('alice'))?.state === 'listening');
  });

  afterAll(async () => {
    await panel?.close();
    await bot.close();
    await receiver.close();
  });

  it('shows the listener with its tasks in the runtime status', async () => {
    const state = await listenerState('alice');
    expect(state).toEqual(expect.objectContaining({ state: 'listening', tasks: ['deals', 'forum-watch', 'invites'], rules: 8 }));
    expect(telegram.subscriberCount(alice.id)).toBe(1);
  });

  it('records a contains hit and pushes it to the bot; history from before the start is not a hit', async () => {
    say(DEALS, 'Free GIFT for everyone');
    await waitFor(async () => (await hits('&task=deals&q=everyone')).length === 1);
    await settled();
    const [hit] = await hits('&q=GIFT');
    expect(hit).toEqual(expect.objectContaining({ task_name: 'deals', chat_id: DEALS, chat_title: 'Deals', matched_keyword: 'gift', push_channel: 'telegram', push_status: 'sent' }));
    expect(hit.url).toBe(`https://t.me/c/111/${hit.message_id}`);
    expect((await hits('&q=gift')).map((h) => h.text)).toEqual(['Free GIFT for everyone']);
    const pushed = bot.messagesTo(BOT_CHAT);
    expect(pushed).toHaveLength(1);
    expect(pushed[0].plainText).toContain('Keyword hit: gift');
    expect(pushed[0].plainText).toContain('Free GIFT for everyone');
  });

  it('pushes regex hits as JSON, all-keyword hits to Bark, ServerChan, and custom GET templates', async () => {
    say(DEALS, 'promo code: XYZ42 today');
    say(DEALS, 'a red envelope');
    say(DEALS, 'red packet drop!');
    say(DEALS, 'server alert');
    say(DEALS, 'lookup this & that');
    await waitFor(async () => (await hits('&task=deals')).length === 5);
    await settled();
    const post = receiver.requestsTo('/custom-post');
    expect(post).toHaveLength(1);
    expect(JSON.parse(post[0].bodyText)).toEqual(expect.objectContaining({ keyword: 'XYZ42', text: 'promo code: XYZ42 today', task_name: 'deals', account_name: 'alice', chat_id: DEALS }));
    const bark = receiver.requestsTo('/bark/device-key');
    expect(bark).toHaveLength(1);
    expect(JSON.parse(bark[0].bodyText)).toEqual(expect.objectContaining({ title: 'Keyword hit: red, packet' }));
    const serverChan = receiver.requestsTo('/sc/SCT123abc.send');
    expect(serverChan).toHaveLength(1);
    expect(JSON.parse(serverChan[0].bodyText)).toEqual(expect.objectContaining({ title: 'Keyword hit: alert' }));
    const get = receiver.requestsTo('/custom-get');
    expect(get).toHaveLength(1);
    expect(get[0].method).toBe('GET');
    expect(Object.fromEntries(get[0].query)).toEqual({ kw: 'lookup', from: '@someone', chat: 'Deals' });
    expect((await hits('&task=deals')).every((h) => h.push_status === 'sent')).toBe(true);
  });

  it('keeps a hit whose push fails, with the reason', async () => {
    say(DEALS, 'this is broken');
    await waitFor(async () => (await hits('&q=broken'))[0]?.push_status === 'failed');
    const [hit] = await hits('&q=broken');
    expect(hit.push_error).toMatch(/^custom_webhook: network error/);
  });

  it('forwards exact matches of the filtered sender in the forum topic only', async () => {
    say(FORUM, 'ping', { senderUsername: 'carol', threadId: 7 });
    say(FORUM, 'ping', { senderUsername: 'bob', threadId: 8 });
    say(FORUM, 'ping now', { senderUsername: 'bob', threadId: 7 });
    say(FORUM, ' PING ', { senderUsername: 'Bob', threadId: 7 });
    await waitFor(async () => (await hits('&task=forum-watch')).length === 1);
    await settled();
    const [hit] = await hits('&task=forum-watch');
    expect(hit).toEqual(expect.objectContaining({ text: ' PING ', sender_username: 'Bob', push_status: 'sent' }));
    const forwarded = telegram.history(alice.id, INBOX).filter((m) => m.out);
    expect(forwarded).toHaveLength(1);
    expect(forwarded[0].threadId).toBe(3);
    expect(forwarded[0].text).toContain('Task: forum-watch');
  });

  it('runs continue follow-ups: follows the bot deep link and sends the templated text', async () => {
    say(DEALS, 'your invite: https://t.me/GiftBot?start=abc_123', { senderUsername: 'dave' });
    await waitFor(async () => (await hits('&task=invites'))[0]?.push_status === 'sent', 20_000);
    expect(telegram.history(alice.id, giftBot.id).map((m) => m.text)).toEqual(['Welcome abc_123', '/start abc_123']);
    expect(telegram.history(alice.id, INBOX).map((m) => m.text)).toContain('seen invite from @dave in Deals');
  });

  it('restarts without replaying and catches up on what arrived while it was down (watermark)', async () => {
    const before = await hits();
    const botMessages = bot.messagesTo(BOT_CHAT).length;
    const { dataDir, databaseUrl } = panel;
    await panel.stop();
    say(DEALS, 'missed gift one');
    say(DEALS, 'missed coupon two');
    await boot({ dataDir, databaseUrl });
    await waitFor(async () => (await listenerState('alice'))?.state === 'listening');
    await waitFor(async () => (await hits()).length === before.length + 2);
    await settled();
    const after = await hits();
    expect(after.slice(0, 2).map((h) => h.text)).toEqual(['missed coupon two', 'missed gift one']);
    // Every earlier hit is still there exactly once, and only the two new ones were pushed.
    expect(after.slice(2).map((h) => h.id)).toEqual(before.map((h) => h.id));
    expect(bot.messagesTo(BOT_CHAT).length).toBe(botMessages + 2);
  });

  it('restarts the listeners when tasks change and after a configuration import', async () => {
    expect((await call('POST', '/api/sign-tasks/forum-watch/disable')).status).toBe(200);
    await waitFor(async () => !(await listenerState('alice'))?.tasks.includes('forum-watch'));
    expect((await listenerState('alice'))?.rules).toBe(7);
    const exported = await call<Record<string, unknown>>('GET', '/api/config/export/all');
    const subscribes = telegram.callsOf('subscribe', 'alice').length;
    const imported = await call('POST', '/api/config/import/all', { config_json: JSON.stringify(exported.body), overwrite: true });
    expect(imported.status).toBe(200);
    await waitFor(() => telegram.callsOf('subscribe', 'alice').length > subscribes);
    await waitFor(async () => (await listenerState('alice'))?.state === 'listening');
    expect(telegram.subscriberCount(alice.id)).toBe(1);
  });

  it('stops listening when the session is revoked and reports needs_relogin', async () => {
    const other = telegram.createUser({ phone: '+31600000102', firstName: 'Eve' });
    const session = telegram.issueSession(other.id);
    expect((await call('POST', '/api/accounts/import-session', { account_name: 'eve', session_string: session })).status).toBe(201);
    telegram.revokeSession(session);
    const created = await call('POST', '/api/sign-tasks', { name: 'eve-watch', account_name: 'eve', execution_mode: 'listen', chats: [{ chat_id: Number(DEALS), actions: [{ action: 8, keywords: ['x'] }] }] });
    expect(created.status).toBe(201);
    await waitFor(async () => ['waiting_for_login', 'needs_relogin'].includes((await listenerState('eve'))?.state ?? ''));
    await waitFor(async () => (await listenerState('eve'))?.reason === 'needs_relogin');
  });
});

describe('keyword listener scope', () => {
  it.each([
    [{ APP_MONITOR_ACCOUNT_ALLOWLIST: 'somebody-else' }, 'not_in_allowlist'],
    [{ APP_MONITOR_SHARD: `${1 - shardOf('frank', 2)}/2` }, 'other_shard'],
  ])('%j keeps other accounts from listening', async (env, reason) => {
    const telegram = new TelegramSimulator();
    const user = telegram.createUser({ phone: '+31600000201' });
    const panel = await startPanel({ env, overrides: [{ provide: TELEGRAM_GATEWAY, useValue: telegram }] });
    try {
      const token = await loginAsAdmin(panel);
      const call = (method: string, path: string, body?: unknown) => requestJson<ListenerStatusBody>(panel.url, path, { method, token, body });
      expect((await call('POST', '/api/accounts/import-session', { account_name: 'frank', session_string: telegram.issueSession(user.id) })).status).toBe(201);
      expect((await call('POST', '/api/sign-tasks', { name: 'w', account_name: 'frank', execution_mode: 'listen', chats: [{ chat_id: -1009, actions: [{ action: 8, keywords: ['x'] }] }] })).status).toBe(201);
      await waitFor(async () => (await call('GET', '/api/ops/runtime-status')).body.components['keyword_listeners']?.details?.accounts['frank'] !== undefined);
      const state = (await call('GET', '/api/ops/runtime-status')).body.components['keyword_listeners']?.details?.accounts['frank'];
      expect(state).toEqual(expect.objectContaining({ state: 'excluded', reason }));
      expect(telegram.callsOf('subscribe')).toHaveLength(0);
    } finally {
      await panel.close();
    }
  });
});
