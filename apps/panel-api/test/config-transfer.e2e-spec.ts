import { requestJson, tempDir } from '@shared/testing';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigItemSection, ConfigSectionRegistry, ImportSummary, isSecretPlaceholder, ItemCheck, ItemToWrite, maskSecret } from '../src/app/config-transfer/config-sections';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';

const SECRETS = { webdav_password: 'dav-secret', bot_token: '123456:bot-secret', ai_api_key: 'sk-ai-secret', telegram_api_hash: '0123456789abcdef0123456789abcdef' };

/**
 * A stand-in for the task store (a port double, like the Telegram simulator): documents as JSON
 * files with one secret field, `token`. It lets these tests drive every path of the registry before
 * and independently of the real task feature.
 */
class FileItemSection implements ConfigItemSection {
  failNextApply = false;
  constructor(
    readonly key: string,
    readonly label: string,
    private readonly dir: string,
  ) {}

  stored(name: string): Record<string, unknown> | undefined {
    const path = join(this.dir, `${name}.json`);
    return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>) : undefined;
  }

  names(): string[] {
    return readdirSync(this.dir).map((file) => file.replace(/\.json$/, '')).sort();
  }

  put(document: Record<string, unknown>): void {
    writeFileSync(join(this.dir, `${String(document['name'])}.json`), JSON.stringify(document));
  }

  async exportAll(): Promise<Array<Record<string, unknown>>> {
    return this.names().map((name) => this.masked(this.stored(name) ?? {}));
  }

  async exportOne(name: string): Promise<Record<string, unknown> | undefined> {
    const stored = this.stored(name);
    return stored && this.masked(stored);
  }

  async check(document: unknown): Promise<ItemCheck> {
    if (!document || typeof document !== 'object') return { problems: ['must be an object'] };
    const { name, chat_id } = document as Record<string, unknown>;
    const problems: string[] = [];
    if (typeof name !== 'string' || !/^[a-z0-9-]+$/.test(name)) problems.push('name must be lower-case letters, digits and "-"');
    if (typeof chat_id !== 'number') problems.push('chat_id must be a number');
    return { name: typeof name === 'string' ? name : undefined, problems };
  }

  async exists(name: string): Promise<boolean> {
    return this.stored(name) !== undefined;
  }

  async apply(items: ItemToWrite[]): Promise<() => Promise<void>> {
    if (this.failNextApply) {
      this.failNextApply = false;
      throw new Error('disk full');
    }
    const before = items.map((item) => ({ name: item.name, document: this.stored(item.name) }));
    for (const item of items) {
      const token = isSecretPlaceholder(item.document['token']) ? this.stored(item.name)?.['token'] ?? null : item.document['token'];
      this.put({ ...item.document, token });
    }
    return async () => {
      for (const { name, document } of before) {
        if (document) this.put(document);
        else rmSync(join(this.dir, `${name}.json`));
      }
    };
  }

  private masked(document: Record<string, unknown>): Record<string, unknown> {
    return { ...document, token: maskSecret(document['token'] as string | null) };
  }
}

