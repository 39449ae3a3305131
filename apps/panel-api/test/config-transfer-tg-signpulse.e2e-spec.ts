import { requestJson } from '@shared/testing';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';
import { storedSettings } from './stored-settings';

/**
 * The two real exports of the reference panel (TG-SignPulse, in ../../shared/spec/samples, copied
 * to fixtures/) through preview and import on a fresh panel: every task is checked field by field
 * against the document, settings arrive, masked secrets keep the stored ones; then a round trip
 * into another fresh panel, and our export read by the reference panel's import rules.
 */

type Json = Record<string, unknown>;
type Task = Json & { chats: Array<Json & { actions: Json[] }> };

const FIXTURES = join(__dirname, 'fixtures', 'tg-signpulse');
const typical = JSON.parse(readFileSync(join(FIXTURES, 'tg-signpulse-export-typical.json'), 'utf8')) as Json;
const monitors = JSON.parse(readFileSync(join(FIXTURES, 'tg-signpulse-export-monitors.json'), 'utf8')) as Json;

/** Stored secrets whose URLs the typical sample keeps (so they must be kept). */
const STORED = {
  webdav_url: 'https://dav.jianguoyun.com/dav/',
  webdav_password: 'dav-password-kept',
  bot_token: '123456:bot-token-kept',
  ai_base_url: 'https://api.openai.com/v1',
  ai_api_key: 'sk-kept',
};

/** What the typical sample must become, field by field (the mapping docs/moving-from-tg-signpulse.md states). */
const TYPICAL_TASKS: Record<string, Json> = {
  ai_quiz: {
    name: 'ai_quiz',
    account_name: 'my_account',
    sign_at: '0 7 * * *',
    random_seconds: 0,
    sign_interval: 1,
    execution_mode: 'fixed',
    enabled: true,
    retry_count: 5,
    notify_on_failure: true,
    notify_on_success: true,
    chats: [
      {
        chat_id: 6123456789,
        name: 'QuizBot',
        action_interval: 1,
        actions: [
          { action: 1, text: '/quiz' },
          { action: 4, ai_prompt: '选出与题目描述一致的图片选项' },
          { action: 5 },
          { action: 6, delay: '2' },
          { action: 7, ai_prompt: '计算结果后点击对应按钮' },
        ],
      },
    ],
  },
  keyword_watch: {
    name: 'keyword_watch',
    account_name: 'my_account',
    sign_at: '08:00',
    random_seconds: 0,
    sign_interval: 1,
    execution_mode: 'listen',
    enabled: true,
    retry_count: 3,
    notify_on_failure: true,
    notify_on_success: true,
    chats: [
      {
        chat_id: -1009876543210,
        name: '羊毛线报',
        message_thread_id: 12,
        action_interval: 1,
        actions: [
          {
            action: 8,
            keywords: ['红包', '口令'],
            match_mode: 'contains',
            sender_filter: 'deal_bot,@notice_bot',
            push_channel: 'continue',
            continue_actions: [
              { action: 1, text: '{keyword}' },
              { action: 9, bot_username: 'RedPacketBot', command_prefix: '/start' },
            ],
          },
        ],
      },
    ],
  },
  daily_checkin: {
    name: 'daily_checkin',
    account_names: ['my_account', 'work_acc'],
    sign_at: '08:30',
    random_seconds: 0,
    sign_interval: 1,
    execution_mode: 'fixed',
    enabled: true,
    retry_count: 3,
    notify_on_failure: true,
    notify_on_success: true,
    chats: [
      {
        chat_id: -1001234567890,
        name: '每日签到群',
        action_interval: 1,
        actions: [
          { action: 1, text: '/checkin' },
          { action: 3, text: '签到', delay: '3' },
        ],
      },
    ],
  },
  dice_lottery: {
    name: 'dice_lottery',
    account_name: 'work_acc',
    sign_at: '09:00',
    random_seconds: 0,
    sign_interval: 1,
    execution_mode: 'range',
    range_start: '09:00',
    range_end: '11:30',
    enabled: false,
    retry_count: 2,
    notify_on_failure: true,
    notify_on_success: true,
    chats: [
      {
        chat_id: -1001122334455,
        name: '抽奖群',
        action_interval: 1,
        actions: [
          { action: 2, dice: '🎯' },
          { action: 1, text: '打卡', delay: '5-10' },
        ],
      },
    ],
  },
};

