import { requestJson } from '@shared/testing';
import { TelegramError } from '../src/app/telegram/telegram-error';
import { TELEGRAM_GATEWAY } from '../src/app/telegram/telegram-gateway';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';
import { SimUser, TelegramSimulator } from './telegram-simulator';

interface ChatList {
  account_name: string;
  chats: Array<{ id: string; title: string; kind: string; username?: string }>;
  truncated: boolean;
}

describe("panel-api an account's chats for the task editor's picker (simulated Telegram)", () => {
  let panel: RunningPanel;
  let token: string;
  const telegram = new TelegramSimulator();
  let alice: SimUser;

  const api = <T = Record<string, unknown>>(path: string, options: { token?: string | null } = {}) =>
    requestJson<T>(panel.url, path, { token: options.token === null ? undefined : (options.token ?? token) });

  beforeAll(async () => {
    panel = await startPanel({ env: { MSGR_SESSION_MODE: 'string' }, overrides: [{ provide: TELEGRAM_GATEWAY, useValue: telegram }] });
    token = await loginAsAdmin(panel);
    alice = telegram.createUser({ phone: '+31 600 000 101', firstName: 'Alice' });
    const imported = await requestJson(panel.url, '/api/accounts/import-session', {
      method: 'POST',
      token,
      body: { account_name: 'alice', session_string: telegram.issueSession(alice.id) },
    });
    expect(imported.status).toBe(201);
    const bot = telegram.addBot({ username: 'CheckinBot', title: 'Check-in bot', onMessage: () => ({ text: 'ok' }) });
    telegram.addGroup({ id: '-1001000000001', title: 'Daily check-in group', username: 'daily_checkin' });
    telegram.addGroup({ id: '-1001000000002', title: 'News', type: 'channel' });
    telegram.addGroup({ id: '-1001000000003', title: 'Topics forum', forum: true });
    telegram.addGroup({ id: '-1001000000004', title: 'Not joined' });
    telegram.joinChat(alice.id, '-1001000000002');
    telegram.joinChat(alice.id, '-1001000000003');
    telegram.pushIncoming(alice.id, '-1001000000001', { text: 'good morning' });
    telegram.pushIncoming(alice.id, bot.id, { text: 'Welcome', senderId: bot.id });
  });

  afterAll(async () => {
    await panel?.close();
  });

  it('refuses without a token and answers 400 on a bad query, without calling Telegram', async () => {
    expect((await api('/api/accounts/alice/chats', { token: null })).status).toBe(401);
    const before = telegram.callsOf('getDialogs').length;
    for (const query of ['limit=0', 'limit=101', 'limit=abc', `q=${'x'.repeat(65)}`, 'other=1']) {
      const response = await api<{ code: string }>(`/api/accounts/alice/chats?${query}`);
      expect({ query, status: response.status, code: response.body.code }).toEqual({ query, status: 400, code: 'validation_failed' });
    }
    expect((await api('/api/accounts/bad%20name/chats')).status).toBe(400);
    const missing = await api<{ code: string }>('/api/accounts/nobody/chats');
    expect([missing.status, missing.body.code]).toEqual([404, 'account_not_found']);
    expect(telegram.callsOf('getDialogs').length).toBe(before);
  });

  it('lists the dialogs the account has, newest first, with their kind', async () => {
    const response = await api<ChatList>('/api/accounts/alice/chats');
    expect(response.status).toBe(200);
    expect(response.body.account_name).toBe('alice');
    expect(response.body.truncated).toBe(false);
    expect(response.body.chats).toEqual([
      { id: expect.any(String), title: 'Check-in bot', kind: 'user', username: 'CheckinBot' },
      { id: '-1001000000001', title: 'Daily check-in group', kind: 'group', username: 'daily_checkin' },
      { id: '-1001000000003', title: 'Topics forum', kind: 'forum' },
      { id: '-1001000000002', title: 'News', kind: 'channel' },
    ]);
    // Read-only: nothing sent.
    expect(telegram.callsOf('sendMessage', 'alice')).toHaveLength(0);
  });

  it('filters by title or username, case-insensitive, and bounds the answer', async () => {
    const search = await api<ChatList>('/api/accounts/alice/chats?q=CHECK-IN');
    expect(search.body.chats.map((chat) => chat.title)).toEqual(['Check-in bot', 'Daily check-in group']);
    const byUsername = await api<ChatList>('/api/accounts/alice/chats?q=@daily_');
    expect(byUsername.body.chats.map((chat) => chat.id)).toEqual(['-1001000000001']);
    const none = await api<ChatList>('/api/accounts/alice/chats?q=nothing-like-this');
    expect(none.body).toEqual({ account_name: 'alice', chats: [], truncated: false });
    const bounded = await api<ChatList>('/api/accounts/alice/chats?limit=2');
    expect(bounded.body.chats).toHaveLength(2);
    expect(bounded.body.truncated).toBe(true);
  });

  it('bounds the Telegram call and maps its failures to 429/502/504, never 500', async () => {
    telegram.floodWaitNext(20, { accountName: 'alice', method: 'getDialogs' });
    const flood = await api('/api/accounts/alice/chats');
    expect(flood.status).toBe(429);
    telegram.setUnreachable('alice');
    expect((await api('/api/accounts/alice/chats')).status).toBe(502);
    telegram.setUnreachable('alice', false);
    telegram.setHanging('alice');
    const started = Date.now();
    const hung = await api<{ code: string }>('/api/accounts/alice/chats');
    telegram.setHanging('alice', false);
    expect(hung.status).toBe(504);
    expect(Date.now() - started).toBeLessThan(15_000);
    telegram.failNext(() => TelegramError.sessionInvalid('SESSION_REVOKED'), { accountName: 'alice', method: 'getDialogs' });
    const revoked = await api<{ code: string }>('/api/accounts/alice/chats');
    expect([revoked.status, revoked.body.code]).toEqual([409, 'needs_relogin']);
  });
});
