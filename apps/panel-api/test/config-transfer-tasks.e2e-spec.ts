import { requestJson } from '@shared/testing';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';

const BARK_URL = 'https://api.day.app/secret-device-key/';

const dailyTask = {
  name: 'daily-checkin',
  account_name: 'alice',
  sign_at: '08:30',
  execution_mode: 'fixed',
  chats: [{ chat_id: -1001, name: 'Check-in bot', actions: [{ action: 1, text: '/checkin' }] }],
};

const listenTask = {
  name: 'deal-watch',
  account_name: 'alice',
  execution_mode: 'listen',
  chats: [{ chat_id: -1002, actions: [{ action: 8, keywords: ['deal'], push_channel: 'bark', bark_url: BARK_URL }] }],
};

/** Configuration export and import against the real task store under .signer/. */
describe('configuration transfer of sign and listen tasks', () => {
  let panel: RunningPanel;
  let token: string;
  const call = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
    requestJson<T>(panel.url, path, { method, token, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    panel = await startPanel();
    token = await loginAsAdmin(panel);
    for (const task of [dailyTask, listenTask]) {
      const created = await call('POST', '/api/sign-tasks', task);
      expect(created.status).toBe(201);
    }
  });

  afterAll(async () => {
    await panel?.close();
  });

  it('exports every task with credentials in listen rules masked and without run state', async () => {
    const exported = await call<{ signs: Array<Record<string, unknown>> }>('GET', '/api/config/export/all');
    expect(exported.status).toBe(200);
    expect(exported.body.signs.map((task) => task['name'])).toEqual(['daily-checkin', 'deal-watch']);
    expect(exported.text).not.toContain('secret-device-key');
    const listen = exported.body.signs[1] as { chats: Array<{ actions: Array<Record<string, unknown>> }> };
    expect(listen.chats[0].actions[0]['bark_url']).toBe('***MASKED***');
    for (const task of exported.body.signs) expect(Object.keys(task)).not.toEqual(expect.arrayContaining(['last_run', 'created_at']));
    const one = await call<{ signs: unknown[] }>('GET', '/api/config/export/sign/daily-checkin');
    expect(one.body.signs).toEqual([expect.objectContaining({ name: 'daily-checkin', sign_at: '08:30' })]);
  });

  it('re-imports an export: the masked Bark URL keeps the stored one, changed fields apply', async () => {
    const exported = (await call<{ signs: Array<Record<string, unknown>> }>('GET', '/api/config/export/all')).body;
    exported.signs[0] = { ...exported.signs[0], sign_at: '09:15' };
    const imported = await call<Record<string, unknown>>('POST', '/api/config/import/all', { config_json: JSON.stringify(exported), overwrite: true });
    expect(imported.status).toBe(200);
    expect(imported.body['overwritten']).toHaveLength(2);
    const daily = await call<Record<string, unknown>>('GET', '/api/sign-tasks/daily-checkin');
    expect(daily.body['sign_at']).toBe('09:15');
    const listen = await call<{ chats: Array<{ actions: Array<Record<string, unknown>> }> }>('GET', '/api/sign-tasks/deal-watch');
    expect(listen.body.chats[0].actions[0]['bark_url']).toBe(BARK_URL);
  });

  it('refuses a new task whose secret is only a placeholder, and an invalid task, writing nothing', async () => {
    const preview = await call<Record<string, unknown>>('POST', '/api/config/import-preview', {
      config_json: { signs: [{ ...listenTask, name: 'copy-watch', chats: [{ chat_id: -1003, actions: [{ action: 8, keywords: ['x'], push_channel: 'bark', bark_url: 'REDACTED' }] }] }, { ...dailyTask, name: 'new-daily' }] },
    });
    expect(preview.body).toMatchObject({
      valid: false,
      items: [
        { name: 'copy-watch', action: 'refuse', reason: expect.stringContaining('no stored value exists') },
        { name: 'new-daily', action: 'create' },
      ],
    });
    const refused = await call('POST', '/api/config/import/all', {
      config_json: { signs: [{ ...dailyTask, name: 'new-daily' }, { ...dailyTask, name: 'broken', execution_mode: 'sometimes' }] },
    });
    expect(refused.status).toBe(400);
    expect((await call('GET', '/api/sign-tasks/new-daily')).status).toBe(404);
  });

  it('imports one task with import/sign and it appears in the task API', async () => {
    const imported = await call('POST', '/api/config/import/sign', { config_json: JSON.stringify({ ...dailyTask, name: 'evening', sign_at: '20:00' }) });
    expect(imported.status).toBe(200);
    const task = await call<Record<string, unknown>>('GET', '/api/sign-tasks/evening');
    expect(task.status).toBe(200);
    expect(task.body).toMatchObject({ sign_at: '20:00', account_name: 'alice', enabled: true });
    const skipped = await call<Record<string, unknown>>('POST', '/api/config/import/sign', { config_json: { ...dailyTask, name: 'evening', sign_at: '21:00' } });
    expect(skipped.body['skipped']).toEqual([expect.objectContaining({ name: 'evening', action: 'skip' })]);
    expect((await call<Record<string, unknown>>('GET', '/api/sign-tasks/evening')).body['sign_at']).toBe('20:00');
  });
});