const MONITOR_SAMPLE_TASKS: Record<string, Json> = {
  serverchan_alerts: {
    name: 'serverchan_alerts',
    account_name: 'my_account',
    execution_mode: 'listen',
    sign_at: '08:00',
    enabled: true,
    notify_on_success: true,
    chats: [
      {
        chat_id: -1004444444444,
        name: '告警群',
        action_interval: 1,
        actions: [{ action: 8, keywords: ['(?:故障|宕机)\\S*'], match_mode: 'regex', push_channel: 'server_chan', server_chan_key: 'SCTfakeinterop0000000000000000' }],
      },
    ],
  },
  forward_deals: {
    name: 'forward_deals',
    account_name: 'my_account',
    execution_mode: 'listen',
    chats: [
      {
        chat_id: -1003333333333,
        name: '优惠频道',
        action_interval: 1,
        actions: [{ action: 8, keywords: ['券', '免单'], match_mode: 'contains', push_channel: 'forward', forward_chat_id: -1002222222222, forward_message_thread_id: 5 }],
      },
    ],
  },
  ai_helper: {
    name: 'ai_helper',
    account_name: 'my_account',
    execution_mode: 'listen',
    enabled: true,
    chats: [
      {
        chat_id: -1006666666666,
        actions: [
          {
            action: 8,
            match_mode: 'exact',
            keywords: ['help'],
            ignore_case: true,
            ignore_self: false,
            sender_filter: 'me',
            push_channel: 'continue',
            continue_actions: [{ action: 1, ai_reply: true, ai_prompt: 'Answer briefly in Chinese.' }],
          },
        ],
      },
    ],
  },
  auto_reply: {
    name: 'auto_reply',
    account_name: 'my_account',
    execution_mode: 'listen',
    chats: [
      {
        chat_id: -1001111111111,
        actions: [
          {
            action: 8,
            match_mode: 'contains',
            keywords: ['签到'],
            ignore_case: true,
            ignore_self: true,
            sender_filter: '123456789,@some_bot',
            push_channel: 'continue',
            continue_actions: [{ action: 1, text: '签到' }],
            continue_delete_after: 60,
          },
        ],
      },
      {
        chat_id: '@somechannel',
        actions: [
          {
            action: 8,
            match_mode: 'regex',
            // Python's \w (letters of every script) in this panel's dialect.
            keywords: ['口令[:：]\\s*([\\p{L}\\p{N}_]+)'],
            ignore_case: true,
            ignore_self: false,
            push_channel: 'continue',
            continue_actions: [{ action: 1, send_text_search_regex: '口令[:：]\\s*([\\p{L}\\p{N}_]+)' }],
          },
        ],
      },
    ],
  },
  forwarder: {
    name: 'forwarder',
    account_name: 'my_account',
    execution_mode: 'listen',
    chats: [
      {
        chat_id: -1005555555555,
        actions: [
          { action: 8, match_mode: 'regex', keywords: ['[\\s\\S]+'], ignore_case: true, ignore_self: false, push_channel: 'server_chan', server_chan_key: 'SCTfakeinterop1111111111111111' },
          { action: 8, match_mode: 'regex', keywords: ['[\\s\\S]+'], ignore_case: true, ignore_self: false, push_channel: 'custom', custom_url: 'https://example.com/tg-hook' },
        ],
      },
    ],
  },
};

