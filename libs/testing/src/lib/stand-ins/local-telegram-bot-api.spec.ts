import { LocalTelegramBotApi, parseTelegramHtml } from './local-telegram-bot-api';

describe('LocalTelegramBotApi', () => {
  const api = new LocalTelegramBotApi({ knownChatIds: [42, -100123, '@channel'] });
  const call = async (method: string, body?: unknown, token = api.token): Promise<{ status: number; json: Record<string, unknown> }> => {
    const response = await fetch(`${api.url}/bot${token}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    await api.start();
  });
  afterAll(async () => {
    await api.close();
  });

  it('answers getMe like the Bot API', async () => {
    expect(await call('getMe')).toEqual({ status: 200, json: { ok: true, result: expect.objectContaining({ id: 123456, is_bot: true, username: 'local_test_bot' }) } });
  });

  it('answers sendMessage with message_id, chat, date and the parsed text, and records it', async () => {
    const { status, json } = await call('sendMessage', { chat_id: -100123, text: '<b>hi</b> &amp; bye', parse_mode: 'HTML', message_thread_id: 3 });
    expect(status).toBe(200);
    expect(json).toEqual({
      ok: true,
      result: expect.objectContaining({ message_id: expect.any(Number), chat: expect.objectContaining({ id: -100123, type: 'supergroup' }), date: expect.any(Number), text: 'hi & bye', message_thread_id: 3 }),
    });
    expect(api.messagesTo(-100123)[0]).toMatchObject({ text: '<b>hi</b> &amp; bye', plainText: 'hi & bye', messageThreadId: 3, parseMode: 'HTML' });
  });

  it('accepts form-encoded parameters too', async () => {
    const response = await fetch(`${api.url}/bot${api.token}/sendMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ chat_id: '42', text: 'form', reply_markup: JSON.stringify({ inline_keyboard: [] }) }).toString(),
    });
    expect(response.status).toBe(200);
    expect(api.messagesTo(42).at(-1)).toMatchObject({ text: 'form', replyMarkup: { inline_keyboard: [] } });
  });

  it('refuses a wrong token, an unknown chat, empty text, broken HTML and text over 4096', async () => {
    expect(await call('getMe', undefined, '1:nope')).toMatchObject({ status: 401, json: { ok: false, error_code: 401, description: 'Unauthorized' } });
    expect(await call('sendMessage', { chat_id: 7, text: 'x' })).toMatchObject({ status: 400, json: { description: 'Bad Request: chat not found' } });
    expect(await call('sendMessage', { chat_id: 42, text: ' ' })).toMatchObject({ status: 400, json: { description: 'Bad Request: message text is empty' } });
    expect(await call('sendMessage', { chat_id: 42, text: '<b>open', parse_mode: 'HTML' })).toMatchObject({ status: 400, json: { description: expect.stringContaining("can't parse entities") } });
    expect(await call('sendMessage', { chat_id: 42, text: 'x'.repeat(4097) })).toMatchObject({ status: 400, json: { description: 'Bad Request: message is too long' } });
    expect(await call('sendMessage', { chat_id: 42, text: `<b>${'x'.repeat(4096)}</b>`, parse_mode: 'HTML' })).toMatchObject({ status: 200 });
    expect(await call('nope')).toMatchObject({ status: 404 });
  });

  it('answers queued failures, 429 with retry_after', async () => {
    api.failNext({ errorCode: 429, description: 'Too Many Requests: retry after 5', retryAfter: 5 }, { errorCode: 403, description: 'Forbidden: bot was blocked by the user' });
    const count = api.messages.length;
    expect(await call('getMe')).toMatchObject({ status: 200 });
    expect(await call('sendMessage', { chat_id: 42, text: 'x' })).toEqual({ status: 429, json: { ok: false, error_code: 429, description: 'Too Many Requests: retry after 5', parameters: { retry_after: 5 } } });
    expect(await call('sendMessage', { chat_id: 42, text: 'x' })).toMatchObject({ status: 403, json: { error_code: 403 } });
    expect(await call('sendMessage', { chat_id: 42, text: 'x' })).toMatchObject({ status: 200 });
    expect(api.messages.length).toBe(count + 1);
  });
});

describe('parseTelegramHtml', () => {
  it('decodes entities and refuses unsupported or unbalanced tags', () => {
    expect(parseTelegramHtml('<a href="https://x">a &lt;b&gt; &#169; &#x1F600;</a>')).toEqual({ ok: true, text: 'a <b> © 😀' });
    expect(parseTelegramHtml('<div>x</div>').ok).toBe(false);
    expect(parseTelegramHtml('<b><i>x</b></i>').ok).toBe(false);
    expect(parseTelegramHtml('a < b').ok).toBe(false);
    expect(parseTelegramHtml('&nbsp;').ok).toBe(false);
  });
});
