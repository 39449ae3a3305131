import { LocalOpenAiServer, LocalTelegramBotApi, requestJson, testDatabaseDriver } from '@shared/testing';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RUN_TIMINGS, RunTimings } from '../src/app/runs/run-timings';
import { TelegramError } from '../src/app/telegram/telegram-error';
import { TELEGRAM_GATEWAY } from '../src/app/telegram/telegram-gateway';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';
import { SimUser, TelegramSimulator } from './telegram-simulator';

const TEST_TIMINGS: RunTimings = {
  replyWaitMs: 400,
  // Room for the local model's answer on a loaded machine (700 ms timed out once under load 7); the
  // ai_timeout case below delays its answer past it, within the 4 s run timeout.
  aiTimeoutMs: 2_000,
  accountCooldownMs: 300,
  runTimeoutMs: 4_000,
  retryDelayMs: 100,
  telegramCallTimeoutMs: 2_000,
  sseKeepAliveMs: 300,
};

interface RunStatus {
  run_id: string | null;
  state: string;
  phase: string | null;
  success: boolean | null;
  failure_category: string;
  error: string | null;
  attempts: number;
  finished_at: string | null;
  logs: Array<{ level: string; message: string; step: string | null }>;
  runs: RunStatus[];
}

interface HistoryEntry {
  run_id: string;
  account_name: string;
  trigger: string;
  state: string;
  success: boolean;
  failure_category: string;
  message: string;
  flow_log: Array<{ message: string }>;
}

/** A 1x1 PNG: the bot's "captcha" picture. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** Polls `check` until it gives a truthy value and returns that value. */
async function eventually<T>(check: () => Promise<T | undefined | false>, options: { timeoutMs?: number; intervalMs?: number } = {}): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 50));
  }
}