/** The reference panel's import (its ConfigService.import_all_configs) and runner models, as rules on a document. */
function referenceImportProblems(document: Json): { problems: string[]; stored: string[] } {
  const problems: string[] = [];
  const stored: string[] = [];
  const signs = document['signs'];
  // import_all_configs calls data.get("signs", {}).items(): a list crashes it.
  if (signs === null || typeof signs !== 'object' || Array.isArray(signs)) return { problems: ['signs is not an object keyed by name'], stored };
  const monitorsSection = document['monitors'];
  if (monitorsSection === null || typeof monitorsSection !== 'object' || Array.isArray(monitorsSection)) problems.push('monitors is not an object keyed by name');
  const placeholder = (value: unknown) => typeof value === 'string' && ['***MASKED***', '***', 'MASKED', 'REDACTED'].includes(value);
  for (const [key, raw] of Object.entries(signs as Json)) {
    const config = raw as Json;
    const name = (typeof config['name'] === 'string' && config['name']) || key.split('@')[0];
    const account = typeof config['account_name'] === 'string' ? config['account_name'] : '';
    stored.push(`${account}/${name}`);
    const at = `signs[${JSON.stringify(key)}]`;
    if (typeof config['sign_at'] !== 'string') problems.push(`${at}.sign_at must be a string`);
    for (const field of ['range_start', 'range_end']) if (typeof config[field] !== 'string') problems.push(`${at}.${field} must be a string ("" when unused)`);
    for (const field of ['random_seconds', 'sign_interval', 'retry_count']) if (!Number.isInteger(config[field])) problems.push(`${at}.${field} must be an integer`);
    if (!['fixed', 'range', 'listen'].includes(config['execution_mode'] as string)) problems.push(`${at}.execution_mode`);
    if (!Array.isArray(config['account_names'])) problems.push(`${at}.account_names must be a list`);
    for (const chat of (config['chats'] as Json[]) ?? []) {
      // KeywordMonitorRule.chat_id and SignChatV3.chat_id are int; a chat known here only by @username is listed in _meta.username_chats.
      const listed = ((document['_meta'] as Json)['username_chats'] as string[]).includes(`${name}: ${String(chat['chat_id'])}`);
      if (!Number.isInteger(chat['chat_id']) && !listed) problems.push(`${at}: chat_id ${JSON.stringify(chat['chat_id'])} must be an integer (SignChatV3.chat_id: int)`);
      if (chat['message_thread_id'] !== null && !Number.isInteger(chat['message_thread_id'])) problems.push(`${at}.message_thread_id`);
      if (typeof chat['action_interval'] !== 'number') problems.push(`${at}.action_interval must be a number`);
      const walk = (actions: Json[]) => {
        for (const action of actions) {
          if (!Number.isInteger(action['action'])) problems.push(`${at}: action must be an integer`);
          if (action['delay'] !== undefined && typeof action['delay'] !== 'string') problems.push(`${at}: delay ${JSON.stringify(action['delay'])} must be a string (SignAction.delay: str)`);
          for (const [field, value] of Object.entries(action)) if (placeholder(value)) problems.push(`${at}: ${field} is a placeholder, which the reference panel would store as the secret`);
          if (action['forward_message_thread_id'] !== undefined && !Number.isInteger(Number(action['forward_message_thread_id']))) problems.push(`${at}.forward_message_thread_id`);
          if ('server_chan_key' in action) problems.push(`${at}: server_chan_key is this panel's name (the reference reads server_chan_send_key)`);
          if (Array.isArray(action['continue_actions'])) walk(action['continue_actions'] as Json[]);
        }
      };
      walk(chat['actions'] as Json[]);
    }
  }
  const settings = document['settings'] as Json;
  const telegram = settings['telegram'] as Json;
  // Imported only with is_custom; then api_hash is stored as given.
  if (telegram['is_custom'] && placeholder(telegram['api_hash'])) problems.push('settings.telegram would store a placeholder api_hash');
  if (telegram['api_id'] !== null && typeof telegram['api_id'] !== 'string') problems.push('settings.telegram.api_id must be a string');
  const ai = settings['ai'] as Json | null;
  if (ai !== null && typeof ai !== 'object') problems.push('settings.ai must be an object or null');
  return { problems, stored: stored.sort() };
}

