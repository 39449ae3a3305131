import { LocalHttpProxy, LocalTelegramBotApi, LocalWebhookReceiver } from '@shared/testing';
import { ProxyAgent } from 'undici';
import { TelegramBotSender } from './telegram-bot-sender';

describe('TelegramBotSender against a local Bot API', () => {
  const api = new LocalTelegramBotApi();
  let sender: TelegramBotSender;

  beforeAll(async () => {
    await api.start();
  });
  afterAll(async () => {
    await api.close();
  });
  beforeEach(() => {
    api.messages.length = 0;
    api.clearRequests();
    sender = new TelegramBotSender({ token: api.token, baseUrl: api.apiBaseUrl, timeoutMs: 2000 });
  });

  it('sends HTML with link previews off, a forum topic and a "View on GitHub" button', async () => {
    const result = await sender.sendMessage({
      chatId: 42,
      text: '<b>Issue opened</b> in o/r',
      disableLinkPreview: true,
      messageThreadId: 7,
      button: { text: 'View on GitHub', url: 'https://github.com/o/r/issues/1' },
    });
    expect(result).toMatchObject({ ok: true, outcome: 'sent', parts: 1, attempts: 1, status: 200 });
    expect(result.messageIds).toEqual([api.messages[0]?.messageId]);
    expect(api.messages[0]).toMatchObject({
      chatId: 42,
      text: '<b>Issue opened</b> in o/r',
      plainText: 'Issue opened in o/r',
      parseMode: 'HTML',
      messageThreadId: 7,
      linkPreviewOptions: { is_disabled: true },
      replyMarkup: { inline_keyboard: [[{ text: 'View on GitHub', url: 'https://github.com/o/r/issues/1' }]] },
    });
    expect(api.requests[0]?.path).toBe(`/bot${api.token}/sendMessage`);
  });

  it('splits long HTML into valid messages and puts the button under the last one', async () => {
    const text = Array.from({ length: 300 }, (_, index) => `<i>line ${index}</i> ${'&lt;x&gt;'.repeat(3)}`).join('\n');
    expect(text.length).toBeGreaterThan(8192);
    const result = await sender.sendMessage({ chatId: 1, text, button: { text: 'Open', url: 'https://example.com' } });
    expect(result.ok).toBe(true);
    expect(result.parts).toBeGreaterThanOrEqual(3);
    expect(result.messageIds).toHaveLength(result.parts);
    expect(api.messages.map((message) => message.replyMarkup !== undefined)).toEqual(Array.from({ length: result.parts }, (_, index) => index === result.parts - 1));
    expect(api.messages.map((message) => message.text).join('')).toBe(text);
  });

  it('cuts to one message in truncate mode (repo-monitor, 4000 characters)', async () => {
    const result = await sender.sendMessage({ chatId: 1, text: `<b>${'a'.repeat(5000)}</b>`, overflow: 'truncate', maxLength: 4000 });
    expect(result).toMatchObject({ ok: true, parts: 1 });
    expect(api.messages[0]?.text.length).toBeLessThanOrEqual(4000);
    expect(api.messages[0]?.text.endsWith('…</b>')).toBe(true);
  });

  it('waits out a short 429 retry_after and then succeeds', async () => {
    api.failNext({ errorCode: 429, description: 'Too Many Requests: retry after 1', retryAfter: 1 });
    const started = Date.now();
    const result = await sender.sendMessage({ chatId: 5, text: 'hello' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(result).toMatchObject({ ok: true, attempts: 2 });
    expect(api.messages).toHaveLength(1);
  });

  it('reports a long 429 as retryable with retry_after instead of waiting', async () => {
    api.failNext({ errorCode: 429, description: 'Too Many Requests: retry after 120', retryAfter: 120 });
    const result = await sender.sendMessage({ chatId: 5, text: 'hello' });
    expect(result).toMatchObject({ ok: false, outcome: 'retryable', errorCode: 'rate_limited', retryAfterSeconds: 120, telegramErrorCode: 429, attempts: 1 });
    expect(api.messages).toHaveLength(0);
  });

  it('classifies 403 and 400 as permanent and 5xx as retryable, keeping Telegram\'s description', async () => {
    api.failNext({ errorCode: 403, description: 'Forbidden: bot was blocked by the user' });
    expect(await sender.sendMessage({ chatId: 5, text: 'x' })).toMatchObject({ ok: false, outcome: 'permanent', telegramErrorCode: 403, description: 'Forbidden: bot was blocked by the user' });
    expect(await sender.sendMessage({ chatId: 5, text: '<b>unclosed' })).toMatchObject({ ok: false, outcome: 'permanent', status: 400 });
    api.failNext({ errorCode: 502, description: 'Bad Gateway' });
    expect(await sender.sendMessage({ chatId: 5, text: 'x' })).toMatchObject({ ok: false, outcome: 'retryable', status: 502 });
  });

  it('never puts the token in a result, even for a wrong token', async () => {
    const wrong = new TelegramBotSender({ token: '999:wrong-secret-token', baseUrl: api.apiBaseUrl });
    const result = await wrong.sendMessage({ chatId: 5, text: 'x' });
    expect(result).toMatchObject({ ok: false, outcome: 'permanent', status: 401, description: 'Unauthorized' });
    expect(JSON.stringify(result)).not.toContain('wrong-secret-token');
  });

  it('reports an unreachable Bot API as a retryable network error', async () => {
    const dead = new TelegramBotSender({ token: api.token, baseUrl: 'http://127.0.0.1:1', timeoutMs: 2000 });
    const result = await dead.sendMessage({ chatId: 5, text: 'x' });
    expect(result).toMatchObject({ ok: false, outcome: 'retryable', errorCode: 'network_error' });
    expect(result.description).not.toContain(api.token);
  });

  it('times out a Bot API that does not answer', async () => {
    const slow = new LocalWebhookReceiver();
    await slow.start();
    slow.setDefaultReply({ status: 200, body: '{}', delayMs: 3000 });
    try {
      const hanging = new TelegramBotSender({ token: api.token, baseUrl: slow.url, timeoutMs: 200 });
      const result = await hanging.sendMessage({ chatId: 5, text: 'x' });
      expect(result).toMatchObject({ ok: false, outcome: 'retryable', errorCode: 'timeout' });
    } finally {
      await slow.close();
    }
  });

  it('answers getMe', async () => {
    const me = await sender.getMe();
    expect(me).toMatchObject({ ok: true, result: { is_bot: true, username: api.botUsername } });
  });

  it('goes through a proxy when given an undici dispatcher', async () => {
    const proxy = new LocalHttpProxy({ credentials: { username: 'u', password: 'p' } });
    await proxy.start();
    const agent = new ProxyAgent({ uri: proxy.urlWithCredentials });
    try {
      const proxied = new TelegramBotSender({ token: api.token, baseUrl: api.apiBaseUrl, dispatcher: agent });
      const result = await proxied.sendMessage({ chatId: 9, text: 'via proxy' });
      expect(result.ok).toBe(true);
      expect(proxy.targets).toEqual([`127.0.0.1:${api.port}`]);
      expect(api.messagesTo(9)).toHaveLength(1);
    } finally {
      await agent.close();
      await proxy.close();
    }
  });
});
