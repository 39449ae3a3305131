import { LocalHttpProxy, LocalTelegramBotApi, LocalWebhookReceiver, requestJson, verifyHostMonitorSignature } from '@shared/testing';
import { AiSettingsService } from '../src/app/ai-settings/ai-settings.service';
import { loadMonitorConfig } from '../src/app/config/monitor-config';
import { GithubAppSettingsService } from '../src/app/github-app-settings/github-app-settings.service';
import { NotificationChannelsService } from '../src/app/notification-channels/notification-channels.service';
import { AdminSession, RunningMonitor, TEST_ADMIN_ENV, TEST_ENCRYPTION_KEY, adminHeaders, loginAdmin, startMonitor } from './harness';

const INBOUND_SECRET = 'inbound-github-secret-123';

describe('console settings', () => {
  let telegram: LocalTelegramBotApi;
  let receiver: LocalWebhookReceiver;
  let monitor: RunningMonitor;
  let admin: AdminSession;

  const call = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
    requestJson<T>(monitor.url, path, { method, body, headers: adminHeaders(admin) });

  beforeAll(async () => {
    telegram = await new LocalTelegramBotApi().start();
    receiver = await new LocalWebhookReceiver().start();
    monitor = await startMonitor({
      env: {
        ...TEST_ADMIN_ENV,
        MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        MONITOR_VCS_APP_ID: '424242',
        MONITOR_VCS_WEBHOOK_SECRET: INBOUND_SECRET,
        MONITOR_AI_MODEL: 'env-model',
        MONITOR_BOT_API_BASE_URL: telegram.apiBaseUrl,
        MONITOR_STARRED_USERNAME: 'octocat',
      },
    });
    admin = await loginAdmin(monitor);
  });

  afterAll(async () => {
    await monitor?.close();
    await telegram?.close();
    await receiver?.close();
  });

  describe('GitHub App', () => {
    it('locks fields set by environment with github_field_locked', async () => {
      const current = await call('GET', '/api/v1/github/app');
      expect(current.status).toBe(200);
      expect(current.body).toMatchObject({ app_id: '424242', webhook_secret_set: true, locked_fields: ['app_id', 'webhook_secret'] });
      const locked = await call('PUT', '/api/v1/github/app', { app_id: '1' });
      expect(locked.status).toBe(409);
      expect(locked.body).toEqual({ error_code: 'github_field_locked', message: expect.any(String), details: { field: 'app_id' } });
      const lockedSecret = await call('PUT', '/api/v1/github/app', { webhook_secret: 'another-secret-1' });
      expect(lockedSecret.body['details']).toEqual({ field: 'webhook_secret' });
    });

    it('stores unlocked fields (the private key encrypted) and applies them without restart', async () => {
      const { generateKeyPairSync } = await import('node:crypto');
      const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
      const saved = await call('PUT', '/api/v1/github/app', { client_id: 'Iv1.abc', private_key: pem, public_base_url: 'https://monitor.example.com/' });
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({ client_id: 'Iv1.abc', private_key_set: true, public_base_url: 'https://monitor.example.com', configured: true });
      expect(JSON.stringify(saved.body)).not.toContain('PRIVATE KEY');
      const effective = await monitor.app.get(GithubAppSettingsService).current();
      expect(effective).toMatchObject({ appId: '424242', clientId: 'Iv1.abc', privateKey: pem, webhookSecrets: [INBOUND_SECRET] });
    });

    it('answers 400 on bad input', async () => {
      expect((await call('PUT', '/api/v1/github/app', { client_id: 5 })).status).toBe(400);
      expect((await call('PUT', '/api/v1/github/app', { private_key: 'not a key' })).status).toBe(400);
      expect((await call('PUT', '/api/v1/github/app', { public_base_url: 'ftp://x' })).status).toBe(400);
      expect((await call('PUT', '/api/v1/github/app', { unknown_field: 'x' })).status).toBe(400);
    });
  });

  describe('notification channels', () => {
    let webhookId: string;
    let telegramId: string;

    it('creates a webhook channel, never returns its secret, and refuses the inbound secret', async () => {
      const refused = await call('POST', '/api/v1/notification-channels', {
        kind: 'http_webhook',
        name: 'reuse',
        url: receiver.urlFor('/hook'),
        secret: INBOUND_SECRET,
        allow_private: true,
      });
      expect(refused.status).toBe(400);
      expect(refused.body['message']).toMatch(/inbound/);

      const created = await call<Record<string, unknown>>('POST', '/api/v1/notification-channels', {
        kind: 'http_webhook',
        name: 'Receiver',
        url: receiver.urlFor('/hook'),
        secret: 'whsec_AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=',
        allow_private: true,
        event_kinds: ['release', 'workflow_run'],
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ kind: 'http_webhook', name: 'Receiver', enabled: true, secret_set: true, allow_private: true, url: receiver.urlFor('/hook') });
      expect(JSON.stringify(created.body)).not.toContain('whsec_AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=');
      expect(created.body).not.toHaveProperty('secret');
      webhookId = created.body['id'] as string;
    });

    it('refuses plain http receivers unless the channel allows private targets (a local receiver)', async () => {
      const plain = await call('POST', '/api/v1/notification-channels', { kind: 'http_webhook', name: 'plain', url: 'http://hooks.example.com/x', secret: 'whsec_BAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQ=' });
      expect(plain.status).toBe(400);
      expect(plain.body).toMatchObject({ error_code: 'validation_failed', details: { field: 'url' } });
      expect(String(plain.body['message'])).toMatch(/url must be https.*allow_private.*MONITOR_HTTP_WEBHOOK_ALLOW_INSECURE/);
      const secure = await call('POST', '/api/v1/notification-channels', { kind: 'http_webhook', name: 'secure', url: 'https://hooks.example.com/x', secret: 'whsec_BAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQ=' });
      expect(secure.status).toBe(201);
      // Changing a channel to plain http is refused the same way.
      const moved = await call('PATCH', `/api/v1/notification-channels/${secure.body['id'] as string}`, { url: 'http://hooks.example.com/y' });
      expect(moved.status).toBe(400);
      expect((await call('DELETE', `/api/v1/notification-channels/${secure.body['id'] as string}`)).status).toBe(204);
    });

    it('refuses private targets unless allowed, duplicate names and bad input', async () => {
      const privateTarget = await call('POST', '/api/v1/notification-channels', { kind: 'http_webhook', name: 'private', url: 'http://10.0.0.5/hook', secret: 'whsec_AgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgI=' });
      expect(privateTarget.status).toBe(400);
      // Rules the console words itself (the sentences name allow_private, an API field).
      type Refusal = { details?: { fields?: Array<{ field: string; rule: string }> } };
      expect((privateTarget.body as Refusal).details?.fields?.map(({ field, rule }) => ({ field, rule }))).toEqual([{ field: 'url', rule: 'plain_http' }]);
      const privateHttps = await call('POST', '/api/v1/notification-channels', { kind: 'http_webhook', name: 'private', url: 'https://10.0.0.5/hook', secret: 'whsec_AgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgI=' });
      expect([privateHttps.status, (privateHttps.body as Refusal).details?.fields?.map(({ field, rule }) => ({ field, rule }))]).toEqual([400, [{ field: 'url', rule: 'private_address' }]]);
      const duplicate = await call('POST', '/api/v1/notification-channels', {
        kind: 'http_webhook',
        name: 'Receiver',
        url: 'https://hooks.example.com/x',
        secret: 'whsec_AwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwM=',
      });
      expect(duplicate.status).toBe(409);
      // The taken name is a field problem the console puts on the name field, in its own words.
      expect((duplicate.body as { details?: { fields?: unknown } }).details?.fields).toEqual([{ field: 'name', rule: 'taken', message: 'a channel with this name exists' }]);
      expect((await call('POST', '/api/v1/notification-channels', { kind: 'sms', name: 'x' })).status).toBe(400);
      expect((await call('POST', '/api/v1/notification-channels', { kind: 'telegram', name: 'no chat', secret: telegram.token })).status).toBe(400);
      expect((await call('POST', '/api/v1/notification-channels', { kind: 'http_webhook', name: 'x', url: 'https://a.example', secret: 'short' })).status).toBe(400);
      expect((await call('POST', '/api/v1/notification-channels', { kind: 'http_webhook', name: 'x', url: 'https://a.example', secret: 'long-enough-secret-1', event_kinds: ['nope'] })).status).toBe(400);
      expect((await call('GET', '/api/v1/notification-channels/not-a-uuid')).status).toBe(400);
      expect((await call('GET', '/api/v1/notification-channels/3f1c8a52-4c1e-4f7b-9c59-0d6b2a1e7f10')).status).toBe(404);
    });

    it('tests a webhook channel with a signed request', async () => {
      const result = await call('POST', `/api/v1/notification-channels/${webhookId}/test`);
      expect(result.status).toBe(200);
      expect(result.body).toMatchObject({ ok: true, status: 200 });
      const [delivery] = receiver.requestsTo('/hook');
      expect(delivery).toBeDefined();
      expect(verifyHostMonitorSignature(delivery, 'whsec_AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=')).toBe(true);
    });

    it('refuses null in a channel update, the secret included', async () => {
      for (const field of ['secret', 'url', 'name', 'enabled', 'event_kinds', 'allow_private']) {
        const refused = await call('PATCH', `/api/v1/notification-channels/${webhookId}`, { [field]: null });
        expect({ field, status: refused.status, code: refused.body['error_code'] }).toEqual({ field, status: 400, code: 'validation_failed' });
      }
      expect((await call('GET', `/api/v1/notification-channels/${webhookId}`)).body).toMatchObject({ secret_set: true, url: receiver.urlFor('/hook') });
    });

    it('creates, tests, toggles, updates and deletes a Telegram channel', async () => {
      const created = await call<Record<string, unknown>>('POST', '/api/v1/notification-channels', {
        kind: 'telegram',
        name: 'Chat',
        chat_id: '-100123',
        secret: telegram.token,
      });
      expect(created.status).toBe(201);
      telegramId = created.body['id'] as string;
      const tested = await call('POST', `/api/v1/notification-channels/${telegramId}/test`);
      expect(tested.body).toMatchObject({ ok: true });
      expect(telegram.messagesTo('-100123')).toHaveLength(1);

      const disabled = await call('POST', `/api/v1/notification-channels/${telegramId}/toggle`, { enabled: false });
      expect(disabled.body).toMatchObject({ enabled: false });
      expect((await call('POST', `/api/v1/notification-channels/${telegramId}/toggle`, {})).status).toBe(400);
      const deliverable = await monitor.app.get(NotificationChannelsService).deliverableChannels();
      expect(deliverable.map((channel) => channel.id)).toEqual([webhookId]);
      expect(deliverable[0]).toMatchObject({ secret: 'whsec_AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=', eventKinds: ['release', 'workflow_run'] });

      const renamed = await call('PATCH', `/api/v1/notification-channels/${telegramId}`, { name: 'Team chat', chat_id: '@team_channel' });
      expect(renamed.body).toMatchObject({ name: 'Team chat', chat_id: '@team_channel', enabled: false });
      const list = await call<{ items: Array<{ id: string }>; total: number; page: number; per_page: number }>('GET', '/api/v1/notification-channels');
      expect(list.body).toMatchObject({ total: 2, page: 1, per_page: 20 });
      expect((await call('DELETE', `/api/v1/notification-channels/${telegramId}`)).status).toBe(204);
      expect((await call('GET', `/api/v1/notification-channels/${telegramId}`)).status).toBe(404);
    });
  });

  describe('AI settings', () => {
    it('locks environment fields with ai_field_locked and details.field', async () => {
      const current = await call('GET', '/api/v1/ai/config');
      expect(current.body).toMatchObject({ enabled: false, model: 'env-model', api_key_set: false, timeout: '30s', max_tokens: 800, retries: 1, locked_fields: ['model'] });
      const locked = await call('PUT', '/api/v1/ai/config', { model: 'other' });
      expect(locked.status).toBe(409);
      expect(locked.body).toEqual({ error_code: 'ai_field_locked', message: expect.any(String), details: { field: 'model' } });
    });

    it('requires a key to enable AI, stores it encrypted and applies changes without restart', async () => {
      const noKey = await call('PUT', '/api/v1/ai/config', { enabled: true });
      expect(noKey.status).toBe(400);
      expect(noKey.body['details']).toEqual({ field: 'api_key', fields: [{ field: 'api_key', rule: 'invalid', message: expect.stringMatching(/api_key is required when AI is enabled/) }] });
      const saved = await call('PUT', '/api/v1/ai/config', { enabled: true, api_key: 'sk-test-secret-key', base_url: 'http://127.0.0.1:9/v1', timeout: '45s', triage_enabled: false });
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({ enabled: true, api_key_set: true, base_url: 'http://127.0.0.1:9/v1', timeout: '45s', triage_enabled: false });
      expect(JSON.stringify(saved.body)).not.toContain('sk-test-secret-key');
      const effective = await monitor.app.get(AiSettingsService).current();
      expect(effective).toMatchObject({ enabled: true, apiKey: 'sk-test-secret-key', model: 'env-model', timeoutMs: 45_000, features: { triage: false, digest: true } });
    });

    it('never sends the stored key to an unsaved base_url in the connectivity test', async () => {
      const elsewhere = receiver.urlFor('/unsaved/v1');
      const refused = await call('POST', '/api/v1/ai/test', { base_url: elsewhere });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ error_code: 'validation_failed', details: { field: 'api_key' } });
      expect(receiver.requestsTo('/unsaved/v1/chat/completions')).toHaveLength(0);
      // With its own key the unsaved address is tried, and only that key goes there.
      const tried = await call('POST', '/api/v1/ai/test', { base_url: elsewhere, api_key: 'sk-form-key' });
      expect(tried.status).toBe(200);
      const sent = receiver.requestsTo('/unsaved/v1/chat/completions');
      expect(sent.length).toBeGreaterThan(0);
      expect(sent.map((request) => request.headers['authorization'])).toEqual(sent.map(() => 'Bearer sk-form-key'));
      // The saved address (trailing slash or not) still uses the stored key without one in the request.
      expect((await call('POST', '/api/v1/ai/test', { base_url: 'http://127.0.0.1:9/v1/' })).status).toBe(200);
    });

    it('does not let a stored key follow a changed base_url: the key must be given again', async () => {
      const elsewhere = receiver.urlFor('/moved/v1');
      const refused = await call('PUT', '/api/v1/ai/config', { base_url: elsewhere });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ error_code: 'validation_failed', details: { field: 'api_key' } });
      expect(String(refused.body['message'])).toMatch(/api_key is required again when base_url changes/);
      expect(await monitor.app.get(AiSettingsService).current()).toMatchObject({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-test-secret-key' });
      // The same address written differently is no change.
      expect((await call('PUT', '/api/v1/ai/config', { base_url: 'HTTP://127.0.0.1:9/v1/' })).status).toBe(200);
      // With the key given again the address moves, and only that key goes there.
      const moved = await call('PUT', '/api/v1/ai/config', { base_url: elsewhere, api_key: 'sk-for-the-new-host' });
      expect(moved.status).toBe(200);
      expect(await monitor.app.get(AiSettingsService).current()).toMatchObject({ baseUrl: elsewhere, apiKey: 'sk-for-the-new-host' });
      await call('POST', '/api/v1/ai/test', {});
      const sent = receiver.requestsTo('/moved/v1/chat/completions');
      expect(sent.length).toBeGreaterThan(0);
      expect(new Set(sent.map((request) => request.headers['authorization']))).toEqual(new Set(['Bearer sk-for-the-new-host']));
      // Back to the first address, with its key (the later tests expect it).
      expect((await call('PUT', '/api/v1/ai/config', { base_url: 'http://127.0.0.1:9/v1', api_key: 'sk-test-secret-key' })).status).toBe(200);
    });

    it('keeps a key set by MONITOR_AI_API_KEY at MONITOR_AI_BASE_URL: the console cannot move it, the test cannot send it elsewhere', async () => {
      const other = await startMonitor({ env: { ...TEST_ADMIN_ENV, MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, MONITOR_AI_API_KEY: 'sk-from-environment' } });
      try {
        const otherSession = await loginAdmin(other);
        const otherCall = (method: string, path: string, body?: unknown) =>
          requestJson<Record<string, unknown>>(other.url, path, { method, headers: adminHeaders(otherSession), body });
        const moved = await otherCall('PUT', '/api/v1/ai/config', { base_url: receiver.urlFor('/env-key/v1') });
        expect(moved.status).toBe(400);
        expect(moved.body).toMatchObject({ error_code: 'validation_failed', details: { field: 'base_url' } });
        const tested = await otherCall('POST', '/api/v1/ai/test', { base_url: receiver.urlFor('/env-key/v1') });
        expect(tested.status).toBe(400);
        expect(tested.body).toMatchObject({ error_code: 'validation_failed', details: { field: 'api_key' } });
        expect(receiver.requestsTo('/env-key/v1/chat/completions')).toHaveLength(0);
        // Other fields still save.
        expect((await otherCall('PUT', '/api/v1/ai/config', { model: 'gpt-4o' })).status).toBe(200);
      } finally {
        await other.close();
      }
    });

    it('answers 400 on bad input', async () => {
      expect((await call('PUT', '/api/v1/ai/config', { max_tokens: 5 })).status).toBe(400);
      expect((await call('PUT', '/api/v1/ai/config', { timeout: 'soon' })).status).toBe(400);
      expect((await call('PUT', '/api/v1/ai/config', { base_url: 'not a url' })).status).toBe(400);
      for (const field of ['model', 'base_url', 'timeout', 'max_tokens', 'retries', 'enabled', 'triage_enabled']) {
        const refused = await call('PUT', '/api/v1/ai/config', { [field]: null });
        expect({ field, status: refused.status, code: refused.body['error_code'] }).toEqual({ field, status: 400, code: 'validation_failed' });
      }
      expect((await call('GET', '/api/v1/ai/config')).body).toMatchObject({ max_tokens: 800, base_url: 'http://127.0.0.1:9/v1', timeout: '45s' });
    });
  });

  describe('system settings', () => {
    it('starts from the defaults with the starred user from the environment', async () => {
      const current = await call('GET', '/api/v1/system/settings');
      expect(current.body).toEqual({
        time_zone: 'UTC',
        digest_time: '09:00',
        weekly_report: { enabled: false, weekday: 'monday' },
        monthly_report: { enabled: false, day: 1 },
        retention: { events_days: 90, outbox_days: 30, deliveries_days: 30 },
        aggregation: { window_seconds: 60, burst_threshold: 15, burst_window_seconds: 300 },
        starred_username: 'octocat',
      });
    });

    it('saves partial changes, and the saved starred user wins over the environment after restart', async () => {
      const saved = await call('PUT', '/api/v1/system/settings', {
        time_zone: 'Europe/Berlin',
        monthly_report: { enabled: true },
        retention: { events_days: 30 },
        starred_username: 'hubot',
      });
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({
        time_zone: 'Europe/Berlin',
        monthly_report: { enabled: true, day: 1 },
        retention: { events_days: 30, outbox_days: 30, deliveries_days: 30 },
        starred_username: 'hubot',
      });
      await monitor.stop();
      monitor = await startMonitor({ reuseEnv: monitor.env });
      admin = await loginAdmin(monitor);
      expect((await call('GET', '/api/v1/system/settings')).body).toMatchObject({ starred_username: 'hubot', time_zone: 'Europe/Berlin' });
    });

    it('answers 400 on bad input', async () => {
      expect((await call('PUT', '/api/v1/system/settings', { time_zone: 'Mars/Olympus' })).status).toBe(400);
      expect((await call('PUT', '/api/v1/system/settings', { digest_time: '25:00' })).status).toBe(400);
      expect((await call('PUT', '/api/v1/system/settings', { monthly_report: { day: 29 } })).status).toBe(400);
      expect((await call('PUT', '/api/v1/system/settings', { weekly_report: { weekday: 'someday' } })).status).toBe(400);
      expect((await call('PUT', '/api/v1/system/settings', { retention: { events_days: 0 } })).status).toBe(400);
      const before = (await call('GET', '/api/v1/system/settings')).body;
      for (const body of [{ retention: { events_days: null } }, { aggregation: { burst_threshold: null } }, { time_zone: null }, { retention: null }, { weekly_report: { weekday: null } }]) {
        const refused = await call('PUT', '/api/v1/system/settings', body);
        expect({ body, status: refused.status, code: refused.body['error_code'] }).toEqual({ body, status: 400, code: 'validation_failed' });
      }
      expect((await call('GET', '/api/v1/system/settings')).body).toEqual(before);
    });
  });

  it('records admin actions in the audit log, without secrets', async () => {
    const log = await call<{ items: Array<{ action: string }>; total: number }>('GET', '/api/v1/audit-log?per_page=100');
    expect(log.status).toBe(200);
    const actions = log.body.items.map((item) => item.action);
    expect(actions).toEqual(
      expect.arrayContaining(['admin.created_by_bootstrap', 'auth.login', 'github_app.updated', 'notification_channel.created', 'ai_settings.updated', 'system_settings.updated']),
    );
    expect(log.text).not.toContain('sk-test-secret-key');
    expect(log.text).not.toContain('whsec_AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=');
    expect((await call('GET', '/api/v1/audit-log?per_page=500')).status).toBe(400);
  });
});

