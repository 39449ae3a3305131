import { LocalTelegramBotApi, requestJson } from '@shared/testing';
import { KeywordListenersService } from '../src/app/listeners/keyword-listeners.service';
import { RUN_TIMINGS, RunTimings } from '../src/app/runs/run-timings';
import { AccountGovernor } from '../src/app/governor/account-governor';
import { GOVERNOR_CLOCK } from '../src/app/governor/governor-clock';
import { SendOptions, TELEGRAM_GATEWAY, TelegramChatRef, TelegramMessage, TelegramSession } from '../src/app/telegram/telegram-gateway';
import { addCheckInBots } from './check-in-bots';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';
import { SimUser, TelegramSimulator } from './telegram-simulator';
import { VirtualClock } from './virtual-clock';

const TEST_TIMINGS: RunTimings = {
  replyWaitMs: 30,
  aiTimeoutMs: 700,
  accountCooldownMs: 10,
  runTimeoutMs: 8_000,
  retryDelayMs: 20,
  telegramCallTimeoutMs: 2_000,
  sseKeepAliveMs: 300,
  verdictPollMs: 30,
};

const BURST = '-1008800001';
const GUARDED = '-1008800002';

/**
 * The simulator, noting of every message an account sends the governor's (virtual) time of its
 * reservation. The governor holds the account's chain until the send ends, so while a send is
 * under way the latest write time it counted is that send's own.
 */
class TimedSimulator extends TelegramSimulator {
  readonly sent: Array<{ account: string; chat: string; at: number }> = [];
  governor?: AccountGovernor;

  override async sendMessage(session: TelegramSession, chat: TelegramChatRef, text: string, options?: SendOptions): Promise<TelegramMessage> {
    const budget = (this.governor as unknown as { budgets: Map<string, { minute: number[] }> } | undefined)?.budgets.get(session.accountName);
    const reservedAt = budget?.minute.at(-1);
    const message = await super.sendMessage(session, chat, text, options);
    if (reservedAt !== undefined) this.sent.push({ account: session.accountName, chat: String(chat), at: reservedAt });
    return message;
  }
}

interface Safety {
  account_name: string;
  paused: boolean;
  pause_reason: string | null;
  minute_used: number;
  minute_limit: number;
  day_used: number;
  day_limit: number;
  refused_today: number;
  calls_today: number;
  flood_wait_until: string | null;
  flood_waits: Array<{ at: string; seconds: number; method: string }>;
}

interface RunStatus {
  run_id: string | null;
  state: string;
  phase: string | null;
  success: boolean | null;
  failure_category: string;
  error: string | null;
  runs: RunStatus[];
}

async function eventually<T>(check: () => Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
}