describe('moving from TG-SignPulse: its real exports through preview and import', () => {
  let panel: RunningPanel;
  let token: string;
  const call = <T = Json>(method: string, path: string, body?: unknown, on: RunningPanel = panel, as = token) =>
    requestJson<T>(on.url, path, { method, token: as, ...(body === undefined ? {} : { body }) });
  const task = async (name: string, on = panel, as = token) => (await call<Task>('GET', `/api/sign-tasks/${encodeURIComponent(name)}`, undefined, on, as)).body;
  /** A settings group as the database stores it (the shape of its former file). */
  const storedGroup = async (group: 'global' | 'ai' | 'telegramApi') => (await storedSettings(panel))[group] as Json;

  beforeAll(async () => {
    panel = await startPanel();
    token = await loginAsAdmin(panel);
    expect((await call('PUT', '/api/config/settings', STORED)).status).toBe(200);
  });

  afterAll(async () => {
    await panel?.close();
  });

  it('previews the typical export item by item: keys to confirm, merged per-account copies, every mapped, defaulted and dropped field', async () => {
    const preview = await call<{ valid: boolean; problems: string[]; items: Json[]; counts: Json }>('POST', '/api/config/import-preview', { config_json: JSON.stringify(typical) });
    expect(preview.status).toBe(200);
    expect(preview.body.problems).toEqual([]);
    expect(preview.body.valid).toBe(true);
    expect(preview.body.items.map((item) => [item['key'], item['action']])).toEqual([
      ['signs:ai_quiz', 'create'],
      ['signs:keyword_watch', 'create'],
      ['signs:daily_checkin', 'create'],
      ['signs:dice_lottery', 'create'],
      ['settings', 'update'],
    ]);
    const daily = preview.body.items[2];
    expect(daily).toMatchObject({ source_keys: ['daily_checkin@my_account', 'daily_checkin@work_acc'], accounts: ['my_account', 'work_acc'] });
    expect(daily['mapped_fields']).toEqual(expect.arrayContaining(['chats[0].actions[1].delay', expect.stringContaining('per-account copies merged')]));
    expect(daily['defaults_applied']).toEqual([expect.stringContaining('name = "daily_checkin"')]);
    expect(daily['unmapped_fields']).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'task_group_id' }), expect.objectContaining({ field: 'chats[0].source_account' })]));
    const watch = preview.body.items[1];
    expect(watch['mapped_fields']).toEqual(expect.arrayContaining([expect.stringContaining('chats[0].sender_filter → chats[0].actions[].sender_filter')]));
    expect(watch['defaults_applied']).toEqual(expect.arrayContaining([expect.stringContaining('continue_chat_id = "the chat of the hit"')]));
    const settings = preview.body.items[4];
    expect(settings['mapped_fields']).toEqual(
      expect.arrayContaining(['global.webdav_remote_dir → webdav_dir', 'global.telegram_bot_chat_id → bot_chat_id', 'telegram.api_id → telegram_api_id', expect.stringContaining('global.webdav_password → webdav_password (masked')]),
    );
    expect(settings['unmapped_fields']).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'global.global_proxy', note: expect.stringContaining('per account') })]));
    // The preview wrote nothing.
    expect((await call<{ tasks: unknown[] }>('GET', '/api/sign-tasks')).body.tasks).toEqual([]);
  });

  it('imports the typical export: every task field by field, settings mapped, masked secrets kept', async () => {
    const imported = await call<Json>('POST', '/api/config/import/all', { config_json: typical });
    expect(imported.status).toBe(200);
    expect((imported.body['created'] as Json[]).map((item) => item['name'])).toEqual(['ai_quiz', 'keyword_watch', 'daily_checkin', 'dice_lottery']);
    for (const [name, expected] of Object.entries(TYPICAL_TASKS)) {
      const stored = await task(name);
      const { last_run: _lastRun, created_at: _created, updated_at: _updated, ...document } = stored;
      expect(document).toEqual(expected);
    }
    const view = (await call<Json>('GET', '/api/config/settings')).body;
    expect(view).toMatchObject({
      timezone: 'Asia/Shanghai',
      webdav_url: 'https://dav.jianguoyun.com/dav/',
      webdav_username: 'user@example.com',
      webdav_dir: 'tg-signpulse-backups',
      bot_chat_id: '123456789',
      bot_notify_enabled: true,
      bot_notify_admin_login: true,
      bot_notify_task_failure: true,
      bot_notify_task_success: false,
      device_keepalive_enabled: true,
      device_keepalive_interval_days: 30,
      auto_backup_enabled: true,
      auto_backup_interval_hours: 24,
      auto_backup_keep: 5,
      ai_base_url: 'https://api.openai.com/v1',
      ai_model: 'gpt-5-nano',
      telegram_api_id: 12345678,
      telegram_api_hash_set: true,
    });
    expect((await storedGroup('global'))).toMatchObject({ webdav_password: STORED.webdav_password, bot_token: STORED.bot_token });
    expect((await storedGroup('ai'))['api_key']).toBe(STORED.ai_api_key);
    expect((await storedGroup('telegramApi'))['api_hash']).toBe('0123456789abcdef0123456789abcdef');
    // No account is logged in after a move: the listener restart says so instead of "ok".
    expect(imported.body['post_import']).toEqual(expect.arrayContaining([{ name: 'keyword-listeners', ok: false, error: expect.stringContaining('my_account: waiting_for_login') }]));
  });

  it('previews the monitors export: monitors need an account, and the preview says which items would be refused and why', async () => {
    const preview = await call<{ valid: boolean; problems: string[]; items: Json[] }>('POST', '/api/config/import-preview', { config_json: monitors });
    expect(preview.body.valid).toBe(false);
    const byKey = Object.fromEntries(preview.body.items.map((item) => [item['key'], item]));
    expect(byKey['signs:serverchan_alerts']).toMatchObject({ action: 'create' });
    expect(byKey['monitors:auto_reply']).toMatchObject({ action: 'refuse', problems: [expect.stringContaining('give default_account')] });
    expect(byKey['monitors:forwarder']['unmapped_fields']).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'match_cfgs[0].external_forwards[0]', note: expect.stringContaining('UDP') }),
        expect.objectContaining({ field: 'match_cfgs[0].external_forwards[1].headers' }),
      ]),
    );
    expect(byKey['settings']['mapped_fields']).toEqual(expect.arrayContaining(['ai: null → AI settings unchanged']));
    expect(byKey['settings']['unmapped_fields']).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'telegram', note: expect.stringContaining('is_custom is false') })]));

    // Without a selection every item is confirmed, so a refused one stops the import; nothing changes.
    const refused = await call<{ message: string }>('POST', '/api/config/import/all', { config_json: monitors });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('monitors:auto_reply');
    expect((await call('GET', '/api/sign-tasks/serverchan_alerts')).status).toBe(404);
  });

  it('imports the confirmed items of the monitors export; monitors become listen tasks with their replies', async () => {
    const preview = await call<{ valid: boolean; items: Json[] }>('POST', '/api/config/import-preview', { config_json: monitors, default_account: 'my_account' });
    expect(preview.body.valid).toBe(true);
    const selected = preview.body.items.map((item) => item['key'] as string).filter((key) => key !== 'monitors:forwarder');
    const imported = await call<Json>('POST', '/api/config/import/all', { config_json: monitors, default_account: 'my_account', selected });
    expect(imported.status).toBe(200);
    expect(imported.body['skipped']).toEqual([expect.objectContaining({ key: 'monitors:forwarder', action: 'skip', reason: 'not selected' })]);
    expect((await call('GET', '/api/sign-tasks/forwarder')).status).toBe(404);
    const again = await call<Json>('POST', '/api/config/import/all', { config_json: monitors, default_account: 'my_account', selected: ['monitors:forwarder'] });
    expect(again.status).toBe(200);
    for (const [name, expected] of Object.entries(MONITOR_SAMPLE_TASKS)) expect(await task(name)).toMatchObject(expected);
    // The fresh install's settings: ai: null leaves the AI key, empty secrets keep the stored ones.
    const view = (await call<Json>('GET', '/api/config/settings')).body;
    expect(view).toMatchObject({ timezone: 'Asia/Hong_Kong', ai_api_key_set: true, ai_model: 'gpt-5-nano', telegram_api_id: 12345678 });
  });

  it('round trip: the export of the imported samples, imported into a fresh panel, gives the same tasks (secrets of listen rules aside)', async () => {
    const exported = await call<Json>('GET', '/api/config/export/all');
    expect(exported.status).toBe(200);
    expect(exported.text).not.toContain('SCTfakeinterop');
    const fresh = await startPanel();
    try {
      const freshToken = await loginAsAdmin(fresh);
      const imported = await call<Json>('POST', '/api/config/import/all', { config_json: exported.text }, fresh, freshToken);
      expect(imported.status).toBe(200);
      const before = (await call<{ tasks: Task[] }>('GET', '/api/sign-tasks')).body.tasks;
      const after = (await call<{ tasks: Task[] }>('GET', '/api/sign-tasks', undefined, fresh, freshToken)).body.tasks;
      const comparable = (tasks: Task[], dropSecrets: boolean) =>
        tasks.map(({ last_run: _lastRun, created_at: _created, updated_at: _updated, ...rest }) => {
          const copy = JSON.parse(JSON.stringify(rest)) as Task;
          if (dropSecrets) for (const chat of copy.chats) for (const action of chat.actions) for (const field of ['bark_url', 'custom_url', 'server_chan_key']) delete action[field];
          return copy;
        });
      expect(comparable(after, false)).toEqual(comparable(before, true));
      // The left-out ServerChan keys are named in the export and in the preview.
      expect((exported.body['_meta'] as Json)['secrets_left_out']).toEqual(expect.arrayContaining(['serverchan_alerts: chats[0].actions[0].server_chan_key']));
      const settingsBefore = (await call<Json>('GET', '/api/config/settings')).body;
      const settingsAfter = (await call<Json>('GET', '/api/config/settings', undefined, fresh, freshToken)).body;
      for (const field of ['timezone', 'webdav_url', 'webdav_username', 'webdav_dir', 'bot_chat_id', 'bot_notify_enabled', 'auto_backup_keep', 'ai_base_url', 'ai_model']) {
        expect({ field, value: settingsAfter[field] }).toEqual({ field, value: settingsBefore[field] });
      }
      // A second export of the fresh panel equals the first (timestamps aside): nothing drifts.
      const second = await call<Json>('GET', '/api/config/export/all', undefined, fresh, freshToken);
      expect(second.body['signs']).toEqual(exported.body['signs']);
    } finally {
      await fresh.close();
    }
  });

  it("our export passes the reference panel's import rules: keyed objects, its field names and value forms, every task for every account", async () => {
    const exported = (await call<Json>('GET', '/api/config/export/all')).body;
    const { problems, stored } = referenceImportProblems(exported);
    expect(problems).toEqual([]);
    const tasks = (await call<{ tasks: Task[] }>('GET', '/api/sign-tasks')).body.tasks;
    const expected = tasks.flatMap((entry) => ((entry['account_names'] as string[] | undefined) ?? [entry['account_name'] as string]).map((account) => `${account}/${String(entry['name'])}`)).sort();
    expect(stored).toEqual(expected);
    const signs = exported['signs'] as Record<string, Json>;
    expect(signs['daily_checkin@work_acc']).toMatchObject({ name: 'daily_checkin', account_name: 'work_acc', account_names: ['my_account', 'work_acc'], range_start: '', range_end: '' });
    expect((signs['daily_checkin@my_account']['task_group_id'] as string).length).toBe(32);
    expect(signs['serverchan_alerts@my_account']['chats']).toEqual([expect.objectContaining({ actions: [expect.not.objectContaining({ server_chan_send_key: expect.anything() })] })]);
    expect(exported['settings']).toMatchObject({
      global: { webdav_remote_dir: 'tg-signpulse-backups', webdav_password: '***MASKED***', telegram_bot_token: '***MASKED***', telegram_bot_chat_id: null, timezone: 'Asia/Hong_Kong' },
      ai: { api_key: '***MASKED***', model: 'gpt-5-nano' },
      telegram: { api_id: '12345678', api_hash: '***MASKED***', is_custom: false },
    });
  });

  it('previews and imports a large configuration (1,000 entries, 500 tasks over two accounts) in one request', async () => {
    const sample = (typical['signs'] as Record<string, Json>)['daily_checkin@my_account'];
    const signs: Record<string, Json> = {};
    for (let i = 0; i < 500; i++) for (const account of ['big_a', 'big_b']) signs[`bulk ${i}@${account}`] = { ...sample, account_name: account, account_names: ['big_a', 'big_b'] };
    const config_json = JSON.stringify({ _meta: typical['_meta'], signs, monitors: {} });
    const started = Date.now();
    const preview = await call<{ valid: boolean; items: Json[] }>('POST', '/api/config/import-preview', { config_json });
    const previewMs = Date.now() - started;
    expect(preview.status).toBe(200);
    expect(preview.body.valid).toBe(true);
    expect(preview.body.items).toHaveLength(500);
    const imported = await call<Json>('POST', '/api/config/import/all', { config_json, selected: preview.body.items.map((item) => item['key']) });
    expect(imported.status).toBe(200);
    expect((imported.body['created'] as Json[]).length).toBe(500);
    expect(await task('bulk 499')).toMatchObject({ account_names: ['big_a', 'big_b'], sign_at: '08:30' });
    console.log(`large configuration: ${(config_json.length / 1024).toFixed(0)} KiB, preview ${previewMs} ms, import ${Date.now() - started - previewMs} ms`);
    // Generous: the shared test machine runs at a load of 20-30; alone it takes a few seconds.
  }, 180_000);
});