describe('console settings without a master key', () => {
  it('answers encryption_unavailable (503) when a secret must be stored', async () => {
    const monitor = await startMonitor({ env: { ...TEST_ADMIN_ENV } });
    try {
      const admin = await loginAdmin(monitor);
      const channel = await requestJson(monitor.url, '/api/v1/notification-channels', {
        method: 'POST',
        headers: adminHeaders(admin),
        body: { kind: 'http_webhook', name: 'x', url: 'https://hooks.example.com/x', secret: 'whsec_CQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQk=' },
      });
      expect(channel.status).toBe(503);
      expect(channel.body).toMatchObject({ error_code: 'encryption_unavailable' });
      const ai = await requestJson(monitor.url, '/api/v1/ai/config', { method: 'PUT', headers: adminHeaders(admin), body: { api_key: 'sk-x' } });
      expect(ai.status).toBe(503);
      // Non-secret settings still work without a key.
      expect((await requestJson(monitor.url, '/api/v1/ai/config', { method: 'PUT', headers: adminHeaders(admin), body: { model: 'm' } })).status).toBe(200);
    } finally {
      await monitor.close();
    }
  });
});

describe('plain http receivers with MONITOR_HTTP_WEBHOOK_ALLOW_INSECURE', () => {
  it('accepts a plain http receiver URL without allow_private, and refuses an http seed URL without either switch', async () => {
    const insecure = await startMonitor({ env: { ...TEST_ADMIN_ENV, MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, MONITOR_HTTP_WEBHOOK_ALLOW_INSECURE: 'true' } });
    try {
      const session = await loginAdmin(insecure);
      const created = await requestJson<Record<string, unknown>>(insecure.url, '/api/v1/notification-channels', {
        method: 'POST',
        headers: adminHeaders(session),
        body: { kind: 'http_webhook', name: 'plain', url: 'http://hooks.example.com/x', secret: 'whsec_BQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQU=' },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ url: 'http://hooks.example.com/x', allow_private: false });
    } finally {
      await insecure.close();
    }
    expect(() => loadMonitorConfig({ env: { MONITOR_HTTP_WEBHOOK_URL: 'http://hooks.example.com/x' } })).toThrow(/MONITOR_HTTP_WEBHOOK_URL: must be https/);
    expect(() => loadMonitorConfig({ env: { MONITOR_HTTP_WEBHOOK_URL: 'http://hooks.example.com/x', MONITOR_HTTP_WEBHOOK_ALLOW_INSECURE: 'true' } })).not.toThrow();
  });
});

