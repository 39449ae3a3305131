import { LocalTelegramBotApi, requestJson, waitFor } from '@shared/testing';
import { RUN_TIMINGS, RunTimings } from '../src/app/runs/run-timings';
import { TELEGRAM_GATEWAY } from '../src/app/telegram/telegram-gateway';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';
import { TelegramSimulator } from './telegram-simulator';

const TEST_TIMINGS: RunTimings = {
  replyWaitMs: 300,
  aiTimeoutMs: 700,
  accountCooldownMs: 50,
  runTimeoutMs: 8_000,
  retryDelayMs: 50,
  telegramCallTimeoutMs: 2_000,
  sseKeepAliveMs: 300,
  verdictPollMs: 40,
  namedWaitScale: 0.0001,
};

interface FlowLine {
  level: string;
  step: string | null;
  message: string;
  code?: string;
  params?: Record<string, string | number>;
}
interface HistoryEntry {
  run_id: string;
  message: string;
  message_code: string | null;
  message_params: Record<string, string>;
  flow_log: FlowLine[];
}

const BOT_TOKEN = '777033:codes-token';
const BOT_CHAT = '3333';

/**
 * Issue 33 item 5: the text the runner writes (flow log lines, the run's result message) carries a
 * stable code and parameters beside the English text, so the web app says it in the person's
 * language; a bot's answer or an error's text carries none and is shown as it is.
 */
