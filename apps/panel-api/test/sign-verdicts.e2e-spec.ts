import { LocalOpenAiServer, requestJson } from '@shared/testing';
import { RUN_TIMINGS, RunTimings } from '../src/app/runs/run-timings';
import { TaskRunner } from '../src/app/runs/task-runner.service';
import { TELEGRAM_GATEWAY } from '../src/app/telegram/telegram-gateway';
import { addCheckInBots, CheckInBots } from './check-in-bots';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';
import { TelegramSimulator } from './telegram-simulator';

const METRICS_TOKEN = 'verdict-metrics-token-0123456789';

const TEST_TIMINGS: RunTimings = {
  replyWaitMs: 300,
  // No case here waits for the model to time out; at 700 ms the local stand-in's answer came too late
  // once on a starved machine (the ai_fallback case ended `failed`).
  aiTimeoutMs: 5_000,
  accountCooldownMs: 50,
  runTimeoutMs: 8_000,
  retryDelayMs: 50,
  telegramCallTimeoutMs: 2_000,
  sseKeepAliveMs: 300,
  verdictPollMs: 40,
  // "请 37 分钟后再试" becomes about 0.2 s.
  namedWaitScale: 0.0001,
};

interface RunStatus {
  run_id: string | null;
  state: string;
  phase: string | null;
  success: boolean | null;
  failure_category: string;
  verdict: string | null;
  verdict_text: string | null;
  trigger: string | null;
  attempts: number;
  logs: Array<{ level: string; message: string }>;
  runs: RunStatus[];
}

interface RunListItem {
  run_id: string;
  task_name: string;
  trigger: string;
  success: boolean;
  failure_category: string;
  verdict: string | null;
  verdict_text: string | null;
}

async function eventually<T>(check: () => Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
}

const SIGN_PATTERNS = {
  success: [
    { mode: 'contains', pattern: '签到成功' },
    { mode: 'regex', pattern: 'check-in success' },
  ],
  already_done: [
    { mode: 'contains', pattern: '已签到' },
    { mode: 'contains', pattern: '已经签到' },
    { mode: 'regex', pattern: 'already checked in' },
  ],
  failure: [{ mode: 'regex', pattern: '失败|error' }],
};

