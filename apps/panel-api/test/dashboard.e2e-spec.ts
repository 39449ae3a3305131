import { requestJson } from '@shared/testing';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { startOfZonedDay, zonedDay, addDays } from '../src/app/dashboard/zoned-days';
import { KeywordHitsService } from '../src/app/keyword-hits/keyword-hits.service';
import { SignLog } from '../src/app/runs/entities/sign-log.entity';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';

interface RunList {
  items: { run_id: string; task_name: string; account_name: string; success: boolean; failure_category: string; created_at: string }[];
  total: number;
  limit: number;
  offset: number;
  time_zone: string;
}
interface Stats {
  time_zone: string;
  today: string;
  today_success: number;
  today_failure: number;
  today_keyword_hits: number;
  days: { day: string; success: number; failure: number; keyword_hits: number }[];
  failure_categories: { category: string; count: number }[];
}

const ZONE = 'Asia/Shanghai';

/** Runs across tasks and the dashboard's per-day counts, in the configured time zone. */
describe('runs across tasks and dashboard stats', () => {
  let panel: RunningPanel;
  let token: string;
  let today: string;
  const get = <T>(path: string, auth = true) => requestJson<T>(panel.url, path, auth ? { token } : {});

  beforeAll(async () => {
    panel = await startPanel();
    token = await loginAsAdmin(panel);
    expect((await requestJson(panel.url, '/api/config/settings', { method: 'PUT', token, body: { timezone: ZONE } })).status).toBe(200);
    today = zonedDay(new Date(), ZONE);
    const startOfToday = startOfZonedDay(today, ZONE).getTime();
    const logs = panel.app.get(DataSource).getRepository(SignLog);
    const row = (task: string, account: string, success: boolean, category: string, at: number) =>
      logs.create({ runId: randomUUID(), taskName: task, accountName: account, success, state: 'finished', failureCategory: category, message: `${task} ${success ? 'ok' : 'failed'}`, trigger: 'manual', attempts: 1, createdAt: new Date(at) });
    await logs.save([
      // Today in Shanghai (the first minute of the day: still "yesterday" in UTC).
      row('daily', 'alice', true, 'none', startOfToday + 60_000),
      row('daily', 'bob', false, 'flood_wait', startOfToday + 120_000),
      row('weekly', 'alice', false, 'session_invalid', startOfToday + 180_000),
      // The last minute of yesterday in Shanghai.
      row('daily', 'alice', true, 'none', startOfToday - 60_000),
      // Three days ago.
      row('weekly', 'bob', false, 'flood_wait', startOfZonedDay(addDays(today, -3), ZONE).getTime() + 3_600_000),
      // Long ago: outside the 14-day series.
      row('daily', 'alice', false, 'timeout', startOfZonedDay(addDays(today, -40), ZONE).getTime()),
    ]);
    const hits = panel.app.get(KeywordHitsService);
    for (const [index, at] of [startOfToday + 1000, startOfToday + 2000, startOfToday - 1000].entries()) {
      await hits.record({
        accountName: 'alice',
        taskName: 'watch',
        ruleIndex: 0,
        chatId: '-100',
        chatTitle: 'Chat',
        messageThreadId: null,
        senderId: '1',
        senderName: 'S',
        senderUsername: null,
        messageId: index + 1,
        messageText: 'deal',
        matchedKeyword: 'deal',
        messageUrl: null,
        hitAt: new Date(at),
        pushChannel: 'none',
      });
    }
  });

  afterAll(async () => {
    await panel?.close();
  });

  it('answers 401 without a token', async () => {
    for (const path of ['/api/runs', '/api/stats/dashboard', `/api/runs/${randomUUID()}`]) expect((await get(path, false)).status).toBe(401);
  });

  it('counts today, the per-day series and failure categories in the configured time zone', async () => {
    const { status, body } = await get<Stats>('/api/stats/dashboard');
    expect(status).toBe(200);
    expect(body.time_zone).toBe(ZONE);
    expect(body.today).toBe(today);
    expect([body.today_success, body.today_failure, body.today_keyword_hits]).toEqual([1, 2, 2]);
    expect(body.days).toHaveLength(14);
    expect(body.days[13]).toEqual({ day: today, success: 1, failure: 2, already_done: 0, unconfirmed: 0, keyword_hits: 2 });
    expect(body.days[12]).toEqual({ day: addDays(today, -1), success: 1, failure: 0, already_done: 0, unconfirmed: 0, keyword_hits: 1 });
    expect(body.days[10]).toEqual({ day: addDays(today, -3), success: 0, failure: 1, already_done: 0, unconfirmed: 0, keyword_hits: 0 });
    expect(body.failure_categories).toEqual([
      { category: 'flood_wait', count: 2 },
      { category: 'session_invalid', count: 1 },
    ]);
    const short = await get<Stats>('/api/stats/dashboard?days=1');
    expect(short.body.days).toEqual([{ day: today, success: 1, failure: 2, already_done: 0, unconfirmed: 0, keyword_hits: 2 }]);
  });

  it('lists runs of every task newest first with server-side filters and paging', async () => {
    const all = await get<RunList>('/api/runs');
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(6);
    expect(all.body.time_zone).toBe(ZONE);
    const times = all.body.items.map((item) => item.created_at);
    expect([...times].sort().reverse()).toEqual(times);

    const page = await get<RunList>('/api/runs?limit=2&offset=2');
    expect([page.body.items.length, page.body.total, page.body.limit, page.body.offset]).toEqual([2, 6, 2, 2]);
    expect(page.body.items.map((item) => item.run_id)).toEqual(all.body.items.slice(2, 4).map((item) => item.run_id));

    expect((await get<RunList>('/api/runs?account=bob')).body.total).toBe(2);
    expect((await get<RunList>('/api/runs?task=weekly&status=failure')).body.total).toBe(2);
    expect((await get<RunList>('/api/runs?status=success')).body.total).toBe(2);
    expect((await get<RunList>('/api/runs?failure_category=flood_wait')).body.total).toBe(2);
    expect((await get<RunList>(`/api/runs?since=${today}&until=${today}`)).body.total).toBe(3);
    expect((await get<RunList>(`/api/runs?until=${addDays(today, -1)}`)).body.total).toBe(3);
    expect((await get<RunList>(`/api/runs?since=${addDays(today, -3)}&until=${addDays(today, -1)}`)).body.total).toBe(2);
  });

  it('returns one run with its step log, and 404 for an unknown one', async () => {
    const all = await get<RunList>('/api/runs?limit=1');
    const detail = await get<{ run_id: string; flow_log: unknown[]; message: string }>(`/api/runs/${all.body.items[0].run_id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.run_id).toBe(all.body.items[0].run_id);
    expect(Array.isArray(detail.body.flow_log)).toBe(true);
    expect((await get(`/api/runs/${randomUUID()}`)).status).toBe(404);
    expect((await get('/api/runs/not-a-run')).status).toBe(404);
  });

  it('answers 400 on bad filters and changes nothing', async () => {
    for (const query of ['status=maybe', 'since=2026-13-01', 'since=yesterday', 'since=2026-02-30', `since=${today}&until=${addDays(today, -1)}`, 'limit=0', 'limit=201', 'offset=-1', 'failure_category=nope', 'extra=1']) {
      const response = await get<{ statusCode: number; message: string }>(`/api/runs?${query}`);
      expect([query, response.status, response.body.statusCode]).toEqual([query, 400, 400]);
    }
    for (const query of ['days=0', 'days=91', 'days=x']) expect((await get(`/api/stats/dashboard?${query}`)).status).toBe(400);
    expect((await get<RunList>('/api/runs')).body.total).toBe(6);
  });
});