describe('panel-api run text with codes for the reader\'s language', () => {
  let panel: RunningPanel;
  let bot: LocalTelegramBotApi;
  let token: string;
  const telegram = new TelegramSimulator();

  const api = <T = Record<string, unknown>>(path: string, options: { method?: string; body?: unknown } = {}) =>
    requestJson<T>(panel.url, path, { method: options.method, body: options.body, token });

  const runAndRead = async (name: string, chat: Record<string, unknown>, notify = false): Promise<HistoryEntry> => {
    const created = await api('/api/sign-tasks', {
      method: 'POST',
      body: { name, account_name: 'alice', sign_at: '0 8 * * *', execution_mode: 'fixed', retry_count: 0, notify_on_failure: notify, chats: [chat] },
    });
    expect(created.status).toBe(201);
    const started = await api<{ runs: Array<{ run_id: string }> }>(`/api/sign-tasks/${name}/run`, { method: 'POST', body: {} });
    expect(started.status).toBe(202);
    const runId = started.body.runs[0].run_id;
    const deadline = Date.now() + 15_000;
    for (;;) {
      const history = await api<{ history: HistoryEntry[] }>(`/api/sign-tasks/${name}/history?limit=5`);
      const entry = history.body.history.find((item) => item.run_id === runId);
      if (entry) return entry;
      if (Date.now() > deadline) throw new Error(`the run of ${name} was not recorded in time`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  beforeAll(async () => {
    const alice = telegram.createUser({ phone: '+31 600 000 331', firstName: 'Alice' });
    telegram.addBot({ username: 'codes_ok_bot', onMessage: () => ({ text: '签到成功 +5' }) });
    telegram.addBot({ username: 'codes_silent_bot', onMessage: () => undefined });
    telegram.addBot({ username: 'codes_plain_bot', onMessage: () => ({ text: 'hello, no buttons here' }) });
    bot = await new LocalTelegramBotApi({ token: BOT_TOKEN, knownChatIds: [BOT_CHAT] }).start();
    panel = await startPanel({
      env: { MSGR_SESSION_MODE: 'string', APP_BOT_API_BASE_URL: bot.apiBaseUrl },
      overrides: [
        { provide: TELEGRAM_GATEWAY, useValue: telegram },
        { provide: RUN_TIMINGS, useValue: TEST_TIMINGS },
      ],
    });
    token = await loginAsAdmin(panel);
    expect((await api('/api/accounts/import-session', { method: 'POST', body: { account_name: 'alice', session_string: telegram.issueSession(alice.id) } })).status).toBe(201);
  });

  afterAll(async () => {
    await panel?.close();
    await bot?.close();
  });

  it('codes the lines the runner writes, with their values, and the verdict with its reason', async () => {
    const entry = await runAndRead('codes-verdict', {
      chat_id: '@codes_ok_bot',
      actions: [{ action: 1, text: '/checkin' }],
      verdict: { success: [{ mode: 'contains', pattern: '签到成功' }], timeout_seconds: 2 },
    });
    const coded = entry.flow_log.filter((line) => line.code).map((line) => ({ code: line.code, params: line.params, step: line.step }));
    expect(coded).toEqual(
      expect.arrayContaining([
        { code: 'sent_text', params: { text: '/checkin' }, step: 'chat 1 action 1' },
        { code: 'verdict', params: { verdict: 'success', reason: 'pattern_matched', edited: 0, mode: 'contains', pattern: '签到成功', text: '签到成功 +5' }, step: 'chat 1' },
        { code: 'run_ended_verdict', params: { verdict: 'success' }, step: null },
      ]),
    );
    // The English text stays beside the code, for programs and older clients.
    expect(entry.flow_log.find((line) => line.code === 'sent_text')?.message).toBe('sent: /checkin');
    // The result is the bot's own answer: no code, shown as it is.
    expect([entry.message, entry.message_code]).toEqual(['签到成功 +5', null]);
  });

  it('codes the result message the runner writes itself', async () => {
    const entry = await runAndRead('codes-silent', { chat_id: '@codes_silent_bot', actions: [{ action: 1, text: '/checkin' }] });
    expect([entry.message, entry.message_code]).toEqual(['completed', 'completed']);
    expect(entry.flow_log.find((line) => line.code === 'no_reply')).toMatchObject({ level: 'warn', params: { seconds: 0 } });
    const list = await api<{ items: Array<{ run_id: string; message_code: string | null }> }>('/api/runs?task=codes-silent');
    expect(list.status).toBe(200);
    expect(list.body.items.find((item) => item.run_id === entry.run_id)?.message_code).toBe('completed');
  });

  it('codes an error the runner names, with its values, in the history, the run list, the flow log and the live status', async () => {
    const entry = await runAndRead('codes-no-button', { chat_id: '@codes_plain_bot', actions: [{ action: 1, text: '/start' }, { action: 3, text: 'Check in' }] });
    expect(entry.message).toBe('No recent message in @codes_plain_bot has a button "Check in"');
    expect([entry.message_code, entry.message_params]).toEqual(['no_message_with_button', { chat: '@codes_plain_bot', text: 'Check in' }]);
    expect(entry.flow_log.find((line) => line.code === 'run_error')).toMatchObject({
      level: 'error',
      params: { error: entry.message, error_code: 'no_message_with_button', 'error.chat': '@codes_plain_bot', 'error.text': 'Check in' },
    });
    const list = await api<{ items: Array<{ run_id: string; message_code: string | null; message_params: Record<string, string> }> }>('/api/runs?task=codes-no-button');
    expect(list.body.items.find((item) => item.run_id === entry.run_id)).toMatchObject({ message_code: 'no_message_with_button', message_params: { chat: '@codes_plain_bot', text: 'Check in' } });
    const status = await api<{ runs: Array<{ run_id: string; error: string; error_code: string | null; error_params: Record<string, string>; phase_detail_code: string | null }> }>('/api/sign-tasks/codes-no-button/run/status');
    expect(status.body.runs.find((run) => run.run_id === entry.run_id)).toMatchObject({ error: entry.message, error_code: 'no_message_with_button', error_params: { chat: '@codes_plain_bot', text: 'Check in' }, phase_detail_code: null });
  });

  it('sends notifications in the language of the settings, the run\'s error said in it too', async () => {
    const saved = await api('/api/config/settings', { method: 'PUT', body: { bot_token: BOT_TOKEN, bot_chat_id: BOT_CHAT, bot_notify_enabled: true, bot_notify_task_failure: true, notify_language: 'zh' } });
    expect(saved.status).toBe(200);
    expect((await api<{ notify_language: string }>('/api/config/settings')).body.notify_language).toBe('zh');
    await runAndRead('codes-zh-notice', { chat_id: '@codes_plain_bot', actions: [{ action: 1, text: '/start' }, { action: 3, text: 'Check in' }] }, true);
    await waitFor(() => bot.messagesTo(BOT_CHAT).length > 0);
    expect(bot.messagesTo(BOT_CHAT).at(-1)?.plainText.split('\n')).toEqual([
      '签到任务 codes-zh-notice 失败',
      '账号：alice',
      '类别：找不到按钮',
      '结果：@codes_plain_bot 中最近的消息里没有按钮“Check in”',
    ]);
    const english = await api('/api/config/settings', { method: 'PUT', body: { notify_language: 'en' } });
    expect(english.status).toBe(200);
  });

  it('refuses a language it has no sentences for, in the service\'s error shape', async () => {
    const refused = await api<{ code: string; fields?: Array<{ field: string }> }>('/api/config/settings', { method: 'PUT', body: { notify_language: 'fr' } });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('validation_failed');
    expect(JSON.stringify(refused.body)).toContain('notify_language');
  });
});
