import { requestJson, waitFor } from '@shared/testing';
import { RUN_TIMINGS, RunTimings } from '../src/app/runs/run-timings';
import { TaskRunner } from '../src/app/runs/task-runner.service';
import { TELEGRAM_GATEWAY } from '../src/app/telegram/telegram-gateway';
import { addCheckInBots, CheckInBots } from './check-in-bots';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';
import { TelegramSimulator } from './telegram-simulator';

const TIMINGS: RunTimings = {
  replyWaitMs: 300,
  aiTimeoutMs: 700,
  accountCooldownMs: 50,
  runTimeoutMs: 8_000,
  retryDelayMs: 50,
  telegramCallTimeoutMs: 2_000,
  sseKeepAliveMs: 300,
  verdictPollMs: 40,
  // "请 37 分钟后再试" becomes about 4.4 s: long enough to stop the service before it is due.
  namedWaitScale: 0.002,
};

interface RunListItem {
  run_id: string;
  trigger: string;
  verdict: string | null;
  verdict_text: string | null;
  success: boolean;
}

interface RunStatus {
  runs: Array<{ run_id: string; state: string; phase: string | null; verdict: string | null; verdict_text: string | null }>;
}

const PATTERNS = { success: [{ mode: 'contains', pattern: '签到成功' }], already_done: [{ mode: 'contains', pattern: '今日已签到' }] };

/** Issue 35: "run once more after the wait the bot named" is kept in the database and fires after a restart. */
describe('a rerun after the wait a bot named survives a restart', () => {
  const telegram = new TelegramSimulator();
  let bots: CheckInBots;
  let first: RunningPanel & { databaseUrl?: string };
  let panel: RunningPanel & { databaseUrl?: string };
  let token: string;

  const api = <T = Record<string, unknown>>(path: string, options: { method?: string; body?: unknown } = {}) =>
    requestJson<T>(panel.url, path, { method: options.method, body: options.body, token });
  const boot = async (reuse?: { dataDir: string; databaseUrl?: string }) => {
    panel = await startPanel({
      reuse,
      env: { MSGR_SESSION_MODE: 'string' },
      overrides: [
        { provide: TELEGRAM_GATEWAY, useValue: telegram },
        { provide: RUN_TIMINGS, useValue: TIMINGS },
      ],
    });
    token = await loginAsAdmin(panel);
  };
  const runs = async () => (await api<{ items: RunListItem[] }>('/api/runs?task=later')).body.items;
  const runOnce = async () => {
    const started = await api<{ runs: Array<{ run_id: string }> }>('/api/sign-tasks/later/run', { method: 'POST', body: {} });
    expect(started.status).toBe(202);
    const runId = started.body.runs[0].run_id;
    let finished: RunStatus['runs'][number] | undefined;
    await waitFor(async () => {
      finished = (await api<RunStatus>('/api/sign-tasks/later/run/status')).body.runs.find((run) => run.run_id === runId && run.state !== 'running' && run.phase !== 'finalizing');
      return finished !== undefined;
    });
    return finished;
  };

  beforeAll(async () => {
    const alice = telegram.createUser({ phone: '+31 600 000 471', firstName: 'Alice' });
    bots = addCheckInBots(telegram);
    await boot();
    first = panel;
    expect((await api('/api/accounts/import-session', { method: 'POST', body: { account_name: 'alice', session_string: telegram.issueSession(alice.id) } })).status).toBe(201);
    const created = await api('/api/sign-tasks', {
      method: 'POST',
      body: {
        name: 'later',
        account_name: 'alice',
        sign_at: '0 8 * * *',
        execution_mode: 'fixed',
        retry_count: 0,
        notify_on_failure: false,
        chats: [{ chat_id: `@${bots.later.username}`, actions: [{ action: 1, text: '/sign' }], verdict: { ...PATTERNS, timeout_seconds: 1 } }],
      },
    });
    expect([created.status, created.text]).toEqual([201, expect.any(String)]);
  });

  afterAll(async () => {
    await panel?.stop();
    await first?.close();
  });

  it('stores the rerun, stops before it is due, and the restarted service runs it once', async () => {
    expect(await runOnce()).toMatchObject({ verdict: 'unconfirmed', verdict_text: '签到人数过多，请 37 分钟后再试' });
    const [pending] = panel.app.get(TaskRunner).pendingReruns('later');
    expect(pending).toEqual({ account_name: 'alice', at: expect.any(String) });
    await panel.stop();
    // Stopped before it was due: only the restarted service can have run it.
    expect(Date.now()).toBeLessThan(Date.parse(pending.at));

    await boot({ dataDir: first.dataDir, databaseUrl: first.databaseUrl });
    // The restarted service armed the stored rerun. On a starved machine its start can outlast the
    // 4.4 s wait, and then the rerun may have run by now: while it is still pending after the list was
    // read, that list was read before it ran.
    const triggersBeforeDue = (await runs()).map((run) => run.trigger);
    const stillPending = panel.app.get(TaskRunner).pendingReruns('later');
    if (stillPending.length) {
      expect(stillPending).toEqual([pending]);
      expect(triggersBeforeDue).toEqual(['manual']);
    }
    await waitFor(async () => (await runs()).some((run) => run.trigger === 'rerun' && run.verdict !== null), 20_000);
    const rerun = (await runs()).find((run) => run.trigger === 'rerun');
    expect(rerun).toMatchObject({ verdict: 'success', verdict_text: '签到成功', success: true });
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(pending.at));
    expect(panel.app.get(TaskRunner).pendingReruns('later')).toEqual([]);
  });

  it('still runs again only once that day after the restart', async () => {
    bots.reset();
    expect(await runOnce()).toMatchObject({ verdict: 'unconfirmed' });
    expect(panel.app.get(TaskRunner).pendingReruns('later')).toEqual([]);
    expect((await runs()).filter((run) => run.trigger === 'rerun')).toHaveLength(1);
  });

  it('forgets a pending rerun when its task is deleted', async () => {
    const created = await api('/api/sign-tasks', {
      method: 'POST',
      body: {
        name: 'later-two',
        account_name: 'alice',
        sign_at: '0 8 * * *',
        execution_mode: 'fixed',
        retry_count: 0,
        notify_on_failure: false,
        chats: [{ chat_id: `@${bots.later.username}`, actions: [{ action: 1, text: '/sign' }], verdict: { ...PATTERNS, timeout_seconds: 1 } }],
      },
    });
    expect(created.status).toBe(201);
    bots.reset();
    const started = await api<{ runs: Array<{ run_id: string }> }>('/api/sign-tasks/later-two/run', { method: 'POST', body: {} });
    expect(started.status).toBe(202);
    await waitFor(() => panel.app.get(TaskRunner).pendingReruns('later-two').length === 1);
    expect((await api('/api/sign-tasks/later-two', { method: 'DELETE' })).status).toBe(204);
    expect(panel.app.get(TaskRunner).pendingReruns('later-two')).toEqual([]);
    await panel.stop();
    await boot({ dataDir: first.dataDir, databaseUrl: first.databaseUrl });
    expect(panel.app.get(TaskRunner).pendingReruns('later-two')).toEqual([]);
  });
});
