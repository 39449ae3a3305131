import { requestJson } from '@shared/testing';
import { RUN_TIMINGS, RunTimings } from '../src/app/runs/run-timings';
import { TELEGRAM_GATEWAY } from '../src/app/telegram/telegram-gateway';
import { addCheckInBots } from './check-in-bots';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';
import { TelegramSimulator } from './telegram-simulator';

const TEST_TIMINGS: RunTimings = {
  replyWaitMs: 200,
  aiTimeoutMs: 700,
  accountCooldownMs: 20,
  runTimeoutMs: 8_000,
  retryDelayMs: 20,
  telegramCallTimeoutMs: 2_000,
  sseKeepAliveMs: 300,
  verdictPollMs: 30,
};

interface Recipe {
  id: string;
  title: { en: string; zh: string };
  task: { chats: Array<{ chat_id: string; actions: Array<{ action: number }>; verdict?: Record<string, unknown> }> };
}

describe('task recipes: the catalog, a task exported as a recipe and imported back (issue 35)', () => {
  const telegram = new TelegramSimulator();
  let panel: RunningPanel;
  let token: string;

  const api = <T = Record<string, unknown>>(path: string, options: { method?: string; body?: unknown; token?: string | null } = {}) =>
    requestJson<T>(panel.url, path, { method: options.method, body: options.body, token: options.token === null ? undefined : (options.token ?? token) });

  beforeAll(async () => {
    const alice = telegram.createUser({ phone: '+31 600 000 371', firstName: 'Alice' });
    addCheckInBots(telegram);
    panel = await startPanel({
      env: { MSGR_SESSION_MODE: 'string' },
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
  });

  it('refuses the recipe routes without a token and bad input with 400', async () => {
    expect((await api('/api/task-recipes', { token: null })).status).toBe(401);
    expect((await api('/api/sign-tasks/x/recipe', { token: null })).status).toBe(401);
    expect((await api('/api/task-recipes/import', { method: 'POST', body: {}, token: null })).status).toBe(401);
    expect((await api('/api/task-recipes/import', { method: 'POST', body: { name: 'x', account_name: 'alice', recipe: { format: 'other', version: 1, task: {} } } })).status).toBe(400);
    expect((await api('/api/task-recipes/import', { method: 'POST', body: { name: 'x', account_name: 'alice' } })).status).toBe(400);
    const invalid = await api<{ message: string }>('/api/task-recipes/import', {
      method: 'POST',
      body: {
        name: 'x',
        account_name: 'alice',
        recipe: { format: 'signpulse-task-recipe', version: 1, task: { execution_mode: 'fixed', sign_at: '0 8 * * *', chats: [{ chat_id: '@sign_ok_bot', actions: [{ action: 3 }], verdict: { success: [{ mode: 'regex', pattern: '(?!x)' }] } }] } },
      },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toContain('recipe.task: chats.0.actions.0.text is required');
    expect(invalid.body.message).toContain('chats.0.verdict.success.0.pattern is not a valid regular expression');
    expect((await api('/api/sign-tasks/no-such-task/recipe')).status).toBe(404);
  });

  it('lists the catalog: a command, send and click, a calculation and an image, each with its patterns, and each imports as a valid task', async () => {
    const catalog = await api<{ recipes: Recipe[] }>('/api/task-recipes');
    expect(catalog.status).toBe(200);
    expect(catalog.body.recipes.map((recipe) => recipe.id)).toEqual(['send-command', 'send-and-click', 'answer-calculation', 'pick-from-image']);
    for (const recipe of catalog.body.recipes) {
      expect(recipe.title.zh).toBeTruthy();
      expect(recipe.task.chats[0].verdict).toEqual(expect.objectContaining({ success: expect.any(Array), already_done: expect.any(Array), failure: expect.any(Array) }));
      const created = await api('/api/task-recipes/import', {
        method: 'POST',
        body: { name: `from-${recipe.id}`, account_name: 'alice', recipe: { format: 'signpulse-task-recipe', version: 1, task: recipe.task } },
      });
      expect({ status: created.status, body: created.body }).toMatchObject({ status: 201, body: { name: `from-${recipe.id}`, account_name: 'alice' } });
    }
  });

  it('exports a task as one recipe JSON without name or accounts, imports it back under a new name, and the copy runs the same', async () => {
    const original = {
      name: 'daily ok',
      account_name: 'alice',
      sign_at: '30 7 * * *',
      execution_mode: 'fixed',
      retry_count: 1,
      chats: [
        {
          chat_id: '@sign_ok_bot',
          actions: [{ action: 1, text: '/sign' }],
          verdict: { success: [{ mode: 'contains', pattern: '签到成功' }], already_done: [{ mode: 'regex', pattern: '已签到|already' }], timeout_seconds: 2 },
        },
      ],
    };
    expect((await api('/api/sign-tasks', { method: 'POST', body: original })).status).toBe(201);
    const exported = await api<{ format: string; version: number; title: string; task: Record<string, unknown> }>(`/api/sign-tasks/${encodeURIComponent('daily ok')}/recipe`);
    expect(exported.status).toBe(200);
    expect(exported.body).toMatchObject({ format: 'signpulse-task-recipe', version: 1, title: 'daily ok' });
    expect(Object.keys(exported.body.task)).not.toEqual(expect.arrayContaining(['name']));
    for (const key of ['name', 'account_name', 'account_names', 'last_run', 'created_at', 'updated_at']) expect(exported.body.task).not.toHaveProperty(key);

    const imported = await api('/api/task-recipes/import', { method: 'POST', body: { name: 'daily copy', account_name: 'alice', recipe: exported.body } });
    expect(imported.status).toBe(201);
    const copy = await api<Record<string, unknown>>(`/api/sign-tasks/${encodeURIComponent('daily copy')}`);
    const source = await api<Record<string, unknown>>(`/api/sign-tasks/${encodeURIComponent('daily ok')}`);
    for (const key of ['chats', 'sign_at', 'execution_mode', 'retry_count', 'random_seconds']) expect(copy.body[key]).toEqual(source.body[key]);
    expect((await api('/api/task-recipes/import', { method: 'POST', body: { name: 'daily copy', account_name: 'alice', recipe: exported.body } })).status).toBe(409);

    const started = await api<{ runs: Array<{ run_id: string }> }>(`/api/sign-tasks/${encodeURIComponent('daily copy')}/run`, { method: 'POST', body: {} });
    expect(started.status).toBe(202);
    const deadline = Date.now() + 10_000;
    let verdict: string | null = null;
    while (Date.now() < deadline && verdict === null) {
      const runs = await api<{ items: Array<{ verdict: string | null }> }>(`/api/runs?task=${encodeURIComponent('daily copy')}`);
      verdict = runs.body.items[0]?.verdict ?? null;
      if (verdict === null) await new Promise((resolve) => setTimeout(resolve, 40));
    }
    expect(verdict).toBe('success');
  });
});