describe('panel-api sign tasks, runs, scheduler and live history (simulated Telegram, local OpenAI)', () => {
  let panel: RunningPanel;
  let token: string;
  const telegram = new TelegramSimulator();
  const openai = new LocalOpenAiServer({ apiKey: 'sk-local' });
  const bot = new LocalTelegramBotApi({ token: '123456:notify-token' });
  let alice: SimUser;
  let bob: SimUser;
  let aliceSession: string;
  let checkinBot: { id: string; username: string };

  const api = <T = Record<string, unknown>>(path: string, options: { method?: string; body?: unknown; token?: string | null } = {}) =>
    requestJson<T>(panel.url, path, { method: options.method, body: options.body, token: options.token === null ? undefined : (options.token ?? token) });

  const task = (name: string, extra: Record<string, unknown> = {}) => ({
    name,
    account_name: 'alice',
    sign_at: '0 8 * * *',
    execution_mode: 'fixed',
    retry_count: 0,
    chats: [{ chat_id: '@checkin_bot', actions: [{ action: 1, text: '/checkin' }] }],
    ...extra,
  });

  const create = async (body: Record<string, unknown>) => {
    const response = await api('/api/sign-tasks', { method: 'POST', body });
    expect({ status: response.status, body: response.body }).toMatchObject({ status: 201 });
    return response.body;
  };

  const runAndWait = async (name: string): Promise<RunStatus> => {
    const started = await api<{ runs: Array<{ run_id: string }> }>(`/api/sign-tasks/${encodeURIComponent(name)}/run`, { method: 'POST', body: {} });
    expect(started.status).toBe(202);
    const runId = started.body.runs[0].run_id;
    let status: RunStatus | undefined;
    await eventually(async () => {
      const response = await api<RunStatus>(`/api/sign-tasks/${encodeURIComponent(name)}/run/status`);
      status = response.body.runs.find((run) => run.run_id === runId);
      // Finished and finalized: history, last_run and notifications are written while the phase is `finalizing`.
      return status !== undefined && status.state !== 'running' && status.phase !== 'finalizing';
    }, { timeoutMs: 15_000, intervalMs: 50 });
    return status as RunStatus;
  };

  beforeAll(async () => {
    await openai.start();
    await bot.start();
    alice = telegram.createUser({ phone: '+31 600 000 101', firstName: 'Alice' });
    bob = telegram.createUser({ phone: '+31 600 000 102', firstName: 'Bob' });
    checkinBot = telegram.addBot({
      username: 'checkin_bot',
      onMessage: (text) => {
        if (text === '/checkin') return { text: 'Checked in! +10 points' };
        if (text === '/menu') return { text: 'Pick one', inlineButtons: [['Sign', 'Help']] };
        if (text === '/captcha') return { text: 'Which animal?', photo: PNG, inlineButtons: [['Cat', 'Dog', 'Bird']] };
        if (text === '/math') return { text: 'What is 3 + 4?' };
        if (text === '7') return { text: 'Correct, signed in' };
        if (text === '🎲') return { text: 'Nice roll' };
        return { text: `unknown: ${text}` };
      },
      onCallback: (button) => (button === 'Sign' ? { answer: 'Signed via button' } : button === 'Dog' ? { answer: 'Right animal' } : { answer: `pressed ${button}` }),
    });
    panel = await startPanel({
      env: { MSGR_SESSION_MODE: 'string', ACTIVE_LOG_CLEANUP_DELAY_SECONDS: '1', APP_BOT_API_BASE_URL: bot.apiBaseUrl },
      overrides: [
        { provide: TELEGRAM_GATEWAY, useValue: telegram },
        { provide: RUN_TIMINGS, useValue: TEST_TIMINGS },
      ],
    });
    token = await loginAsAdmin(panel);
    aliceSession = telegram.issueSession(alice.id);
    for (const [name, session] of [
      ['alice', aliceSession],
      ['bob', telegram.issueSession(bob.id)],
    ]) {
      const imported = await api('/api/accounts/import-session', { method: 'POST', body: { account_name: name, session_string: session } });
      expect(imported.status).toBe(201);
    }
    const settings = await api('/api/config/settings', { method: 'PUT', body: { ai_base_url: openai.baseUrl, ai_model: 'gpt-4o-mini', ai_api_key: 'sk-local' } });
    expect(settings.status).toBeLessThan(300);
  });

  afterAll(async () => {
    await panel?.close();
    await openai.close();
    await bot.close();
  });

  it('refuses every task, run, ops and stream route without a token', async () => {
    for (const [method, path] of [
      ['GET', '/api/sign-tasks'],
      ['POST', '/api/sign-tasks'],
      ['GET', '/api/sign-tasks/x'],
      ['PUT', '/api/sign-tasks/x'],
      ['DELETE', '/api/sign-tasks/x'],
      ['POST', '/api/sign-tasks/x/clone'],
      ['POST', '/api/sign-tasks/x/enable'],
      ['POST', '/api/sign-tasks/x/disable'],
      ['POST', '/api/sign-tasks/x/run'],
      ['GET', '/api/sign-tasks/x/run/status'],
      ['POST', '/api/sign-tasks/x/run/cancel'],
      ['GET', '/api/sign-tasks/x/history'],
      ['GET', '/api/sign-tasks/runs/active'],
      ['POST', '/api/batch/sign-tasks'],
      ['GET', '/api/ops/scheduled-jobs'],
      ['GET', '/api/events/sign-history'],
    ]) {
      const response = await api(path, { method, token: null, body: method === 'GET' || method === 'DELETE' ? undefined : {} });
      expect({ method, path, status: response.status }).toEqual({ method, path, status: 401 });
    }
    const wrongToken = await fetch(`${panel.url}/api/events/sign-history?token=not-a-token`);
    expect(wrongToken.status).toBe(401);
    await wrongToken.body?.cancel();
  });

  it('answers 400 for invalid tasks and writes nothing', async () => {
    const invalid: Array<[string, Record<string, unknown>]> = [
      ['unknown action', task('bad1', { chats: [{ chat_id: '@checkin_bot', actions: [{ action: 10, text: 'x' }] }] })],
      ['bad cron', task('bad2', { sign_at: '61 * * * *' })],
      ['bad HH:MM', task('bad3', { sign_at: '25:00' })],
      ['name with a control character', task('bad\u0007name')],
      ['name with a trailing space', task('trailing ')],
      ['name longer than 64 characters', task('x'.repeat(65))],
      ['retry_count out of range', task('bad4', { retry_count: 100 })],
      ['random_seconds negative', task('bad5', { random_seconds: -1 })],
      ['text missing for action 1', task('bad6', { chats: [{ chat_id: '@checkin_bot', actions: [{ action: 1 }] }] })],
      ['action 8 in a sign task', task('bad7', { chats: [{ chat_id: '@checkin_bot', actions: [{ action: 8, keywords: ['x'] }] }] })],
      ['action 9 outside a follow-up', task('bad8', { chats: [{ chat_id: '@checkin_bot', actions: [{ action: 9 }] }] })],
      ['unknown field', task('bad9', { colour: 'red' })],
      ['range without end', task('bad10', { execution_mode: 'range', range_start: '08:00' })],
      ['no account', task('bad11', { account_name: undefined })],
      ['bad delay', task('bad12', { chats: [{ chat_id: '@checkin_bot', actions: [{ action: 1, text: 'x', delay: '9-3' }] }] })],
      ['bad chat id', task('bad13', { chats: [{ chat_id: 'no spaces allowed', actions: [{ action: 1, text: 'x' }] }] })],
      [
        'invalid regex in a listen rule',
        task('bad14', { execution_mode: 'listen', sign_at: undefined, chats: [{ chat_id: -1001, actions: [{ action: 8, keywords: ['(unclosed'], match_mode: 'regex' }] }] }),
      ],
      [
        'continue without follow-ups',
        task('bad15', { execution_mode: 'listen', sign_at: undefined, chats: [{ chat_id: -1001, actions: [{ action: 8, keywords: ['x'], push_channel: 'continue', continue_chat_id: '@checkin_bot' }] }] }),
      ],
      [
        'bark without url',
        task('bad16', { execution_mode: 'listen', sign_at: undefined, chats: [{ chat_id: -1001, actions: [{ action: 8, keywords: ['x'], push_channel: 'bark' }] }] }),
      ],
    ];
    for (const [reason, body] of invalid) {
      const response = await api<{ message: string }>('/api/sign-tasks', { method: 'POST', body });
      expect({ reason, status: response.status }).toEqual({ reason, status: 400 });
    }
    const message = (await api<{ message: string }>('/api/sign-tasks', { method: 'POST', body: invalid[1][1] })).body.message;
    expect(message).toMatch(/sign_at/);
    // Keyword patterns run on chat text with RE2 (linear time): lookaround and backreferences are refused with the reason.
    for (const [keyword, reason] of [
      ['(?=secret)\\w+', /keywords\.0 is not a valid regular expression for RE2: invalid or unsupported Perl syntax: `\(\?=`.*no lookaround/],
      ['(a)\\1', /keywords\.0 is not a valid regular expression for RE2: invalid escape sequence: `\\1`.*no backreferences/],
    ] as const) {
      const refused = await api<{ message: string; fields: unknown }>('/api/sign-tasks', {
        method: 'POST',
        body: task('bad_re2', { execution_mode: 'listen', sign_at: undefined, chats: [{ chat_id: -1001, actions: [{ action: 8, keywords: [keyword], match_mode: 'regex' }] }] }),
      });
      expect(refused.status).toBe(400);
      expect(String(refused.body.message)).toMatch(reason);
      // The editor shows it on the keyword box, in words without the API's path.
      expect(refused.body).toMatchObject({ fields: [{ field: 'chats.0.actions.0.keywords.0', rule: 'pattern', message: expect.stringMatching(/^This pattern cannot run here/) }] });
    }
    const never = await api<{ fields: unknown }>('/api/sign-tasks', { method: 'POST', body: task('never', { sign_at: '0 0 31 2 *' }) });
    expect(never.body.fields).toEqual([{ field: 'sign_at', rule: 'schedule_never', message: expect.stringMatching(/never runs/) }]);
    expect((await api<{ total: number }>('/api/sign-tasks')).body.total).toBe(0);
    // Any display name is a name (its file name is derived); one with a control character is not.
    expect((await api('/api/sign-tasks/..%2Fetc')).status).toBe(404);
    expect((await api('/api/sign-tasks/bad%07name')).status).toBe(400);
    expect((await api('/api/sign-tasks/nothing')).status).toBe(404);
    expect((await api('/api/batch/sign-tasks', { method: 'POST', body: { action: 'explode', names: ['a'] } })).status).toBe(400);
    expect((await api('/api/batch/sign-tasks', { method: 'POST', body: { action: 'enable', names: Array.from({ length: 101 }, (_, i) => `t${i}`) } })).status).toBe(400);
    expect((await api('/api/sign-tasks/x/history?limit=0')).status).toBe(400);
  });

  it('creates, reads, lists with filters, replaces, clones, enables/disables and deletes tasks', async () => {
    const created = await create(task('daily', { sign_at: '08:30', random_seconds: 60, notify_on_success: true }));
    expect(created).toMatchObject({ name: 'daily', enabled: true, retry_count: 0, random_seconds: 60, notify_on_failure: true, last_run: null });
    expect((await api('/api/sign-tasks/daily')).body).toMatchObject({ name: 'daily', sign_at: '08:30' });
    expect(await api('/api/sign-tasks', { method: 'POST', body: task('daily') })).toMatchObject({ status: 409, body: { statusCode: 409, code: 'task_exists' } });

    await create(task('listen-hits', {
      account_names: ['bob'],
      account_name: undefined,
      execution_mode: 'listen',
      sign_at: undefined,
      chats: [
        {
          chat_id: -100123,
          actions: [
            {
              action: 8,
              keywords: ['^giveaway \\d+$'],
              match_mode: 'regex',
              push_channel: 'continue',
              continue_chat_id: '@checkin_bot',
              continue_actions: [{ action: 1, text: 'got {keyword}' }, { action: 9 }],
            },
          ],
        },
      ],
    }));

    const listAll = await api<{ tasks: Array<{ name: string }>; total: number }>('/api/sign-tasks');
    expect(listAll.body.tasks.map((t) => t.name)).toEqual(['daily', 'listen-hits']);
    const forBob = await api<{ tasks: Array<{ name: string }> }>('/api/sign-tasks?account=bob');
    expect(forBob.body.tasks.map((t) => t.name)).toEqual(['listen-hits']);
    const listenOnly = await api<{ tasks: Array<{ name: string }> }>('/api/sign-tasks?execution_mode=listen');
    expect(listenOnly.body.tasks.map((t) => t.name)).toEqual(['listen-hits']);

    const replaced = await api('/api/sign-tasks/daily', { method: 'PUT', body: task('daily', { sign_at: '0 0 9 * * *', retry_count: 5 }) });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ sign_at: '0 0 9 * * *', retry_count: 5, random_seconds: 0 });
    expect((await api('/api/sign-tasks/daily', { method: 'PUT', body: task('other') })).status).toBe(400);

    const clone = await api('/api/sign-tasks/daily/clone', { method: 'POST', body: { new_name: 'daily copy' } });
    expect(clone.status).toBe(201);
    expect(clone.body).toMatchObject({ name: 'daily copy', sign_at: '0 0 9 * * *' });
    expect((await api('/api/sign-tasks/daily/clone', { method: 'POST', body: { new_name: 'daily' } })).status).toBe(409);
    expect((await api('/api/sign-tasks/daily/clone', { method: 'POST', body: { new_name: ' x' } })).status).toBe(400);

    const disabled = await api('/api/sign-tasks/daily%20copy/disable', { method: 'POST' });
    expect(disabled.body).toMatchObject({ enabled: false });
    expect((await api<{ tasks: unknown[] }>('/api/sign-tasks?enabled=false')).body.tasks).toHaveLength(1);
    expect((await api('/api/sign-tasks/daily%20copy/enable', { method: 'POST' })).body).toMatchObject({ enabled: true });

    const jobs = await api<{ jobs: Array<{ id: string; next_run_at: string | null; type: string }>; lock_held: boolean }>('/api/ops/scheduled-jobs');
    expect(jobs.body.lock_held).toBe(true);
    const daily = jobs.body.jobs.find((job) => job.id === 'sign-alice-daily');
    expect(daily?.type).toBe('sign');
    expect(new Date(daily?.next_run_at ?? '').getUTCHours()).toBe(9);
    expect(jobs.body.jobs.map((job) => job.id)).toEqual(expect.arrayContaining(['sign-alice-daily copy', 'system-device-keepalive']));
    expect(jobs.body.jobs.some((job) => job.id.includes('listen-hits'))).toBe(false);

    expect((await api('/api/sign-tasks/daily%20copy', { method: 'DELETE' })).status).toBe(204);
    expect((await api('/api/sign-tasks/daily%20copy')).status).toBe(404);
    const after = await api<{ jobs: Array<{ id: string }> }>('/api/ops/scheduled-jobs');
    expect(after.body.jobs.some((job) => job.id === 'sign-alice-daily copy')).toBe(false);
  });

  it('batch: enables, disables, runs and deletes, reporting unknown names', async () => {
    await create(task('batch-a'));
    await create(task('batch-b', { account_name: 'bob' }));
    const disable = await api<{ results: Array<{ name: string; ok: boolean; result: string }>; succeeded: number; failed: number }>('/api/batch/sign-tasks', {
      method: 'POST',
      body: { action: 'disable', names: ['batch-a', 'batch-b', 'ghost', 'bad\u0000name'] },
    });
    expect(disable.status).toBe(200);
    expect(disable.body.results).toEqual([
      { name: 'batch-a', ok: true, result: 'done' },
      { name: 'batch-b', ok: true, result: 'done' },
      { name: 'ghost', ok: false, result: 'not_found' },
      expect.objectContaining({ name: 'bad\u0000name', ok: false, result: 'invalid' }),
    ]);
    expect((await api('/api/sign-tasks/batch-a')).body).toMatchObject({ enabled: false });
    const run = await api<{ results: Array<{ ok: boolean }> }>('/api/batch/sign-tasks', { method: 'POST', body: { action: 'run', names: ['batch-a', 'batch-b'] } });
    expect(run.body.results.every((result) => result.ok)).toBe(true);
    await eventually(async () => (await api<{ total: number }>('/api/sign-tasks/runs/active')).body.total === 0, { timeoutMs: 10_000 });
    const history = await api<{ history: HistoryEntry[] }>('/api/sign-tasks/batch-b/history');
    expect(history.body.history[0]).toMatchObject({ account_name: 'bob', trigger: 'batch', success: true });
    const removed = await api<{ succeeded: number }>('/api/batch/sign-tasks', { method: 'POST', body: { action: 'delete', names: ['batch-a', 'batch-b'] } });
    expect(removed.body.succeeded).toBe(2);
    expect((await api('/api/sign-tasks/batch-a')).status).toBe(404);
  });

  it('runs a task now: sends text, dice and clicks a button, records the replies in history, the sign_logs table and last_run', async () => {
    await create(task('full', {
      chats: [
        {
          chat_id: '@checkin_bot',
          action_interval: 0,
          actions: [
            { action: 1, text: '/checkin' },
            { action: 2, dice: '🎲' },
            { action: 1, text: '/menu' },
            { action: 3, text: 'Sign' },
          ],
        },
      ],
    }));
    const status = await runAndWait('full');
    expect(status).toMatchObject({ state: 'finished', success: true, failure_category: 'none' });
    const messages = status.logs.map((entry) => entry.message);
    expect(messages).toEqual(expect.arrayContaining(['sent: /checkin', 'reply: Checked in! +10 points', 'reply: Nice roll', 'clicked "Sign"; bot answered: Signed via button']));

    const history = await api<{ history: HistoryEntry[] }>('/api/sign-tasks/full/history');
    expect(history.body.history).toHaveLength(1);
    expect(history.body.history[0]).toMatchObject({ account_name: 'alice', trigger: 'manual', success: true, state: 'finished' });
    expect(history.body.history[0].flow_log.map((entry) => entry.message)).toContain('reply: Checked in! +10 points');
    // The flow log is in the run's sign_logs row (any replica shows it), not in a file of the data directory.
    expect(existsSync(join(panel.dataDir, '.signer', 'history', 'full'))).toBe(false);
    expect((await api('/api/sign-tasks/full')).body).toMatchObject({ last_run: { success: true, account_name: 'alice' } });

    // The in-memory flow log is reclaimed ACTIVE_LOG_CLEANUP_DELAY_SECONDS (1 s here) after the end; history keeps it.
    await eventually(async () => (await api<RunStatus>('/api/sign-tasks/full/run/status')).body.logs.length === 0, { timeoutMs: 5_000 });
    expect((await api<{ history: HistoryEntry[] }>('/api/sign-tasks/full/history')).body.history[0].flow_log.length).toBeGreaterThan(3);
    expect((await api('/api/sign-tasks/listen-hits/run', { method: 'POST', body: {} })).status).toBe(400);
    expect((await api('/api/sign-tasks/full/run', { method: 'POST', body: { account_name: 'bob' } })).status).toBe(400);
  });

  it('deletes what a run sent in a chat delete_after seconds after its actions, without holding the run; bot replies and other chats stay', async () => {
    await create(task('tidy', {
      chats: [
        { chat_id: '@checkin_bot', delete_after: 3, actions: [{ action: 1, text: 'tidy-text' }, { action: 2, dice: '🎯' }] },
        { chat_id: '@checkin_bot', actions: [{ action: 1, text: 'tidy-keep' }] },
      ],
    }));
    const chat = () => telegram.history(alice.id, checkinBot.id);
    const started = Date.now();
    const status = await runAndWait('tidy');
    expect(status).toMatchObject({ state: 'finished', success: true });
    expect(status.logs.map((entry) => entry.message)).toContain('2 sent message(s) in @checkin_bot will be deleted in 3 s');
    const sent = chat().filter((m) => m.out && (m.text === 'tidy-text' || m.text === '🎯'));
    expect(sent).toHaveLength(2);

    await eventually(async () => !chat().some((m) => m.text === 'tidy-text'), { timeoutMs: 6_000, intervalMs: 100 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(3_000);
    expect(chat().some((m) => m.out && m.text === '🎯')).toBe(false);
    expect(chat().some((m) => !m.out && m.text === 'unknown: tidy-text')).toBe(true);
    expect(chat().some((m) => m.out && m.text === 'tidy-keep')).toBe(true);
    expect(telegram.deletions.at(-1)).toMatchObject({ userId: alice.id, chatId: checkinBot.id, messageIds: expect.arrayContaining(sent.map((m) => m.id)) });
    expect(telegram.deletions.at(-1)?.messageIds).toHaveLength(2);
    // The run was over before the deletion (it did not sleep through delete_after).
    expect(telegram.deletions.at(-1)?.at).toBeGreaterThanOrEqual(Date.parse(status.finished_at ?? ''));
  });

  it('answers with the AI model: picks the option in an image (4) and solves a calculation (5)', async () => {
    openai.setReply((request) => {
      const system = String(request.messages[0]?.content ?? '');
      if (system.includes('Options')) return 'Dog';
      return '7';
    });
    await create(task('ai', {
      chats: [
        {
          chat_id: '@checkin_bot',
          actions: [
            { action: 1, text: '/captcha' },
            { action: 4, ai_prompt: 'The picture shows a dog.' },
            { action: 1, text: '/math' },
            { action: 5 },
          ],
        },
      ],
    }));
    const status = await runAndWait('ai');
    expect(status).toMatchObject({ success: true, failure_category: 'none' });
    const messages = status.logs.map((entry) => entry.message);
    expect(messages).toEqual(expect.arrayContaining(['model answered: Dog', 'clicked "Dog"; bot answered: Right animal', 'sent: 7', 'reply: Correct, signed in']));
    const vision = openai.completions.find((completion) => JSON.stringify(completion.messages).includes('image_url'));
    expect(JSON.stringify(vision?.messages)).toContain('data:image/jpeg;base64,');
  });

  it('maps failures to categories: ai_timeout, button_not_found, target_not_found, flood_wait, session_invalid', async () => {
    openai.setReply(() => '7');
    openai.failNext({ kind: 'delay', ms: 3_000 });
    await create(task('ai-slow', { chats: [{ chat_id: '@checkin_bot', actions: [{ action: 1, text: '/math' }, { action: 5 }] }] }));
    expect(await runAndWait('ai-slow')).toMatchObject({ state: 'finished', success: false, failure_category: 'ai_timeout' });

    await create(task('no-button', { chats: [{ chat_id: '@checkin_bot', actions: [{ action: 1, text: '/menu' }, { action: 3, text: 'Nope' }] }] }));
    expect(await runAndWait('no-button')).toMatchObject({ success: false, failure_category: 'button_not_found' });

    await create(task('no-chat', { chats: [{ chat_id: '@nobody_here_bot', actions: [{ action: 1, text: 'hi' }] }] }));
    expect(await runAndWait('no-chat')).toMatchObject({ success: false, failure_category: 'target_not_found' });

    await create(task('flood', { account_name: 'bob' }));
    telegram.floodWaitNext(1, { accountName: 'bob', method: 'sendMessage' });
    expect(await runAndWait('flood')).toMatchObject({ success: false, failure_category: 'flood_wait' });

    const carol = telegram.createUser({ phone: '+31 600 000 103' });
    const carolSession = telegram.issueSession(carol.id);
    expect((await api('/api/accounts/import-session', { method: 'POST', body: { account_name: 'carol', session_string: carolSession } })).status).toBe(201);
    await create(task('revoked', { account_name: 'carol', retry_count: 3 }));
    telegram.revokeSession(carolSession);
    const revoked = await runAndWait('revoked');
    expect(revoked).toMatchObject({ success: false, failure_category: 'session_invalid', attempts: 1 });
    expect((await api('/api/accounts/carol')).body).toMatchObject({ needs_relogin: true });
    // Once flagged, the run stops while checking the account.
    expect(await runAndWait('revoked')).toMatchObject({ success: false, failure_category: 'session_invalid' });

    const history = await api<{ history: HistoryEntry[] }>('/api/sign-tasks/ai-slow/history');
    expect(history.body.history[0]).toMatchObject({ success: false, failure_category: 'ai_timeout' });
  });

  it('retries resume from the failed step', async () => {
    await create(task('resume', {
      retry_count: 2,
      chats: [{ chat_id: '@checkin_bot', actions: [{ action: 1, text: '/menu' }, { action: 3, text: 'Sign' }, { action: 1, text: '/checkin' }] }],
    }));
    const sendsBefore = telegram.callsOf('sendMessage', 'alice').length;
    const clicksBefore = telegram.callsOf('clickButton', 'alice').length;
    telegram.failNext(() => new TelegramError('connection_error', 'Cannot reach Telegram (ECONNRESET)'), {
      accountName: 'alice',
      method: 'clickButton',
    });
    const status = await runAndWait('resume');
    expect(status).toMatchObject({ success: true, attempts: 2, failure_category: 'none' });
    expect(telegram.callsOf('sendMessage', 'alice').length - sendsBefore).toBe(2);
    expect(telegram.callsOf('clickButton', 'alice').length - clicksBefore).toBe(2);
    expect(status.logs.some((entry) => entry.level === 'warn' && /network_proxy.*retrying from this step/.test(entry.message) && entry.step === 'chat 1 action 2')).toBe(true);
  });

  it('runs one task per account at a time (waiting_lock), cancels cooperatively, and times out', async () => {
    await create(task('slow', { chats: [{ chat_id: '@checkin_bot', actions: [{ action: 1, text: '/checkin', delay: 30 }] }] }));
    await create(task('second'));
    expect((await api('/api/sign-tasks/slow/run', { method: 'POST', body: {} })).status).toBe(202);
    expect(await api('/api/sign-tasks/slow/run', { method: 'POST', body: {} })).toMatchObject({
      status: 409,
      body: { statusCode: 409, error: 'Conflict', message: 'Task slow is already running', code: 'task_busy' },
    });
    expect((await api('/api/sign-tasks/second/run', { method: 'POST', body: {} })).status).toBe(202);
    await eventually(async () => {
      const active = await api<{ runs: Array<{ task_name: string; phase: string; account_name: string }> }>('/api/sign-tasks/runs/active');
      const phases = Object.fromEntries(active.body.runs.map((run) => [run.task_name, run.phase]));
      return phases['slow'] === 'running' && phases['second'] === 'waiting_lock';
    }, { timeoutMs: 5_000, intervalMs: 50 });

    const cancel = await api<{ cancelled: number }>('/api/sign-tasks/slow/run/cancel', { method: 'POST' });
    expect(cancel.body.cancelled).toBe(1);
    await eventually(async () => (await api<RunStatus>('/api/sign-tasks/slow/run/status')).body.state === 'cancelled', { timeoutMs: 3_000, intervalMs: 50 });
    const second = await eventually(async () => {
      const status = (await api<RunStatus>('/api/sign-tasks/second/run/status')).body;
      return status.state === 'finished' ? status : undefined;
    }, { timeoutMs: 5_000, intervalMs: 50 });
    expect(second).toMatchObject({ success: true });
    expect((await api<{ history: HistoryEntry[] }>('/api/sign-tasks/slow/history')).body.history[0]).toMatchObject({ state: 'cancelled', success: false });

    // A run that needs longer than the run timeout (4 s in this test) ends as `timeout`.
    await create(task('too-long', { account_name: 'bob', chats: [{ chat_id: '@checkin_bot', actions: [{ action: 1, text: '/checkin', delay: 10 }] }] }));
    const timedOut = await runAndWait('too-long');
    expect(timedOut).toMatchObject({ state: 'timeout', success: false, failure_category: 'timeout' });
    expect((await api('/api/sign-tasks/nothing/run/cancel', { method: 'POST' })).status).toBe(404);
  });

  it('fires a scheduled run from a 6-field cron a moment ahead', async () => {
    // Far enough ahead that the create and the scheduler's re-sync are done before it, also on a busy machine.
    const at = new Date(Date.now() + 4_000);
    const cron = `${at.getUTCSeconds()} ${at.getUTCMinutes()} ${at.getUTCHours()} * * *`;
    await create(task('scheduled', { account_name: 'bob', sign_at: cron }));
    const jobs = await api<{ jobs: Array<{ id: string; next_run_at: string | null }> }>('/api/ops/scheduled-jobs');
    const job = jobs.body.jobs.find((entry) => entry.id === 'sign-bob-scheduled');
    expect(Math.abs(Date.parse(job?.next_run_at ?? '') - Math.floor(at.getTime() / 1000) * 1000)).toBeLessThan(1_000);
    const entry = await eventually(async () => (await api<{ history: HistoryEntry[] }>('/api/sign-tasks/scheduled/history')).body.history[0], { timeoutMs: 10_000, intervalMs: 100 });
    expect(entry).toMatchObject({ trigger: 'schedule', account_name: 'bob', success: true });
  });

  it('notifies through the bot on success and failure as the task and the settings ask', async () => {
    const saved = await api('/api/config/settings', {
      method: 'PUT',
      body: { bot_token: '123456:notify-token', bot_chat_id: '4242', bot_notify_enabled: true, bot_notify_task_success: true, bot_notify_task_failure: true },
    });
    expect(saved.status).toBeLessThan(300);
    await create(task('notified', { notify_on_success: true }));
    await create(task('quiet-failure', { notify_on_failure: false, chats: [{ chat_id: '@nobody_here_bot', actions: [{ action: 1, text: 'x' }] }] }));
    await create(task('loud-failure', { chats: [{ chat_id: '@nobody_here_bot', actions: [{ action: 1, text: 'x' }] }] }));
    await runAndWait('notified');
    await runAndWait('quiet-failure');
    await runAndWait('loud-failure');
    const texts = await eventually(async () => {
      const sent = bot.messagesTo('4242').map((message) => message.plainText);
      return sent.length >= 2 ? sent : undefined;
    });
    expect(texts).toHaveLength(2);
    expect(texts[0]).toMatch(/Sign task notified succeeded[\s\S]*Account: alice/);
    expect(texts[1]).toMatch(/Sign task loud-failure failed[\s\S]*Category: Chat not found/);
  });

  it('streams ready, then sign_log per finished run, with keep-alives; no listener is left behind', async () => {
    const controller = new AbortController();
    const response = await fetch(`${panel.url}/api/events/sign-history?token=${token}`, { signal: controller.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    // Private run history: no cache keeps it (issue 29 item 4), no proxy transforms the stream.
    expect(response.headers.get('cache-control')).toBe('no-store, no-transform');
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    const readUntil = async (predicate: (all: string) => boolean): Promise<void> => {
      while (!predicate(text)) {
        const chunk = await reader.read();
        if (chunk.done) throw new Error(`stream ended: ${text}`);
        text += decoder.decode(chunk.value, { stream: true });
      }
    };
    await readUntil((all) => all.includes('event: ready'));
    const clients = async () => ((await api<{ components: Record<string, { details: { clients: number } }> }>('/api/ops/runtime-status')).body.components['sign_history_stream'].details.clients);
    expect(await clients()).toBe(1);

    await runAndWait('second');
    await readUntil((all) => all.includes('event: sign_log'));
    const block = text.slice(text.indexOf('event: sign_log'));
    const data = JSON.parse(/data: (.*)\n/.exec(block)?.[1] ?? '{}');
    expect(data).toEqual({ account_name: 'alice', task_name: 'second', success: true, message: expect.any(String), message_code: null, message_params: {}, created_at: expect.any(String), failure_category: 'none' });
    expect(text.indexOf('event: ready')).toBeLessThan(text.indexOf('event: sign_log'));
    await readUntil((all) => all.includes(': keep-alive'));

    controller.abort();
    await reader.cancel().catch(() => undefined);
    await eventually(async () => (await clients()) === 0, { timeoutMs: 3_000, intervalMs: 50 });
  });

  it('reports the scheduler lock on /readyz', async () => {
    const ready = await requestJson<{ scheduler_lock: { enabled: boolean; held: boolean } }>(panel.url, '/readyz');
    if (testDatabaseDriver() === 'postgres') {
      // Replicas on PostgreSQL: the leader lease in the database replaces the file (cluster-leases.e2e-spec.ts).
      expect(ready.body.scheduler_lock).toMatchObject({ enabled: false, held: true });
      return;
    }
    expect(ready.body.scheduler_lock).toMatchObject({ enabled: true, held: true });
    expect(JSON.parse(readFileSync(join(panel.dataDir, '.scheduler.lock'), 'utf8'))).toMatchObject({ pid: process.pid });
  });
});
