import { requestJson } from '@shared/testing';
import { AccountStore } from '../src/app/accounts/account-store';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';

interface Preview {
  time_zone: string;
  cron: string;
  runs: Array<{ fires_at: string; latest_start: string }>;
}

const HOUR = 3_600_000;

/** POST /api/sign-tasks/schedule-preview: the next run times the scheduler will use, before a task is saved. */
describe('schedule preview', () => {
  let panel: RunningPanel;
  let token: string;
  const api = <T = Record<string, unknown>>(path: string, options: { method?: string; body?: unknown; token?: string | null } = {}) =>
    requestJson<T>(panel.url, path, { method: options.method, body: options.body, token: options.token === null ? undefined : (options.token ?? token) });
  const preview = (body: unknown, options: { token?: string | null } = {}) => api<Preview>('/api/sign-tasks/schedule-preview', { method: 'POST', body, ...options });

  beforeAll(async () => {
    panel = await startPanel();
    token = await loginAsAdmin(panel);
    const zone = await api('/api/config/settings', { method: 'PUT', body: { timezone: 'Asia/Shanghai' } });
    expect(zone.status).toBe(200);
  });

  afterAll(async () => {
    await panel?.close();
  });

  it('answers 401 without a token', async () => {
    const response = await preview({ execution_mode: 'fixed', sign_at: '08:00' }, { token: null });
    expect(response.status).toBe(401);
  });

  it('gives the next five times of HH:MM in the configured time zone, with the random wait', async () => {
    const response = await preview({ execution_mode: 'fixed', sign_at: '08:00', random_seconds: 600 });
    expect(response.status).toBe(200);
    expect(response.body.time_zone).toBe('Asia/Shanghai');
    expect(response.body.cron).toBe('0 0 8 * * *');
    const runs = response.body.runs;
    expect(runs).toHaveLength(5);
    // 08:00 in Shanghai (UTC+8, no daylight saving) is midnight UTC.
    for (const run of runs) expect(run.fires_at).toMatch(/T00:00:00\.000Z$/);
    expect(Date.parse(runs[0].fires_at)).toBeGreaterThan(Date.now());
    expect(Date.parse(runs[0].fires_at) - Date.now()).toBeLessThanOrEqual(24 * HOUR);
    runs.slice(1).forEach((run, index) => expect(Date.parse(run.fires_at) - Date.parse(runs[index].fires_at)).toBe(24 * HOUR));
    for (const run of runs) expect(Date.parse(run.latest_start) - Date.parse(run.fires_at)).toBe(600_000);
  });

  it('reads cron expressions and range mode (window across midnight), and honours count', async () => {
    const cron = await preview({ execution_mode: 'fixed', sign_at: '*/15 * * * *', count: 3 });
    expect(cron.status).toBe(200);
    expect(cron.body.runs).toHaveLength(3);
    expect(Date.parse(cron.body.runs[1].fires_at) - Date.parse(cron.body.runs[0].fires_at)).toBe(15 * 60_000);
    for (const run of cron.body.runs) expect(run.latest_start).toBe(run.fires_at);

    const range = await preview({ execution_mode: 'range', range_start: '23:30', range_end: '00:30', random_seconds: 5 });
    expect(range.status).toBe(200);
    expect(range.body.cron).toBe('0 30 23 * * *');
    for (const run of range.body.runs) {
      expect(run.fires_at).toMatch(/T15:30:00\.000Z$/);
      expect(Date.parse(run.latest_start) - Date.parse(run.fires_at)).toBe(HOUR);
    }
  });

  it('agrees with the job the scheduler registers for the same schedule', async () => {
    // The task's account exists (as after an import, before its login): replicas on PostgreSQL keep
    // the jobs of the accounts they hold, and nobody holds an account that does not exist.
    await panel.app.get(AccountStore).updateMeta('alice', () => undefined);
    const created = await api('/api/sign-tasks', {
      method: 'POST',
      body: { name: 'preview-check', account_name: 'alice', sign_at: '7 9 * * 1-5', execution_mode: 'fixed', chats: [{ chat_id: '@checkin_bot', actions: [{ action: 1, text: '/sign' }] }] },
    });
    expect(created.status).toBe(201);
    const response = await preview({ execution_mode: 'fixed', sign_at: '7 9 * * 1-5' });
    expect(response.status).toBe(200);
    const jobs = await api<{ jobs: Array<{ id: string; next_run_at: string | null; time_zone: string | null }> }>('/api/ops/scheduled-jobs');
    const job = jobs.body.jobs.find((entry) => entry.id === 'sign-alice-preview-check');
    expect(job?.time_zone).toBe('Asia/Shanghai');
    expect(job && Date.parse(job.next_run_at ?? '')).toBe(Date.parse(response.body.runs[0].fires_at));
  });

  it.each([
    ['a sign_at that is no schedule', { execution_mode: 'fixed', sign_at: 'tomorrow' }, 'sign_at must be a 5- or 6-field cron expression or HH:MM[:SS]'],
    ['fixed mode without sign_at', { execution_mode: 'fixed' }, 'sign_at is required in fixed mode'],
    ['a schedule firing every second', { execution_mode: 'fixed', sign_at: '* * * * * *' }, 'more often than once a minute'],
    ['a schedule that never fires', { execution_mode: 'fixed', sign_at: '0 0 31 2 *' }, 'never fires'],
    ['range mode without range_end', { execution_mode: 'range', range_start: '08:00' }, 'range mode needs range_start and range_end'],
    ['range_end equal to range_start', { execution_mode: 'range', range_start: '08:00', range_end: '08:00:00' }, 'range_end must differ from range_start'],
    ['listen mode', { execution_mode: 'listen' }, 'execution_mode must be fixed or range'],
    ['count above 20', { execution_mode: 'fixed', sign_at: '08:00', count: 21 }, 'count must not be greater than 20'],
    ['random_seconds below 0', { execution_mode: 'fixed', sign_at: '08:00', random_seconds: -1 }, 'random_seconds must not be less than 0'],
    ['an unknown field', { execution_mode: 'fixed', sign_at: '08:00', chats: [] }, 'property chats should not exist'],
  ])('refuses %s with 400 in the JSON error shape', async (_case, body, message) => {
    const response = await preview(body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: expect.stringContaining(message),
      code: 'validation_failed',
      fields: [expect.objectContaining({ rule: expect.any(String), message: expect.any(String) })],
    });
  });

  it('refuses a schedule with the very message a task save gives', async () => {
    const save = await api<{ message: string }>('/api/sign-tasks', {
      method: 'POST',
      body: { name: 'too-often', account_name: 'alice', sign_at: '*/10 * * * * *', execution_mode: 'fixed', chats: [{ chat_id: '@checkin_bot', actions: [{ action: 1, text: '/sign' }] }] },
    });
    const response = await preview({ execution_mode: 'fixed', sign_at: '*/10 * * * * *' });
    expect(save.status).toBe(400);
    expect(response.status).toBe(400);
    expect((response.body as unknown as { message: string }).message).toBe(save.body.message);
  });
});