describe('panel-api sign verdicts from the bot\'s answer, retries, reruns after a named wait and reply-to clicks (issue 35)', () => {
  let panel: RunningPanel;
  let token: string;
  const telegram = new TelegramSimulator();
  const openai = new LocalOpenAiServer({ apiKey: 'sk-local' });
  let bots: CheckInBots;

  const api = <T = Record<string, unknown>>(path: string, options: { method?: string; body?: unknown } = {}) =>
    requestJson<T>(panel.url, path, { method: options.method, body: options.body, token });

  const create = async (name: string, chat: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    const response = await api('/api/sign-tasks', {
      method: 'POST',
      body: { name, account_name: 'alice', sign_at: '0 8 * * *', execution_mode: 'fixed', retry_count: 0, notify_on_failure: false, chats: [chat], ...extra },
    });
    expect({ status: response.status, body: response.body }).toMatchObject({ status: 201 });
  };

  const runAndWait = async (name: string): Promise<RunStatus> => {
    const started = await api<{ runs: Array<{ run_id: string }> }>(`/api/sign-tasks/${encodeURIComponent(name)}/run`, { method: 'POST', body: {} });
    expect(started.status).toBe(202);
    return waitForRun(name, started.body.runs[0].run_id);
  };

  const waitForRun = async (name: string, runId: string): Promise<RunStatus> => {
    let status: RunStatus | undefined;
    await eventually(async () => {
      const response = await api<RunStatus>(`/api/sign-tasks/${encodeURIComponent(name)}/run/status`);
      status = response.body.runs.find((run) => run.run_id === runId);
      return status !== undefined && status.state !== 'running' && status.phase !== 'finalizing';
    }, 15_000);
    return status as RunStatus;
  };

  beforeAll(async () => {
    await openai.start();
    const alice = telegram.createUser({ phone: '+31 600 000 351', firstName: 'Alice' });
    bots = addCheckInBots(telegram);
    panel = await startPanel({
      env: { MSGR_SESSION_MODE: 'string', APP_METRICS_TOKEN: METRICS_TOKEN },
      overrides: [
        { provide: TELEGRAM_GATEWAY, useValue: telegram },
        { provide: RUN_TIMINGS, useValue: TEST_TIMINGS },
      ],
    });
    token = await loginAsAdmin(panel);
    const imported = await api('/api/accounts/import-session', { method: 'POST', body: { account_name: 'alice', session_string: telegram.issueSession(alice.id) } });
    expect(imported.status).toBe(201);
    const settings = await api('/api/config/settings', { method: 'PUT', body: { ai_base_url: openai.baseUrl, ai_model: 'gpt-4o-mini', ai_api_key: 'sk-local' } });
    expect(settings.status).toBe(200);
  });

  afterAll(async () => {
    await panel?.close();
    await openai.close();
  });

  it('refuses verdict patterns RE2 cannot run and unknown pattern modes', async () => {
    const bad = await api<{ message?: string }>('/api/sign-tasks', {
      method: 'POST',
      body: {
        name: 'bad-verdict',
        account_name: 'alice',
        sign_at: '0 8 * * *',
        execution_mode: 'fixed',
        chats: [{ chat_id: '@sign_ok_bot', actions: [{ action: 1, text: '/sign' }], verdict: { success: [{ mode: 'regex', pattern: '(?=lookahead)' }] } }],
      },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('chats.0.verdict.success.0.pattern');
    const mode = await api('/api/sign-tasks', {
      method: 'POST',
      body: {
        name: 'bad-mode',
        account_name: 'alice',
        sign_at: '0 8 * * *',
        execution_mode: 'fixed',
        chats: [{ chat_id: '@sign_ok_bot', actions: [{ action: 1, text: '/sign' }], verdict: { success: [{ mode: 'glob', pattern: '*' }], timeout_seconds: 0 } }],
      },
    });
    expect(mode.status).toBe(400);
    expect((await api('/api/runs?verdict=maybe')).status).toBe(400);
  });

  it('ends success with the matched reply, then already_done on the next run of the day', async () => {
    await create('ok', { chat_id: '@sign_ok_bot', actions: [{ action: 1, text: '/sign' }], verdict: { ...SIGN_PATTERNS, timeout_seconds: 2 } });
    const first = await runAndWait('ok');
    expect(first).toMatchObject({ state: 'finished', success: true, failure_category: 'none', verdict: 'success', verdict_text: '签到成功！获得 10 积分' });
    expect(first.logs.map((l) => l.message)).toContain('verdict success: reply matched contains pattern "签到成功" (签到成功！获得 10 积分)');
    const second = await runAndWait('ok');
    expect(second).toMatchObject({ success: true, verdict: 'already_done', verdict_text: '今日已签到，明天再来' });
    // 明天再来 names a wait, but only a failed or unconfirmed answer asks for a rerun.
    expect(panel.app.get(TaskRunner).pendingReruns('ok')).toEqual([]);
  });

  it('ends failed on a failure answer after repeating the chat per the retry policy', async () => {
    await create('refused', { chat_id: '@sign_fail_bot', actions: [{ action: 1, text: '/sign' }], verdict: { ...SIGN_PATTERNS, timeout_seconds: 2 } }, { retry_count: 2 });
    const status = await runAndWait('refused');
    expect(status).toMatchObject({ success: false, failure_category: 'bot_refused', verdict: 'failed', verdict_text: '签到失败：账号未绑定', attempts: 3 });
    expect(telegram.callsOf('sendMessage', 'alice').filter((call) => call.args[0] === '@sign_fail_bot')).toHaveLength(3);
  });

  it('ends unconfirmed when the bot says nothing, or nothing it says matches', async () => {
    await create('silent', { chat_id: '@sign_silent_bot', actions: [{ action: 1, text: '/sign' }], verdict: { ...SIGN_PATTERNS, timeout_seconds: 1 } });
    const silent = await runAndWait('silent');
    expect(silent).toMatchObject({ success: false, failure_category: 'unconfirmed', verdict: 'unconfirmed', verdict_text: null });
    expect(silent.logs.map((l) => l.message)).toContain('verdict unconfirmed: no answer from the target within 1 s');

    await create('unmatched', { chat_id: '@sign_ok_bot', actions: [{ action: 1, text: '/help' }], verdict: { ...SIGN_PATTERNS, timeout_seconds: 1 } });
    expect(await runAndWait('unmatched')).toMatchObject({ verdict: 'unconfirmed', verdict_text: '未知命令 /help' });
  });

  it('asks the configured model about an answer no pattern matched when ai_fallback is on, and logs its classification', async () => {
    openai.setReply(() => 'already_done');
    await create('fallback', { chat_id: '@sign_ok_bot', actions: [{ action: 1, text: '/points' }], verdict: { ...SIGN_PATTERNS, timeout_seconds: 1, ai_fallback: true } });
    const status = await runAndWait('fallback');
    // The logs first: when the verdict is wrong, the failure shows the run's log lines.
    expect(status.logs.map((l) => l.message)).toEqual(expect.arrayContaining(['model answered: already_done', 'verdict already_done: no pattern matched; the model classified the answer as already_done (未知命令 /points)']));
    expect(status).toMatchObject({ success: true, verdict: 'already_done', verdict_text: '未知命令 /points' });
    expect(JSON.stringify(openai.completions.at(-1)?.messages)).toContain('未知命令 /points');
  });

  it('reads a bot that edits its "processing" message into the result', async () => {
    await create('edited', { chat_id: '@sign_edit_bot', actions: [{ action: 1, text: '/sign' }], verdict: { ...SIGN_PATTERNS, timeout_seconds: 3 } });
    const status = await runAndWait('edited');
    expect(status).toMatchObject({ success: true, verdict: 'success', verdict_text: '✅ Check-in successful, streak 3 days' });
    expect(status.logs.map((l) => l.message).join('\n')).toContain('edited message matched regex pattern "check-in success"');
    expect(await runAndWait('edited')).toMatchObject({ verdict: 'already_done', verdict_text: 'You have already checked in today' });
  });

  it('in a busy group counts only replies to our message and the bot, not other members claiming success', async () => {
    await create('group', { chat_id: bots.group.id, actions: [{ action: 1, text: '/sign@group_sign_bot' }], verdict: { ...SIGN_PATTERNS, timeout_seconds: 2 } });
    expect(await runAndWait('group')).toMatchObject({ verdict: 'success', verdict_text: '签到成功，连续 2 天' });
    await create('group-bot', { chat_id: bots.group.id, actions: [{ action: 1, text: '/sign@group_sign_bot' }], verdict: { ...SIGN_PATTERNS, timeout_seconds: 2, from: `@${bots.group.botUsername}` } });
    expect(await runAndWait('group-bot')).toMatchObject({ verdict: 'already_done', verdict_text: '你今天已经签到过了' });
  });

  it('presses the button of the bot\'s reply to the previous action in reply-to mode, not the newest message\'s', async () => {
    const chat = (fromReply: boolean) => ({
      chat_id: '@sign_menu_bot',
      actions: [
        { action: 1, text: '/start' },
        { action: 3, text: '签到', ...(fromReply ? { from_reply: true } : {}) },
      ],
      verdict: { ...SIGN_PATTERNS, timeout_seconds: 2 },
    });
    await create('newest', chat(false));
    expect(await runAndWait('newest')).toMatchObject({ verdict: 'failed', verdict_text: '活动签到失败：活动未开始' });
    await create('reply-to', chat(true));
    const status = await runAndWait('reply-to');
    expect(status).toMatchObject({ verdict: 'success', verdict_text: '签到成功，积分 +5' });
    expect(status.logs.map((l) => l.message).join('\n')).toMatch(/using the bot's reply to the previous action \(message \d+\)/);
  });

  it('runs once more after the wait a bot names, once a day, and logs it', async () => {
    await create('later', { chat_id: '@sign_later_bot', actions: [{ action: 1, text: '/sign' }], verdict: { ...SIGN_PATTERNS, timeout_seconds: 1 } });
    const first = await runAndWait('later');
    expect(first).toMatchObject({ verdict: 'unconfirmed', verdict_text: '签到人数过多，请 37 分钟后再试' });
    const runs = async () => (await api<{ items: RunListItem[] }>('/api/runs?task=later')).body.items;
    const rerun = await eventually(async () => (await runs()).find((run) => run.trigger === 'rerun'));
    expect(rerun).toMatchObject({ verdict: 'success', verdict_text: '签到成功', success: true });

    // The bot asks to wait again the same day: no second rerun.
    bots.reset();
    expect(await runAndWait('later')).toMatchObject({ verdict: 'unconfirmed' });
    expect(panel.app.get(TaskRunner).pendingReruns('later')).toEqual([]);
    expect((await runs()).filter((run) => run.trigger === 'rerun')).toHaveLength(1);
  });

  it('filters GET /api/runs by verdict, counts verdicts on the dashboard and in the metrics', async () => {
    const failed = await api<{ items: RunListItem[]; total: number }>('/api/runs?verdict=failed');
    expect(failed.status).toBe(200);
    expect(failed.body.items.length).toBeGreaterThan(0);
    expect(failed.body.items.every((run) => run.verdict === 'failed')).toBe(true);
    expect(failed.body.items.map((run) => run.task_name)).toEqual(expect.arrayContaining(['refused', 'newest']));
    const already = await api<{ items: RunListItem[] }>('/api/runs?verdict=already_done&task=ok');
    expect(already.body.items).toEqual([expect.objectContaining({ verdict: 'already_done', verdict_text: '今日已签到，明天再来' })]);

    const detail = await api<{ verdict: string | null; verdict_text: string | null }>(`/api/runs/${already.body.items[0].run_id}`);
    expect(detail.body).toMatchObject({ verdict: 'already_done', verdict_text: '今日已签到，明天再来' });
    const history = await api<{ history: Array<{ verdict: string | null }> }>('/api/sign-tasks/ok/history');
    expect(history.body.history.map((entry) => entry.verdict)).toEqual(['already_done', 'success']);

    const stats = await api<{ today_already_done: number; today_unconfirmed: number; failure_categories: Array<{ category: string; count: number }> }>('/api/stats/dashboard?days=1');
    expect(stats.body.today_already_done).toBeGreaterThanOrEqual(3);
    expect(stats.body.today_unconfirmed).toBeGreaterThanOrEqual(3);
    expect(stats.body.failure_categories.map((c) => c.category)).toEqual(expect.arrayContaining(['bot_refused', 'unconfirmed']));

    const metrics = await fetch(`${panel.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }).then((response) => response.text());
    expect(metrics).toMatch(/panel_run_verdicts_total\{verdict="already_done"\} [3-9]/);
    expect(metrics).toMatch(/panel_runs_total\{result="failure",failure_category="bot_refused"\} [1-9]/);
  });
});
