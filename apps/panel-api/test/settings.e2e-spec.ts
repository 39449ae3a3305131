import { requestJson } from '@shared/testing';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SettingsService } from '../src/app/settings/settings.service';
import { SettingsChange } from '../src/app/settings/settings.types';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';
import { storedSettings } from './stored-settings';

type SettingsBody = Record<string, unknown>;

const DEFAULTS = {
  device_keepalive_enabled: true,
  device_keepalive_interval_days: 30,
  auto_backup_enabled: false,
  auto_backup_interval_hours: 24,
  auto_backup_keep: 7,
  webdav_url: null,
  webdav_username: null,
  webdav_password_set: false,
  webdav_dir: 'tg-signpulse-backups',
  bot_token_set: false,
  bot_chat_id: null,
  bot_notify_enabled: false,
  bot_notify_task_failure: true,
  bot_notify_task_success: false,
  bot_notify_session_invalid: true,
  bot_notify_admin_login: false,
  bot_notify_backup_failure: true,
  push_bark_url_set: false,
  push_server_chan_key_set: false,
  push_ntfy_url: null,
  push_ntfy_token_set: false,
  push_discord_url_set: false,
  push_slack_url_set: false,
  push_teams_url_set: false,
  push_gotify_url: null,
  push_gotify_token_set: false,
  push_email_smtp_host: null,
  push_email_smtp_port: 587,
  push_email_smtp_security: 'starttls',
  push_email_smtp_username: null,
  push_email_smtp_password_set: false,
  push_email_from: null,
  push_email_to: null,
  webhook_url: null,
  webhook_secret_set: false,
  push_notify_task_failure: true,
  push_notify_task_success: false,
  push_notify_backup_failure: true,
  push_notify_session_invalid: true,
  push_notify_admin_login: false,
  notify_language: 'en',
  timezone: 'UTC',
  safety_min_spacing_seconds: 3,
  safety_per_minute: 20,
  safety_per_day: 500,
  safety_jitter_ms: 1500,
  safety_flood_pause_seconds: 600,
  ai_base_url: null,
  ai_model: null,
  ai_api_key_set: false,
  telegram_api_id: null,
  telegram_api_hash_set: false,
};

const SECRETS = {
  webdav_password: 'dav-secret-1',
  bot_token: '123456:AAbbCCdd-secret',
  ai_api_key: 'sk-test-secret-key',
  telegram_api_hash: '0123456789abcdef0123456789abcdef',
};