describe('configuration export and import', () => {
  let panel: RunningPanel;
  let token: string;
  let signs: FileItemSection;
  let monitors: FileItemSection;
  const hookCalls: ImportSummary[] = [];
  const storage = tempDir('config-sections-');

  const call = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
    requestJson<T>(panel.url, path, { method, token, ...(body === undefined ? {} : { body }) });
  const settingsFile = (name: string) => JSON.parse(readFileSync(join(panel.dataDir, name), 'utf8')) as Record<string, unknown>;

  beforeAll(async () => {
    panel = await startPanel();
    token = await loginAsAdmin(panel);
    rmSync(storage.path, { recursive: true, force: true });
    for (const folder of ['signs', 'monitors']) mkdirSync(join(storage.path, folder), { recursive: true });
    signs = new FileItemSection('signs', 'sign task', join(storage.path, 'signs'));
    monitors = new FileItemSection('monitors', 'monitor', join(storage.path, 'monitors'));
    const registry = panel.app.get(ConfigSectionRegistry);
    registry.registerItemSection(signs);
    registry.registerItemSection(monitors);
    registry.onImported('scheduler', (summary) => {
      hookCalls.push(summary);
    });
    registry.onImported('listeners', () => {
      throw new Error('listener restart refused');
    });
    signs.put({ name: 'daily', chat_id: 1, token: 'task-secret' });
    const saved = await call('PUT', '/api/config/settings', { ...SECRETS, timezone: 'Europe/Berlin', webdav_url: 'https://dav.example.test/' });
    expect(saved.status).toBe(200);
  });

  afterAll(async () => {
    await panel?.close();
    storage.remove();
  });

  it('answers 401 without a token', async () => {
    for (const [method, path] of [
      ['GET', '/api/config/export/all'],
      ['GET', '/api/config/export/sign/daily'],
      ['POST', '/api/config/import/all'],
      ['POST', '/api/config/import/sign'],
      ['POST', '/api/config/import-preview'],
    ]) {
      expect({ path, status: (await requestJson(panel.url, path, { method, ...(method === 'POST' ? { body: { config_json: '{}' } } : {}) })).status }).toEqual({ path, status: 401 });
    }
  });

  it('answers 400 on a malformed request and changes nothing', async () => {
    for (const body of [{}, { config_json: 5 }, { config_json: '{"broken' }, { config_json: '[1]' }, { config_json: '{}', overwrite: 'yes' }, { config_json: '{}', extra: 1 }]) {
      for (const path of ['/api/config/import/all', '/api/config/import-preview', '/api/config/import/sign']) {
        const response = await call('POST', path, body);
        expect({ path, body, status: response.status }).toEqual({ path, body, status: 400 });
      }
    }
    expect(settingsFile('.global_settings.json')['timezone']).toBe('Europe/Berlin');
  });

  it('exports tasks, monitors and settings in the documented format with every secret masked', async () => {
    const response = await call<Record<string, unknown>>('GET', '/api/config/export/all');
    expect(response.status).toBe(200);
    expect(response.body['_meta']).toMatchObject({ format: 'tg-signpulse-config-export', version: 1 });
    expect(response.body['signs']).toEqual([{ name: 'daily', chat_id: 1, token: '***MASKED***' }]);
    expect(response.body['monitors']).toEqual([]);
    expect(response.body['settings']).toMatchObject({
      global: { timezone: 'Europe/Berlin', webdav_url: 'https://dav.example.test/', webdav_password: '***MASKED***', bot_token: '***MASKED***', bot_chat_id: null },
      ai: { api_key: '***MASKED***', base_url: null },
      telegram_api: { api_hash: '***MASKED***', api_id: null },
    });
    for (const secret of [...Object.values(SECRETS), 'task-secret']) expect(response.text).not.toContain(secret);

    const one = await call<Record<string, unknown>>('GET', '/api/config/export/sign/daily');
    expect(one.body).toMatchObject({ _meta: { scope: 'sign' }, signs: [{ name: 'daily', token: '***MASKED***' }] });
    expect((await call('GET', '/api/config/export/sign/nope')).status).toBe(404);
  });

  it('previews what an import would do and writes nothing', async () => {
    const exported = (await call<Record<string, unknown>>('GET', '/api/config/export/all')).body;
    const settings = exported['settings'] as { global: Record<string, unknown> };
    const document = {
      ...exported,
      signs: [{ name: 'daily', chat_id: 2, token: '***' }, { name: 'weekly', chat_id: 3, token: 'new' }, { name: 'Bad Name', chat_id: 'x' }],
      settings: { ...settings, global: { ...settings.global, timezone: 'Asia/Tokyo' } },
    };
    const preview = await call<Record<string, unknown>>('POST', '/api/config/import-preview', { config_json: JSON.stringify(document), overwrite: true });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      valid: false,
      counts: { create: 1, overwrite: 1, skip: 0, refuse: 1 },
      items: [
        { section: 'signs', name: 'daily', action: 'overwrite' },
        { section: 'signs', name: 'weekly', action: 'create' },
        { section: 'signs', name: 'Bad Name', action: 'refuse', reason: expect.stringContaining('chat_id must be a number') },
      ],
      settings: { action: 'overwrite', changed_fields: ['global.timezone'], kept_secrets: expect.arrayContaining(['global.webdav_password', 'ai.api_key']) },
    });
    const withoutOverwrite = await call<Record<string, unknown>>('POST', '/api/config/import-preview', { config_json: { signs: [{ name: 'daily', chat_id: 2 }] } });
    expect(withoutOverwrite.body).toMatchObject({ valid: true, items: [{ name: 'daily', action: 'skip' }], settings: { action: 'absent' } });
    expect(signs.names()).toEqual(['daily']);
    expect(signs.stored('daily')).toEqual({ name: 'daily', chat_id: 1, token: 'task-secret' });
    expect(settingsFile('.global_settings.json')['timezone']).toBe('Europe/Berlin');
  });

  it('refuses the whole import when any part is invalid, naming every problem', async () => {
    const response = await call<{ message: string }>('POST', '/api/config/import/all', {
      overwrite: true,
      config_json: {
        _meta: { format: 'tg-signpulse-config-export', version: 1 },
        signs: [{ name: 'weekly', chat_id: 3 }, { name: 'broken', chat_id: 'x' }],
        settings: { global: { timezone: 'Asia/Tokyo', auto_backup_keep: 0, no_such_setting: 1 } },
        webhooks: [],
      },
    });
    expect(response.status).toBe(400);
    for (const part of ['signs[1] (broken): chat_id must be a number', 'settings.global.auto_backup_keep must be between', 'settings.global.no_such_setting is not a known setting', 'webhooks is not a section']) {
      expect(response.body.message).toContain(part);
    }
    expect(signs.names()).toEqual(['daily']);
    expect(settingsFile('.global_settings.json')['timezone']).toBe('Europe/Berlin');
    const future = await call<{ message: string }>('POST', '/api/config/import/all', { config_json: { _meta: { format: 'tg-signpulse-config-export', version: 2 } } });
    expect(future.status).toBe(400);
    expect(future.body.message).toContain('_meta.version 2 is not supported');
  });

  it('imports all or nothing: a failed write undoes what was already written', async () => {
    monitors.failNextApply = true;
    const response = await call('POST', '/api/config/import/all', {
      overwrite: true,
      config_json: { signs: [{ name: 'weekly', chat_id: 3 }], monitors: [{ name: 'watch', chat_id: 4 }], settings: { global: { timezone: 'Asia/Tokyo' } } },
    });
    expect(response.status).toBe(500);
    expect(signs.names()).toEqual(['daily']);
    expect(monitors.names()).toEqual([]);
    expect(settingsFile('.global_settings.json')['timezone']).toBe('Europe/Berlin');
  });

  it('round-trips an export: placeholders keep stored secrets, real values replace them, hooks run afterwards', async () => {
    const exported = (await call<Record<string, unknown>>('GET', '/api/config/export/all')).body;
    const settings = exported['settings'] as Record<string, Record<string, unknown>>;
    await call('PUT', '/api/config/settings', { timezone: 'UTC', auto_backup_keep: 3 });
    hookCalls.length = 0;
    const document = {
      ...exported,
      signs: [{ name: 'daily', chat_id: 9, token: 'REDACTED' }, { name: 'weekly', chat_id: 3, token: 'weekly-secret' }],
      settings: {
        global: { ...settings['global'], webdav_password: 'MASKED', bot_token: '***' },
        ai: { ...settings['ai'], api_key: 'sk-replaced' },
        telegram_api: settings['telegram_api'],
      },
    };
    const response = await call<Record<string, unknown>>('POST', '/api/config/import/all', { config_json: JSON.stringify(document), overwrite: true });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      created: [{ name: 'weekly' }],
      overwritten: [{ name: 'daily' }],
      skipped: [],
      settings: { action: 'overwrite' },
    });
    // Other features (the real keyword listeners) may have registered their own steps too.
    expect(response.body['post_import']).toEqual(
      expect.arrayContaining([
        { name: 'scheduler', ok: true, error: null },
        { name: 'listeners', ok: false, error: 'listener restart refused' },
      ]),
    );
    expect(hookCalls).toEqual([{ created: { signs: ['weekly'] }, overwritten: { signs: ['daily'] }, settingsChanged: true }]);
    expect(signs.stored('daily')).toEqual({ name: 'daily', chat_id: 9, token: 'task-secret' });
    expect(signs.stored('weekly')).toEqual({ name: 'weekly', chat_id: 3, token: 'weekly-secret' });
    const global = settingsFile('.global_settings.json');
    expect(global).toMatchObject({ timezone: 'Europe/Berlin', auto_backup_keep: 7, webdav_password: SECRETS.webdav_password, bot_token: SECRETS.bot_token });
    expect(settingsFile('.openai_config.json')['api_key']).toBe('sk-replaced');
    expect(settingsFile('.telegram_api.json')['api_hash']).toBe(SECRETS.telegram_api_hash);
  });

  it('skips what exists without overwrite', async () => {
    const response = await call<Record<string, unknown>>('POST', '/api/config/import/all', {
      config_json: { signs: [{ name: 'daily', chat_id: 100 }, { name: 'monthly', chat_id: 5 }], settings: { global: { timezone: 'Asia/Tokyo' } } },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ created: [{ name: 'monthly' }], skipped: [{ name: 'daily' }], settings: { action: 'skip' } });
    expect(signs.stored('daily')?.['chat_id']).toBe(9);
    expect(settingsFile('.global_settings.json')['timezone']).toBe('Europe/Berlin');
  });

  it('imports one sign task from its document or a one-task export', async () => {
    const bare = await call<Record<string, unknown>>('POST', '/api/config/import/sign', { config_json: { name: 'single', chat_id: 7, token: 't' } });
    expect(bare.status).toBe(200);
    expect(bare.body['created']).toEqual([{ section: 'signs', name: 'single', action: 'create', reason: null }]);
    const exported = (await call<Record<string, unknown>>('GET', '/api/config/export/sign/single')).body;
    const again = await call<Record<string, unknown>>('POST', '/api/config/import/sign', { config_json: JSON.stringify(exported), overwrite: true });
    expect(again.body['overwritten']).toEqual([{ section: 'signs', name: 'single', action: 'overwrite', reason: null }]);
    expect(signs.stored('single')?.['token']).toBe('t');
    const two = await call<{ message: string }>('POST', '/api/config/import/sign', { config_json: { signs: [{ name: 'a', chat_id: 1 }, { name: 'b', chat_id: 2 }] } });
    expect(two.status).toBe(400);
    expect(two.body.message).toContain('exactly one sign task');
    const withSettings = await call('POST', '/api/config/import/sign', { config_json: { signs: [{ name: 'a', chat_id: 1 }], settings: {} } });
    expect(withSettings.status).toBe(400);
    expect(signs.stored('a')).toBeUndefined();
  });
});