describe('account safety governor: spacing, caps, FloodWait pause and resume, listen rule throttles (issue 35)', () => {
  const clock = new VirtualClock();
  const telegram = new TimedSimulator();
  const bot = new LocalTelegramBotApi({ token: '123456:safety-token' });
  let panel: RunningPanel;
  let token: string;
  let alice: SimUser;
  let carol: SimUser;

  const api = <T = Record<string, unknown>>(path: string, options: { method?: string; body?: unknown; token?: string | null } = {}) =>
    requestJson<T>(panel.url, path, { method: options.method, body: options.body, token: options.token === null ? undefined : (options.token ?? token) });
  const settled = () => panel.app.get(KeywordListenersService).settled();
  const hits = async (query: string) => (await api<{ items: Array<{ push_status: string; push_error: string | null; text: string }> }>(`/api/keyword-hits?limit=500${query}`)).body.items;

  /** The account's listener caught up and listens (messages before that are history, never hits). */
  const listening = (account: string) =>
    eventually(async () => {
      const status = await api<{ components: Record<string, { details?: { accounts?: Record<string, { state: string }> } }> }>('/api/ops/runtime-status');
      return status.body.components['keyword_listeners']?.details?.accounts?.[account]?.state === 'listening';
    });

  const runAndWait = async (name: string): Promise<RunStatus> => {
    const started = await api<{ runs: Array<{ run_id: string }> }>(`/api/sign-tasks/${name}/run`, { method: 'POST', body: {} });
    expect(started.status).toBe(202);
    const runId = started.body.runs[0].run_id;
    let status: RunStatus | undefined;
    await eventually(async () => {
      status = (await api<RunStatus>(`/api/sign-tasks/${name}/run/status`)).body.runs.find((run) => run.run_id === runId);
      return status !== undefined && status.state !== 'running' && status.phase !== 'finalizing';
    });
    return status as RunStatus;
  };

  beforeAll(async () => {
    await bot.start();
    alice = telegram.createUser({ phone: '+31 600 000 361', firstName: 'Alice' });
    carol = telegram.createUser({ phone: '+31 600 000 363', firstName: 'Carol' });
    const bob = telegram.createUser({ phone: '+31 600 000 362', firstName: 'Bob' });
    telegram.addGroup({ id: BURST, title: 'Giveaways' });
    telegram.addGroup({ id: GUARDED, title: 'Guarded' });
    addCheckInBots(telegram);
    panel = await startPanel({
      env: { MSGR_SESSION_MODE: 'string', APP_BOT_API_BASE_URL: bot.apiBaseUrl },
      overrides: [
        { provide: TELEGRAM_GATEWAY, useValue: telegram },
        { provide: RUN_TIMINGS, useValue: TEST_TIMINGS },
        { provide: GOVERNOR_CLOCK, useValue: clock },
      ],
    });
    telegram.governor = panel.app.get(AccountGovernor);
    token = await loginAsAdmin(panel);
    for (const [name, user] of [
      ['alice', alice],
      ['bob', bob],
      ['carol', carol],
    ] as const) {
      expect((await api('/api/accounts/import-session', { method: 'POST', body: { account_name: name, session_string: telegram.issueSession(user.id) } })).status).toBe(201);
    }
    const settings = await api('/api/config/settings', {
      method: 'PUT',
      body: {
        safety_min_spacing_seconds: 2,
        safety_per_minute: 10,
        safety_per_day: 30,
        safety_jitter_ms: 500,
        safety_flood_pause_seconds: 600,
        bot_token: bot.token,
        bot_chat_id: '4242',
        bot_notify_enabled: true,
      },
    });
    expect({ status: settings.status, body: settings.body }).toMatchObject({ status: 200, body: { safety_per_minute: 10, safety_per_day: 30 } });
  });

  afterAll(async () => {
    await panel?.close();
    await bot.close();
  });

  it('refuses the safety routes without a token, for unknown accounts and bad names; refuses bad limits', async () => {
    expect((await api('/api/accounts/alice/safety', { token: null })).status).toBe(401);
    expect((await api('/api/accounts/alice/safety/resume', { method: 'POST', token: null })).status).toBe(401);
    const missing = await api<{ code: string }>('/api/accounts/nobody/safety');
    expect({ status: missing.status, code: missing.body.code }).toEqual({ status: 404, code: 'account_not_found' });
    expect((await api('/api/accounts/nobody/safety/resume', { method: 'POST' })).status).toBe(404);
    expect((await api(`/api/accounts/${encodeURIComponent('a b')}/safety`)).status).toBe(400);
    const bad = await api<{ message: unknown }>('/api/config/settings', { method: 'PUT', body: { safety_per_minute: 0 } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.message)).toContain('safety_per_minute');
    expect(await api<Safety>('/api/accounts/alice/safety')).toMatchObject({ status: 200, body: { account_name: 'alice', paused: false, day_used: 0, day_limit: 30, minute_limit: 10 } });
  });

  it('spaces and caps a burst of 100 listener replies: 2 s apart, at most 10 a minute, 30 a day; the rest are skipped', async () => {
    const created = await api('/api/sign-tasks', {
      method: 'POST',
      body: {
        name: 'thanks',
        account_name: 'alice',
        execution_mode: 'listen',
        chats: [{ chat_id: Number(BURST), actions: [{ action: 8, keywords: ['gift'], push_channel: 'continue', continue_actions: [{ action: 1, text: 'thanks {sender}' }] }] }],
      },
    });
    expect(created.status).toBe(201);
    await listening('alice');
    for (let index = 0; index < 100; index += 1) telegram.pushIncoming(alice.id, BURST, { text: `gift #${index}`, senderId: String(7_000_000 + index), senderName: `user${index}` });
    // A hundred hits written and answered one after another: bounded generously for a loaded machine.
    await eventually(async () => (await hits('&task=thanks')).length === 100, 90_000);
    await settled();
    await eventually(async () => (await hits('&task=thanks')).every((hit) => hit.push_status !== 'pending'), 90_000);

    const sends = telegram.sent.filter((send) => send.account === 'alice' && send.chat === BURST);
    expect(sends).toHaveLength(30);
    // The reservations (not the arrivals: storing the day's count comes between, 220 ms and more on a
    // starved machine) are 2 s apart and at most 10 in any minute.
    for (let index = 1; index < sends.length; index += 1) expect(sends[index].at - sends[index - 1].at).toBeGreaterThanOrEqual(2_000);
    for (const send of sends) expect(sends.filter((other) => other.at >= send.at && other.at < send.at + 60_000).length).toBeLessThanOrEqual(10);
    // Thirty sends at ten a minute take at least two minutes of (virtual) time.
    expect(sends[29].at - sends[0].at).toBeGreaterThanOrEqual(120_000);

    const all = await hits('&task=thanks');
    expect(all.filter((hit) => hit.push_status === 'sent')).toHaveLength(30);
    const skipped = all.filter((hit) => hit.push_status === 'skipped');
    expect(skipped).toHaveLength(70);
    expect(skipped[0].push_error).toContain('daily budget of 30');
    const safety = await api<Safety>('/api/accounts/alice/safety');
    expect(safety.body).toMatchObject({ day_used: 30, day_limit: 30, refused_today: 70, paused: false });
    expect(safety.body.calls_today).toBeGreaterThan(30);
  });

  it('applies a listen rule\'s exclude_user_ids, cooldown and max_daily, and keeps them through export and import', async () => {
    const task = {
      name: 'guarded',
      account_name: 'carol',
      execution_mode: 'listen',
      chats: [
        {
          chat_id: Number(GUARDED),
          actions: [{ action: 8, keywords: ['hello'], push_channel: 'continue', continue_actions: [{ action: 1, text: 'hi' }], cooldown: 3600, max_daily: 5, probability: 1, exclude_user_ids: ['5550009', 5550010] }],
        },
      ],
    };
    expect((await api('/api/sign-tasks', { method: 'POST', body: task })).status).toBe(201);
    await listening('carol');
    telegram.pushIncoming(carol.id, GUARDED, { text: 'hello from an excluded user', senderId: '5550009' });
    telegram.pushIncoming(carol.id, GUARDED, { text: 'hello one', senderId: '5550001' });
    await eventually(async () => (await hits('&task=guarded')).length === 1);
    await settled();
    telegram.pushIncoming(carol.id, GUARDED, { text: 'hello two', senderId: '5550002' });
    await eventually(async () => (await hits('&task=guarded')).length === 2);
    await settled();
    const guarded = await eventually(async () => {
      const items = await hits('&task=guarded');
      return items.every((hit) => hit.push_status !== 'pending') && items;
    });
    expect(guarded.map((hit) => [hit.text, hit.push_status])).toEqual(
      expect.arrayContaining([
        ['hello one', 'sent'],
        ['hello two', 'skipped'],
      ]),
    );
    expect(guarded.find((hit) => hit.text === 'hello two')?.push_error).toMatch(/^skipped: cooldown of 3600 s/);
    expect(telegram.sent.filter((send) => send.account === 'carol')).toHaveLength(1);

    const exported = await api<Record<string, unknown>>('/api/config/export/sign/guarded');
    expect(exported.status).toBe(200);
    expect(JSON.stringify(exported.body)).toContain('"exclude_user_ids":["5550009",5550010]');
    expect(JSON.stringify(exported.body)).toContain('"cooldown":3600');
  });

  it('obeys a FloodWait exactly, pauses the account above the threshold, notifies, and resumes', async () => {
    const created = await api('/api/sign-tasks', {
      method: 'POST',
      body: { name: 'bob-sign', account_name: 'bob', sign_at: '0 8 * * *', execution_mode: 'fixed', retry_count: 0, notify_on_failure: false, chats: [{ chat_id: '@sign_ok_bot', actions: [{ action: 1, text: '/sign' }] }] },
    });
    expect(created.status).toBe(201);

    telegram.floodWaitNext(5, { accountName: 'bob', method: 'sendMessage' });
    expect(await runAndWait('bob-sign')).toMatchObject({ success: false, failure_category: 'flood_wait' });
    const held = await api<Safety>('/api/accounts/bob/safety');
    expect(held.body).toMatchObject({ paused: false, flood_waits: [{ seconds: 5, method: 'sendMessage' }] });
    expect(held.body.flood_wait_until).not.toBeNull();
    const floodAt = Date.parse(held.body.flood_waits[0].at);
    const until = Date.parse(held.body.flood_wait_until as string);
    // Held back exactly: 5 s plus at most the 0.5 s of jitter.
    expect(until - floodAt).toBeGreaterThanOrEqual(5_000);
    expect(until - floodAt).toBeLessThanOrEqual(5_500);
    const sleepsBefore = clock.sleeps.length;
    expect(await runAndWait('bob-sign')).toMatchObject({ success: true });
    // The next write waited until the FloodWait was over, and not by chance: the governor slept for it.
    expect(clock.sleeps.length).toBeGreaterThan(sleepsBefore);
    const bobSends = telegram.sent.filter((send) => send.account === 'bob');
    expect(bobSends[bobSends.length - 1].at).toBeGreaterThanOrEqual(until);

    telegram.floodWaitNext(900, { accountName: 'bob', method: 'sendMessage' });
    expect(await runAndWait('bob-sign')).toMatchObject({ success: false, failure_category: 'flood_wait' });
    const paused = await api<Safety>('/api/accounts/bob/safety');
    expect(paused.body).toMatchObject({ paused: true, pause_reason: 'FloodWait of 900 s on sendMessage' });
    const notice = await eventually(async () => bot.messagesTo('4242').find((message) => message.plainText.includes('Automation of bob paused')));
    expect(notice.plainText).toContain('900 s');

    const sendsBefore = telegram.callsOf('sendMessage', 'bob').length;
    const refused = await runAndWait('bob-sign');
    expect(refused).toMatchObject({ success: false, failure_category: 'safety_limit' });
    expect(refused.error).toContain('paused');
    expect(telegram.callsOf('sendMessage', 'bob')).toHaveLength(sendsBefore);

    const resumed = await api<Safety>('/api/accounts/bob/safety/resume', { method: 'POST' });
    expect(resumed).toMatchObject({ status: 200, body: { paused: false } });
    const longUntil = Date.parse(paused.body.flood_wait_until as string);
    expect(longUntil - Date.parse(paused.body.flood_waits[0].at)).toBeGreaterThanOrEqual(900_000);
    expect(await runAndWait('bob-sign')).toMatchObject({ success: true });
    // Resuming does not shorten the FloodWait: the write still waited out the 900 s.
    const afterResume = telegram.sent.filter((send) => send.account === 'bob');
    expect(afterResume[afterResume.length - 1].at).toBeGreaterThanOrEqual(longUntil);
  });

  it('keeps a pause, the day budget used and a FloodWait in force across a restart', async () => {
    telegram.floodWaitNext(1_200, { accountName: 'bob', method: 'sendMessage' });
    expect(await runAndWait('bob-sign')).toMatchObject({ failure_category: 'flood_wait' });
    const bobBefore = (await api<Safety>('/api/accounts/bob/safety')).body;
    expect(bobBefore.paused).toBe(true);
    const aliceBefore = (await api<Safety>('/api/accounts/alice/safety')).body;
    // Alice used her whole day in the burst above: a restart must not give her a fresh one.
    expect(aliceBefore.day_used).toBe(30);
    const dataDir = panel.dataDir;
    const databaseUrl = (panel as RunningPanel & { databaseUrl?: string }).databaseUrl;
    await panel.stop();
    panel = await startPanel({
      reuse: { dataDir, databaseUrl },
      env: { MSGR_SESSION_MODE: 'string', APP_BOT_API_BASE_URL: bot.apiBaseUrl },
      overrides: [
        { provide: TELEGRAM_GATEWAY, useValue: telegram },
        { provide: RUN_TIMINGS, useValue: TEST_TIMINGS },
        { provide: GOVERNOR_CLOCK, useValue: clock },
      ],
    });
    token = await loginAsAdmin(panel);
    expect((await api<Safety>('/api/accounts/bob/safety')).body).toMatchObject({
      paused: true,
      flood_waits: expect.arrayContaining([expect.objectContaining({ seconds: 1_200 })]),
      day_used: bobBefore.day_used,
      flood_wait_until: bobBefore.flood_wait_until,
    });
    expect((await api<Safety>('/api/accounts/alice/safety')).body).toMatchObject({ day_used: 30, day_limit: 30 });
    expect((await api<Safety>('/api/accounts/bob/safety/resume', { method: 'POST' })).body.paused).toBe(false);
  });
});
