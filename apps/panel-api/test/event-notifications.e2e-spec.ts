import { LocalTelegramBotApi, requestJson, waitFor } from '@shared/testing';
import { TELEGRAM_GATEWAY } from '../src/app/telegram/telegram-gateway';
import { loginAsAdmin, RunningPanel, startPanel, TEST_ADMIN_PASSWORD } from './harness';
import { TelegramSimulator } from './telegram-simulator';

const BOT_TOKEN = '777003:event-notify-token';
const BOT_CHAT = '5151';

describe('bot notifications for invalid sessions and admin logins', () => {
  let panel: RunningPanel;
  let bot: LocalTelegramBotApi;
  let token: string;
  const telegram = new TelegramSimulator();
  let phone = 31644444400;

  const api = <T = Record<string, unknown>>(path: string, options: { method?: string; body?: unknown } = {}) =>
    requestJson<T>(panel.url, path, { method: options.method, body: options.body, token });
  const settings = async (patch: Record<string, unknown>) => expect((await api('/api/config/settings', { method: 'PUT', body: patch })).status).toBe(200);
  const texts = () => bot.messagesTo(BOT_CHAT).map((message) => message.plainText);
  const nextMessage = async (count: number) => {
    await waitFor(() => texts().length >= count);
    return texts()[count - 1];
  };

  /** Imports an account, revokes its session at "Telegram", and lets the panel find out on its next call. */
  const invalidateNewAccount = async (name: string) => {
    const user = telegram.createUser({ phone: `+${(phone += 1)}` });
    const session = telegram.issueSession(user.id);
    expect((await api('/api/accounts/import-session', { method: 'POST', body: { account_name: name, session_string: session } })).status).toBe(201);
    telegram.revokeSession(session);
    expect((await api(`/api/accounts/${name}/devices`)).status).toBe(409);
  };

  beforeAll(async () => {
    bot = await new LocalTelegramBotApi({ token: BOT_TOKEN, knownChatIds: [BOT_CHAT] }).start();
    panel = await startPanel({ env: { APP_BOT_API_BASE_URL: bot.apiBaseUrl }, overrides: [{ provide: TELEGRAM_GATEWAY, useValue: telegram }] });
    token = await loginAsAdmin(panel);
    await settings({ bot_token: BOT_TOKEN, bot_chat_id: BOT_CHAT, bot_notify_enabled: true, timezone: 'Europe/Berlin' });
  });

  afterAll(async () => {
    await panel?.close();
    await bot?.close();
  });

  it('reports a newly invalid session once (switch on by default) and says nothing when its switch is off', async () => {
    expect((await api<Record<string, unknown>>('/api/config/settings')).body).toMatchObject({ bot_notify_session_invalid: true, bot_notify_admin_login: false });
    await invalidateNewAccount('alice');
    const message = await nextMessage(1);
    expect(message).toContain('Telegram session invalid');
    expect(message).toContain('Account: alice');
    expect(message).toMatch(/Time: \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} Europe\/Berlin/);

    // Found invalid again by a status check: already flagged, so no second message.
    const check = await api<{ abnormal: number }>('/api/accounts/status/check', { method: 'POST', body: { account_names: ['alice'] } });
    expect(check.status).toBe(200);

    await settings({ bot_notify_session_invalid: false });
    await invalidateNewAccount('bob');
    // A message that is sent proves the earlier ones had their chance to arrive.
    await settings({ bot_notify_session_invalid: true });
    await invalidateNewAccount('carol');
    expect(await nextMessage(2)).toContain('Account: carol');
    expect(texts()).toHaveLength(2);
    expect(texts().join('\n')).not.toContain('bob');
  });

  it('reports an admin login with client IP and time, never the password, only with its switch and the master switch on', async () => {
    const before = texts().length;
    await loginAsAdmin(panel); // bot_notify_admin_login is off by default
    await settings({ bot_notify_admin_login: true, bot_notify_enabled: false });
    await loginAsAdmin(panel); // master switch off
    await settings({ bot_notify_enabled: true });
    await loginAsAdmin(panel);
    const message = await nextMessage(before + 1);
    expect(message).toContain('Admin login');
    expect(message).toContain('User: admin');
    expect(message).toContain('Client IP: 127.0.0.1');
    expect(message).toMatch(/Time: \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} Europe\/Berlin/);
    expect(message).not.toContain(TEST_ADMIN_PASSWORD);

    // A failed login is no admin login.
    expect((await requestJson(panel.url, '/api/auth/login', { method: 'POST', body: { username: 'admin', password: 'wrong password here' } })).status).toBe(401);
    await invalidateNewAccount('dave');
    expect(await nextMessage(before + 2)).toContain('Account: dave');
    expect(texts()).toHaveLength(before + 2);
    expect(texts().slice(before).filter((text) => text.includes('Admin login'))).toHaveLength(1);
  });
});