describe('channels seeded from the environment', () => {
  it('seeds each channel once; afterwards the console value is authoritative', async () => {
    const receiver = await new LocalWebhookReceiver().start();
    const seedEnv = {
      ...TEST_ADMIN_ENV,
      MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      MONITOR_HTTP_WEBHOOK_URL: receiver.urlFor('/seeded'),
      MONITOR_HTTP_WEBHOOK_SECRET: 'env-outbound-secret-0001',
      MONITOR_HTTP_WEBHOOK_ALLOW_PRIVATE: 'true',
      MONITOR_BOT_TOKEN: '123456:TEST-bot-token',
      MONITOR_BOT_CHAT_ID: '-1001',
    };
    let monitor = await startMonitor({ env: seedEnv });
    try {
      let admin = await loginAdmin(monitor);
      const list = await requestJson<{ items: Array<{ id: string; kind: string; url: string | null; chat_id: string | null; allow_private: boolean }> }>(
        monitor.url,
        '/api/v1/notification-channels',
        { headers: adminHeaders(admin) },
      );
      expect(list.body.items.map((item) => item.kind).sort()).toEqual(['http_webhook', 'telegram']);
      const webhook = list.body.items.find((item) => item.kind === 'http_webhook');
      const bot = list.body.items.find((item) => item.kind === 'telegram');
      expect(webhook).toMatchObject({ url: receiver.urlFor('/seeded'), allow_private: true });
      expect(bot).toMatchObject({ chat_id: '-1001' });

      const patched = await requestJson(monitor.url, `/api/v1/notification-channels/${webhook?.id}`, {
        method: 'PATCH',
        headers: adminHeaders(admin),
        body: { secret: 'whsec_CwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCws=' },
      });
      expect(patched.status).toBe(200);
      await requestJson(monitor.url, `/api/v1/notification-channels/${bot?.id}`, { method: 'DELETE', headers: adminHeaders(admin) });

      await monitor.stop();
      monitor = await startMonitor({ reuseEnv: monitor.env });
      admin = await loginAdmin(monitor);
      const channels = await monitor.app.get(NotificationChannelsService).deliverableChannels();
      expect(channels.map((channel) => [channel.kind, channel.secret])).toEqual([['http_webhook', 'whsec_CwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCws=']]);
    } finally {
      await monitor.close();
      await receiver.close();
    }
  });
});

