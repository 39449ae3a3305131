import { LocalWebDavServer, LocalWebhookReceiver, requestJson } from '@shared/testing';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';
import { storedSettings } from './stored-settings';

type SettingsBody = Record<string, unknown>;

/**
 * Issue 19 item 4: a stored secret never follows a changed URL. The attack: keep the stored
 * WebDAV password (or AI key), point the URL at one's own server and press "test".
 */
describe('stored secrets do not follow a changed URL', () => {
  let panel: RunningPanel;
  let token: string;
  let webdav: LocalWebDavServer;
  let attacker: LocalWebhookReceiver;

  const get = () => requestJson<SettingsBody>(panel.url, '/api/config/settings', { token });
  const put = (body: unknown) => requestJson<SettingsBody & { message?: unknown }>(panel.url, '/api/config/settings', { method: 'PUT', token, body });

  beforeAll(async () => {
    webdav = await new LocalWebDavServer().start();
    attacker = await new LocalWebhookReceiver().start();
    panel = await startPanel();
    token = await loginAsAdmin(panel);
  });

  afterAll(async () => {
    await panel?.close();
    await webdav?.close();
    await attacker?.close();
  });

  it('refuses a new WebDAV host without the password, names the field, changes nothing, and the test button still goes to the saved host', async () => {
    const saved = await put({ webdav_url: webdav.url, webdav_username: webdav.username, webdav_password: webdav.password });
    expect(saved.status).toBe(200);
    const before = (await storedSettings(panel)).text;

    for (const body of [
      { webdav_url: `${attacker.url}/dav` },
      { webdav_url: `${attacker.url}/dav`, webdav_password: '' },
      { webdav_url: `${attacker.url}/dav`, webdav_username: 'someone' },
    ]) {
      const refused = await put(body);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(JSON.stringify(refused.body.message)).toMatch(/webdav_password must be given again because webdav_url now points to another server/);
      expect(refused.body.fields).toEqual([{ field: 'webdav_password', rule: 'secret_needed_again', message: expect.stringMatching(/^The address now points to another server/) }]);
      expect(JSON.stringify(refused.body)).not.toContain(webdav.password);
    }
    expect((await storedSettings(panel)).text).toBe(before);

    const test = await requestJson<{ ok: boolean }>(panel.url, '/api/ops/backup/webdav/test', {
      method: 'POST',
      token,
      body: { webdav_url: `${attacker.url}/dav`, url: `${attacker.url}/dav` },
    });
    expect(test.body.ok).toBe(true);
    expect(attacker.requests).toEqual([]);
  });

  it('treats another scheme or port as a new server, but another path on the same server as the same one', async () => {
    const saved = new URL(webdav.url);
    expect((await put({ webdav_url: `${saved.origin}/another/folder` })).status).toBe(200);
    expect((await storedSettings(panel)).global.webdav_password).toBe(webdav.password);
    expect((await put({ webdav_url: `https://${saved.host}/` })).status).toBe(400);
    expect((await put({ webdav_url: `http://${saved.hostname}:${Number(saved.port) + 1}/` })).status).toBe(400);
    expect((await put({ webdav_url: webdav.url })).status).toBe(200);
  });

  it('accepts the new host when the password is given again or cleared', async () => {
    const moved = await put({ webdav_url: `${attacker.url}/dav`, webdav_password: 'a-new-password' });
    expect(moved.status).toBe(200);
    expect((await storedSettings(panel)).global).toMatchObject({ webdav_url: `${attacker.url}/dav`, webdav_password: 'a-new-password' });

    expect((await put({ webdav_url: webdav.url })).status).toBe(400);
    const cleared = await put({ webdav_url: webdav.url, webdav_password: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ webdav_url: webdav.url, webdav_password_set: false });
  });

  it('asks for the password again when a cleared URL is set anew', async () => {
    expect((await put({ webdav_url: webdav.url, webdav_password: webdav.password })).status).toBe(200);
    expect((await put({ webdav_url: null })).status).toBe(200);
    expect((await put({ webdav_url: `${attacker.url}/dav` })).status).toBe(400);
    expect((await get()).body).toMatchObject({ webdav_url: null, webdav_password_set: true });
  });

  it('applies the same rule to the AI base URL and its API key', async () => {
    expect((await put({ ai_base_url: 'https://api.example.test/v1', ai_api_key: 'sk-stored-key' })).status).toBe(200);
    const refused = await put({ ai_base_url: `${attacker.url}/v1`, ai_model: 'gpt-4o-mini' });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body.message)).toMatch(/ai_api_key must be given again because ai_base_url now points to another server/);
    expect((await get()).body).toMatchObject({ ai_base_url: 'https://api.example.test/v1', ai_model: null, ai_api_key_set: true });
    expect((await put({ ai_base_url: 'https://api.example.test/v2' })).status).toBe(200);
    expect((await put({ ai_base_url: `${attacker.url}/v1`, ai_api_key: 'sk-for-the-new-host' })).status).toBe(200);
    expect((await storedSettings(panel)).ai).toMatchObject({ base_url: `${attacker.url}/v1`, api_key: 'sk-for-the-new-host' });
  });

  it('refuses an import whose masked secret would follow a changed URL, and accepts it with the URL unchanged', async () => {
    expect((await put({ webdav_url: webdav.url, webdav_password: webdav.password })).status).toBe(200);
    const exported = await requestJson<Record<string, Record<string, Record<string, unknown>>>>(panel.url, '/api/config/export/all', { token });
    expect(exported.body.settings.global.webdav_password).toBe('***MASKED***');
    const moved = structuredClone(exported.body);
    moved.settings.global.webdav_url = `${attacker.url}/dav`;
    const importMoved = await requestJson<{ message?: unknown }>(panel.url, '/api/config/import/all', {
      method: 'POST',
      token,
      body: { config_json: JSON.stringify(moved), overwrite: true },
    });
    expect(importMoved.status).toBe(400);
    expect(JSON.stringify(importMoved.body)).toMatch(/webdav_password must be given again because webdav_url now points to another server/);
    expect((await storedSettings(panel)).global).toMatchObject({ webdav_url: webdav.url, webdav_password: webdav.password });

    const same = await requestJson(panel.url, '/api/config/import/all', { method: 'POST', token, body: { config_json: JSON.stringify(exported.body), overwrite: true } });
    expect(same.status).toBe(200);
    expect((await storedSettings(panel)).global).toMatchObject({ webdav_url: webdav.url, webdav_password: webdav.password });
  });

  it('still changes a URL freely while no secret is stored', async () => {
    expect((await put({ ai_api_key: null, webdav_password: null })).status).toBe(200);
    expect((await put({ ai_base_url: 'https://elsewhere.example.test/v1', webdav_url: 'https://dav.elsewhere.example.test/' })).status).toBe(200);
  });
});
