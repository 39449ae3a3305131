import { requestJson } from '@shared/testing';
import { readdirSync } from 'node:fs';
import { ConfigSectionRegistry } from '../src/app/config-transfer/config-sections';
import { SettingsService } from '../src/app/settings/settings.service';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';
import { storedSettings } from './stored-settings';

type Json = Record<string, unknown>;

const SECRETS = { webdav_password: 'dav-secret', bot_token: '123456:bot-secret', ai_api_key: 'sk-ai-secret', telegram_api_hash: '0123456789abcdef0123456789abcdef' };
const BARK_URL = 'https://api.day.app/secret-device-key/';

const dailyTask = {
  name: 'daily-checkin',
  account_name: 'alice',
  sign_at: '08:30',
  execution_mode: 'fixed',
  chats: [{ chat_id: -1001, name: 'Check-in bot', actions: [{ action: 1, text: '/checkin', delay: 3 }] }],
};

const listenTask = {
  name: 'deal-watch',
  account_name: 'alice',
  execution_mode: 'listen',
  chats: [{ chat_id: -1002, actions: [{ action: 8, keywords: ['deal'], push_channel: 'bark', bark_url: BARK_URL }] }],
};

/** Configuration export, preview and import against the real task store and settings files. */
describe('configuration export and import', () => {
  let panel: RunningPanel;
  let token: string;
  const hookCalls: Json[] = [];
  const call = <T = Json>(method: string, path: string, body?: unknown) => requestJson<T>(panel.url, path, { method, token, ...(body === undefined ? {} : { body }) });
  /** A settings group as the database stores it (the shape of its former file). */
  const storedGroup = async (group: 'global' | 'ai' | 'telegramApi') => (await storedSettings(panel))[group] as Json;
  const taskNames = async () => (await call<{ tasks: Json[] }>('GET', '/api/sign-tasks')).body.tasks.map((task) => task['name']);

  beforeAll(async () => {
    panel = await startPanel();
    token = await loginAsAdmin(panel);
    const registry = panel.app.get(ConfigSectionRegistry);
    registry.onImported('test-recorder', (summary) => {
      hookCalls.push(summary as unknown as Json);
    });
    registry.onImported('test-failing-step', () => {
      throw new Error('step refused');
    });
    for (const task of [dailyTask, listenTask]) expect((await call('POST', '/api/sign-tasks', task)).status).toBe(201);
    expect((await call('PUT', '/api/config/settings', { ...SECRETS, timezone: 'Europe/Berlin', webdav_url: 'https://dav.example.test/' })).status).toBe(200);
  });

  afterAll(async () => {
    await panel?.close();
  });

  it('answers 401 without a token', async () => {
    for (const [method, path] of [
      ['GET', '/api/config/export/all'],
      ['GET', '/api/config/export/sign/daily-checkin'],
      ['POST', '/api/config/import/all'],
      ['POST', '/api/config/import/sign'],
      ['POST', '/api/config/import-preview'],
    ]) {
      expect({ path, status: (await requestJson(panel.url, path, { method, ...(method === 'POST' ? { body: { config_json: '{}' } } : {}) })).status }).toEqual({ path, status: 401 });
    }
  });

  it('answers 400 on a malformed request or an unreadable document and changes nothing', async () => {
    for (const body of [
      {},
      { config_json: 5 },
      { config_json: '{"broken' },
      { config_json: '[1]' },
      { config_json: '{}', overwrite: 'yes' },
      { config_json: '{}', extra: 1 },
      { config_json: '{}', selected: 'signs:x' },
      { config_json: '{}', default_account: '../x' },
    ]) {
      for (const path of ['/api/config/import/all', '/api/config/import-preview', '/api/config/import/sign']) {
        const response = await call('POST', path, body);
        expect({ path, body, status: response.status }).toEqual({ path, body, status: 400 });
      }
    }
    for (const config_json of [{ signs: 'all of them' }, { _meta: { format: 'something-else' } }, { webhooks: [] }, { _meta: { format: 'tg-signpulse-config-export', version: 3 } }]) {
      const response = await call('POST', '/api/config/import/all', { config_json, overwrite: true });
      expect({ config_json, status: response.status }).toEqual({ config_json, status: 400 });
    }
    expect((await storedGroup('global'))['timezone']).toBe('Europe/Berlin');
    expect(await taskNames()).toEqual(['daily-checkin', 'deal-watch']);
  });

  it('answers 400 (not 500) to __proto__, constructor or toString inside settings.global or settings.ai, and changes nothing', async () => {
    const before = (await storedSettings(panel)).text;
    for (const group of ['global', 'ai']) {
      for (const key of ['__proto__', 'constructor', 'toString']) {
        // As text, so the document's own `__proto__` key reaches the import as JSON.parse makes it.
        const config_json = `{"settings":{"${group}":{"${key}":{"timezone":"Asia/Tokyo"},"timezone":"Asia/Tokyo"}}}`;
        for (const path of ['/api/config/import/all', '/api/config/import/sign']) {
          const response = await call<Json>('POST', path, { config_json, overwrite: true });
          expect({ path, group, key, status: response.status }).toEqual({ path, group, key, status: 400 });
          expect(response.body).toMatchObject({ statusCode: 400, error: 'Bad Request', code: expect.any(String), message: expect.any(String) });
        }
        const asObject = await call<Json>('POST', '/api/config/import/all', { config_json: JSON.parse(config_json) as Json, overwrite: true });
        expect({ group, key, status: asObject.status }).toEqual({ group, key, status: 400 });
        const preview = await call<{ valid: boolean; problems: string[] }>('POST', '/api/config/import-preview', { config_json });
        expect(preview.status).toBe(200);
        expect(preview.body.valid).toBe(false);
        expect(preview.body.problems.join('\n')).toContain(`settings.${group}.${key} is not a setting name`);
      }
    }
    expect((await storedSettings(panel)).text).toBe(before);
    expect(await taskNames()).toEqual(['daily-checkin', 'deal-watch']);
  });

  it("exports in the reference panel's shape: signs keyed task@account, delays as strings, secrets of settings masked and of listen rules left out", async () => {
    const response = await call<Json>('GET', '/api/config/export/all');
    expect(response.status).toBe(200);
    expect(response.body['_meta']).toMatchObject({ format: 'tg-signpulse-config-export', version: 1, secrets_left_out: ['deal-watch: chats[0].actions[0].bark_url'] });
    const signs = response.body['signs'] as Record<string, Json>;
    expect(Object.keys(signs)).toEqual(['daily-checkin@alice', 'deal-watch@alice']);
    expect(signs['daily-checkin@alice']).toMatchObject({ name: 'daily-checkin', account_name: 'alice', account_names: ['alice'], range_start: '', range_end: '', chats: [{ chat_id: -1001, actions: [{ action: 1, text: '/checkin', delay: '3' }] }] });
    expect(JSON.stringify(signs['deal-watch@alice'])).not.toContain('bark_url');
    expect(response.body['monitors']).toEqual({});
    expect(response.body['settings']).toMatchObject({
      global: { timezone: 'Europe/Berlin', webdav_url: 'https://dav.example.test/', webdav_password: '***MASKED***', telegram_bot_token: '***MASKED***', telegram_bot_chat_id: null },
      ai: { api_key: '***MASKED***', base_url: null },
      telegram: { api_hash: '***MASKED***', api_id: null, is_custom: false },
    });
    for (const secret of [...Object.values(SECRETS), 'secret-device-key']) expect(response.text).not.toContain(secret);

    const one = await call<Json>('GET', '/api/config/export/sign/daily-checkin');
    expect(one.body).toMatchObject({ _meta: { includes: ['signs'] }, signs: { 'daily-checkin@alice': { name: 'daily-checkin' } } });
    expect((await call('GET', '/api/config/export/sign/nope')).status).toBe(404);
  });

  it('re-imports its own export: a left-out Bark URL keeps the stored one, changed fields apply', async () => {
    const exported = (await call<Json>('GET', '/api/config/export/all')).body;
    (exported['signs'] as Record<string, Json>)['daily-checkin@alice']['sign_at'] = '09:15';
    const imported = await call<Json>('POST', '/api/config/import/all', { config_json: JSON.stringify(exported), overwrite: true });
    expect(imported.status).toBe(200);
    expect((imported.body['overwritten'] as Json[]).map((item) => item['name'])).toEqual(['daily-checkin', 'deal-watch']);
    expect((await call<Json>('GET', '/api/sign-tasks/daily-checkin')).body['sign_at']).toBe('09:15');
    const listen = await call<{ chats: Array<{ actions: Json[] }> }>('GET', '/api/sign-tasks/deal-watch');
    expect(listen.body.chats[0].actions[0]['bark_url']).toBe(BARK_URL);
    expect((await storedGroup('global'))).toMatchObject({ webdav_password: SECRETS.webdav_password, bot_token: SECRETS.bot_token });
    expect(hookCalls.at(-1)).toEqual({ created: {}, overwritten: { signs: ['daily-checkin', 'deal-watch'] }, settingsChanged: false });
    expect(imported.body['post_import']).toEqual(expect.arrayContaining([{ name: 'test-recorder', ok: true, error: null }, { name: 'test-failing-step', ok: false, error: 'step refused' }]));
  });

  it('previews item by item and writes nothing; without a selection a refused item stops everything, with one only the confirmed items count', async () => {
    const document = {
      signs: {
        'fresh@alice': { ...dailyTask, name: 'fresh', account_name: 'alice' },
        'broken@alice': { ...dailyTask, name: 'broken', execution_mode: 'sometimes' },
        'daily-checkin@alice': { ...dailyTask, sign_at: '10:00' },
      },
      settings: { global: { timezone: 'Asia/Tokyo', no_such_setting: 1 } },
    };
    const preview = await call<Json>('POST', '/api/config/import-preview', { config_json: document });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      valid: false,
      counts: { create: 1, skip: 1, refuse: 1, update: 1 },
      items: [
        { key: 'signs:fresh', action: 'create' },
        { key: 'signs:broken', action: 'refuse', problems: [expect.stringContaining('execution_mode')] },
        { key: 'signs:daily-checkin', action: 'skip', reason: expect.stringContaining('overwrite=true') },
        { key: 'settings', action: 'update', unmapped_fields: [{ field: 'global.no_such_setting', note: expect.stringContaining('unknown setting') }] },
      ],
    });
    expect(await taskNames()).toEqual(['daily-checkin', 'deal-watch']);

    const all = await call<{ message: string }>('POST', '/api/config/import/all', { config_json: document });
    expect(all.status).toBe(400);
    expect(all.body.message).toContain('signs:broken');
    const selectedBroken = await call('POST', '/api/config/import/all', { config_json: document, selected: ['signs:fresh', 'signs:broken'] });
    expect(selectedBroken.status).toBe(400);
    const unknownKey = await call('POST', '/api/config/import/all', { config_json: document, selected: ['signs:nope'] });
    expect(unknownKey.status).toBe(400);
    expect(await taskNames()).toEqual(['daily-checkin', 'deal-watch']);
    expect((await storedGroup('global'))['timezone']).toBe('Europe/Berlin');

    const confirmed = await call<Json>('POST', '/api/config/import/all', { config_json: document, selected: ['signs:fresh', 'settings'] });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ created: [{ key: 'signs:fresh' }], settings: { action: 'update' } });
    expect(confirmed.body['skipped']).toEqual(expect.arrayContaining([expect.objectContaining({ key: 'signs:broken', action: 'skip', reason: 'not selected' })]));
    expect(await taskNames()).toEqual(['daily-checkin', 'deal-watch', 'fresh']);
    // Settings apply without overwrite, as in the reference panel.
    expect((await storedGroup('global'))['timezone']).toBe('Asia/Tokyo');
  });

  it('imports all or nothing: a failed write undoes the tasks already written', async () => {
    const settings = panel.app.get(SettingsService);
    const update = jest.spyOn(settings, 'update').mockRejectedValueOnce(new Error('disk full'));
    try {
      const response = await call('POST', '/api/config/import/all', {
        config_json: { signs: [{ ...dailyTask, name: 'undone' }, { ...dailyTask, sign_at: '11:11' }], settings: { global: { timezone: 'Asia/Seoul' } } },
        overwrite: true,
      });
      expect(response.status).toBe(500);
    } finally {
      update.mockRestore();
    }
    expect(await taskNames()).toEqual(['daily-checkin', 'deal-watch', 'fresh']);
    expect((await call<Json>('GET', '/api/sign-tasks/daily-checkin')).body['sign_at']).toBe('09:15');
    expect((await storedGroup('global'))['timezone']).toBe('Asia/Tokyo');
  });

  it('takes task titles with emoji and punctuation and non-ASCII account names, and writes no file for them', async () => {
    const names = ['每日签到 🎉 (主号)', 'a/b?c: "quoted"', '../escape'];
    const document = { signs: Object.fromEntries(names.map((name) => [`${name}@主号`, { ...dailyTask, account_name: '主号', name }])) };
    const response = await call<Json>('POST', '/api/config/import/all', { config_json: document });
    expect(response.status).toBe(200);
    for (const name of names) {
      const stored = await call<Json>('GET', `/api/sign-tasks/${encodeURIComponent(name)}`);
      expect(stored.status).toBe(200);
      expect(stored.body).toMatchObject({ name, account_name: '主号' });
    }
    expect(readdirSync(panel.dataDir)).not.toContain('escape.json');
  });

  it('migrates V1 and V2 task files as the reference panel does, and merges per-account copies', async () => {
    const document = {
      signs: {
        legacy_v1: { chat_id: -1005, sign_text: '/sign', sign_at: '07:00:00', random_seconds: 30, account_name: 'alice' },
        'legacy_v2@alice': {
          sign_at: '0 6 * * *',
          chats: [{ chat_id: -1006, sign_text: '🎲', as_dice: true, text_of_btn_to_click: '签到', choose_option_by_image: true, has_calculation_problem: true, delete_after: 5 }],
        },
        'shared@alice': { ...dailyTask, name: 'shared', account_name: 'alice', account_names: ['*'] },
        'shared@bob': { ...dailyTask, name: 'shared', account_name: 'bob', account_names: ['*'] },
      },
    };
    const response = await call<Json>('POST', '/api/config/import/all', { config_json: document });
    expect(response.status).toBe(200);
    expect((await call<Json>('GET', '/api/sign-tasks/legacy_v1')).body).toMatchObject({
      account_name: 'alice',
      sign_at: '07:00:00',
      random_seconds: 30,
      execution_mode: 'fixed',
      notify_on_success: true,
      chats: [{ chat_id: -1005, actions: [{ action: 1, text: '/sign' }] }],
    });
    expect((await call<Json>('GET', '/api/sign-tasks/legacy_v2')).body).toMatchObject({
      account_name: 'alice',
      chats: [{ chat_id: -1006, delete_after: 5, actions: [{ action: 2, dice: '🎲' }, { action: 3, text: '签到' }, { action: 4 }, { action: 5 }] }],
    });
    expect((await call<Json>('GET', '/api/sign-tasks/shared')).body).toMatchObject({ account_names: ['*'] });
  });

  it('imports one task: its document, the reference panel single-task export, or an export holding exactly one', async () => {
    const bare = await call<Json>('POST', '/api/config/import/sign', { config_json: JSON.stringify({ ...dailyTask, name: 'evening', sign_at: '20:00' }) });
    expect(bare.status).toBe(200);
    expect((await call<Json>('GET', '/api/sign-tasks/evening')).body).toMatchObject({ sign_at: '20:00', account_name: 'alice', enabled: true });
    const reference = await call<Json>('POST', '/api/config/import/sign', {
      config_json: { task_name: 'night', task_type: 'sign', config: { sign_at: '23:00', chats: [{ chat_id: -1007, actions: [{ action: 1, text: 'hi' }] }] } },
      default_account: 'alice',
    });
    expect(reference.status).toBe(200);
    expect((await call<Json>('GET', '/api/sign-tasks/night')).body).toMatchObject({ sign_at: '23:00', account_name: 'alice' });
    const skipped = await call<Json>('POST', '/api/config/import/sign', { config_json: { ...dailyTask, name: 'evening', sign_at: '21:00' } });
    expect(skipped.body['skipped']).toEqual([expect.objectContaining({ name: 'evening', action: 'skip' })]);
    const exported = (await call<Json>('GET', '/api/config/export/sign/evening')).body;
    expect((await call('POST', '/api/config/import/sign', { config_json: exported, overwrite: true })).status).toBe(200);
    const two = await call<{ message: string }>('POST', '/api/config/import/sign', { config_json: { signs: [dailyTask, { ...dailyTask, name: 'other' }] } });
    expect(two.status).toBe(400);
    expect(two.body.message).toContain('exactly one sign task');
    expect((await call('POST', '/api/config/import/sign', { config_json: { signs: [dailyTask], settings: {} } })).status).toBe(400);
  });
});