describe('notification channel test through HTTPS_PROXY', () => {
  const receiver = new LocalWebhookReceiver();
  const proxy = new LocalHttpProxy();
  let monitor: RunningMonitor;

  beforeAll(async () => {
    await Promise.all([receiver.start(), proxy.start()]);
    monitor = await startMonitor({ env: { ...TEST_ADMIN_ENV, MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, HTTPS_PROXY: proxy.url } });
  });

  afterAll(async () => {
    await monitor?.close();
    await Promise.all([receiver.close(), proxy.close()]);
  });

  it('sends the test message of a webhook channel through the proxy like the outbox worker', async () => {
    const admin = await loginAdmin(monitor);
    const created = await requestJson<Record<string, unknown>>(monitor.url, '/api/v1/notification-channels', {
      method: 'POST',
      headers: adminHeaders(admin),
      body: { kind: 'http_webhook', name: 'Proxied', url: receiver.urlFor('/proxied'), secret: 'whsec_CQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQk=', allow_private: true },
    });
    expect(created.status).toBe(201);
    const tested = await requestJson(monitor.url, `/api/v1/notification-channels/${String(created.body['id'])}/test`, { method: 'POST', headers: adminHeaders(admin) });
    expect(tested.body).toMatchObject({ ok: true, status: 200 });
    expect(proxy.requests.filter((request) => request.method === 'CONNECT').map((request) => request.target)).toEqual([`127.0.0.1:${receiver.port}`]);
    expect(verifyHostMonitorSignature(receiver.requestsTo('/proxied')[0], 'whsec_CQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQk=')).toBe(true);
  });
});