describe('settings API', () => {
  let panel: RunningPanel & { databaseUrl?: string };
  let token: string;

  const get = () => requestJson<SettingsBody>(panel.url, '/api/config/settings', { token });
  const put = (body: unknown) => requestJson<SettingsBody>(panel.url, '/api/config/settings', { method: 'PUT', token, body });

  beforeAll(async () => {
    panel = await startPanel();
    token = await loginAsAdmin(panel);
  });

  afterAll(async () => {
    await panel?.close();
  });

  it('answers 401 without a token', async () => {
    expect((await requestJson(panel.url, '/api/config/settings')).status).toBe(401);
    const refused = await requestJson(panel.url, '/api/config/settings', { method: 'PUT', body: { timezone: 'Europe/Berlin' } });
    expect(refused.status).toBe(401);
    expect((await get()).body.timezone).toBe('UTC');
  });

  it('returns the defaults at first start', async () => {
    const response = await get();
    expect(response.status).toBe(200);
    expect(response.body).toEqual(DEFAULTS);
  });

  it('applies a partial update, keeps the other fields and stores them in the database, not in files', async () => {
    const response = await put({
      device_keepalive_interval_days: 170,
      auto_backup_enabled: true,
      auto_backup_keep: 3,
      webdav_url: 'https://dav.example.test/remote.php/dav',
      webdav_username: 'owner',
      bot_chat_id: '-1001234567890',
      bot_notify_enabled: true,
      timezone: 'Europe/Berlin',
      ai_base_url: 'http://127.0.0.1:9/v1',
      ai_model: 'gpt-4o-mini',
      telegram_api_id: 611335,
    });
    expect(response.status).toBe(200);
    const expected = {
      ...DEFAULTS,
      device_keepalive_interval_days: 170,
      auto_backup_enabled: true,
      auto_backup_keep: 3,
      webdav_url: 'https://dav.example.test/remote.php/dav',
      webdav_username: 'owner',
      bot_chat_id: '-1001234567890',
      bot_notify_enabled: true,
      timezone: 'Europe/Berlin',
      ai_base_url: 'http://127.0.0.1:9/v1',
      ai_model: 'gpt-4o-mini',
      telegram_api_id: 611335,
    };
    expect(response.body).toEqual(expected);
    expect((await get()).body).toEqual(expected);
    const stored = await storedSettings(panel);
    expect(stored.global).toMatchObject({ device_keepalive_interval_days: 170, timezone: 'Europe/Berlin' });
    expect(stored.ai).toMatchObject({ base_url: 'http://127.0.0.1:9/v1', model: 'gpt-4o-mini' });
    expect(stored.telegramApi).toMatchObject({ api_id: 611335 });
    for (const file of ['.global_settings.json', '.openai_config.json', '.telegram_api.json']) {
      expect(existsSync(join(panel.dataDir, file))).toBe(false);
    }
  });

  it('stores secrets but shows only *_set flags; an empty string keeps them and null clears them', async () => {
    const set = await put(SECRETS);
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ webdav_password_set: true, bot_token_set: true, ai_api_key_set: true, telegram_api_hash_set: true });
    const read = await get();
    for (const secret of Object.values(SECRETS)) {
      expect(set.text).not.toContain(secret);
      expect(read.text).not.toContain(secret);
    }
    for (const name of Object.keys(SECRETS)) expect(read.body).not.toHaveProperty(name);

    const kept = await put({ webdav_password: '', bot_token: '', ai_api_key: '', telegram_api_hash: '', webdav_username: '' });
    expect(kept.body).toMatchObject({ webdav_password_set: true, bot_token_set: true, ai_api_key_set: true, telegram_api_hash_set: true });
    // An empty non-secret text field clears it.
    expect(kept.body.webdav_username).toBeNull();
    const stored = await storedSettings(panel);
    expect(stored.global).toMatchObject({
      webdav_password: SECRETS.webdav_password,
      bot_token: SECRETS.bot_token,
    });
    expect(stored.ai.api_key).toBe(SECRETS.ai_api_key);
    expect(stored.telegramApi.api_hash).toBe(SECRETS.telegram_api_hash);
    // Sealed at rest: the rows as the database holds them carry none of the secrets.
    for (const secret of Object.values(SECRETS)) expect(stored.text).not.toContain(secret);

    const cleared = await put({ webdav_password: null, ai_api_key: null });
    expect(cleared.body).toMatchObject({ webdav_password_set: false, ai_api_key_set: false, bot_token_set: true, telegram_api_hash_set: true });
    expect((await storedSettings(panel)).global.webdav_password).toBeNull();
  });

  it.each([
    ['an unknown field', { device_keepalive_interval_days: 10, colour: 'blue' }],
    ['an interval above 170 days', { device_keepalive_interval_days: 171 }],
    ['an interval of 0 days', { device_keepalive_interval_days: 0 }],
    ['a fractional interval', { device_keepalive_interval_days: 1.5 }],
    ['a number as a string', { device_keepalive_interval_days: '10' }],
    ['null for a switch', { device_keepalive_enabled: null }],
    ['a string for a switch', { auto_backup_enabled: 'yes' }],
    ['zero backups kept', { auto_backup_keep: 0 }],
    ['an unknown time zone', { timezone: 'Mars/Olympus_Mons' }],
    ['an empty time zone', { timezone: '' }],
    ['a WebDAV URL that is not http(s)', { webdav_url: 'ftp://dav.example.test' }],
    ['an AI base URL that is no URL', { ai_base_url: 'not a url' }],
    ['a malformed bot token', { bot_token: 'no-colon' }],
    ['a bad chat id', { bot_chat_id: 'chat 1' }],
    ['a negative api_id', { telegram_api_id: -5 }],
    ['an api_hash that is not 32 hex', { telegram_api_hash: 'xyz' }],
    ['a WebDAV folder climbing up', { webdav_dir: '../etc' }],
  ])('refuses %s with 400 and changes nothing', async (_case, body) => {
    const before = await get();
    const storedBefore = (await storedSettings(panel)).text;
    const response = await put(body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.any(String) });
    expect((await get()).body).toEqual(before.body);
    expect((await storedSettings(panel)).text).toBe(storedBefore);
  });

  it.each([
    ['an unknown field', { colour: 'blue' }, { field: 'colour', rule: 'unknown_field' }],
    ['an interval above 170 days', { device_keepalive_interval_days: 171 }, { field: 'device_keepalive_interval_days', rule: 'range', min: 1, max: 170 }],
    ['a fractional interval', { device_keepalive_interval_days: 1.5 }, { field: 'device_keepalive_interval_days', rule: 'integer' }],
    ['an unknown time zone', { timezone: 'Mars/Olympus_Mons' }, { field: 'timezone', rule: 'time_zone' }],
    ['an AI base URL that is no URL', { ai_base_url: 'not a url' }, { field: 'ai_base_url', rule: 'http_url' }],
    ['a malformed bot token', { bot_token: 'no-colon' }, { field: 'bot_token', rule: 'bot_token' }],
    ['a bad chat id', { bot_chat_id: 'chat 1' }, { field: 'bot_chat_id', rule: 'chat_id' }],
    ['an api_hash that is not 32 hex', { telegram_api_hash: 'xyz' }, { field: 'telegram_api_hash', rule: 'api_hash' }],
    ['a short webhook secret', { webhook_secret: 'short' }, { field: 'webhook_secret', rule: 'too_short', min: 16 }],
  ])('names the field of %s, its rule and a sentence without API names', async (_case, body, expected) => {
    const response = await put(body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'validation_failed', fields: [{ ...expected, message: expect.any(String) }] });
    const [field] = (response.body as { fields: Array<{ message: string }> }).fields;
    expect(field.message).toMatch(/^[A-Z].*\.$/);
    expect(field.message).not.toMatch(/_|must be|should not/);
  });

  it('refuses a body that is not a JSON object', async () => {
    expect((await put([{ timezone: 'UTC' }])).status).toBe(400);
    expect((await requestJson(panel.url, '/api/config/settings', { method: 'PUT', token, rawBody: '{"timezone":', headers: { 'content-type': 'application/json' } })).status).toBe(400);
  });

  it('lets other features read and change settings through SettingsService, and tells listeners', async () => {
    const settings = panel.app.get(SettingsService);
    const changes: SettingsChange[] = [];
    const unsubscribe = settings.onChange((change) => changes.push(change));
    try {
      await put({ device_keepalive_enabled: false });
      expect(settings.getGlobal().device_keepalive_enabled).toBe(false);
      expect(settings.getTelegramApi()).toEqual({ api_id: 611335, api_hash: SECRETS.telegram_api_hash });
      await settings.update({ ai_model: 'local-model' });
      expect((await get()).body.ai_model).toBe('local-model');
      expect(changes).toEqual([
        { global: true, ai: false, telegramApi: false },
        { global: false, ai: true, telegramApi: false },
      ]);
    } finally {
      unsubscribe();
    }
  });

  it('keeps the settings across a restart', async () => {
    const before = (await get()).body;
    await panel.stop();
    const restarted = await startPanel({ reuse: { dataDir: panel.dataDir, databaseUrl: panel.databaseUrl } });
    try {
      const response = await requestJson<SettingsBody>(restarted.url, '/api/config/settings', { token });
      expect(response.status).toBe(200);
      expect(response.body).toEqual(before);
    } finally {
      await restarted.stop();
    }
  });
});
