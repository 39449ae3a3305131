// Database-free: the outbound guard refusing private addresses before any connection.
import { LocalOpenAiServer, LocalWebDavServer, requestJson } from '@shared/testing';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';

/**
 * With APP_OUTBOUND_ALLOW_PRIVATE off (the default outside the tests), URLs the admin saves that
 * point at loopback or private addresses are refused before anything is sent.
 */
describe('outbound URLs to private addresses (APP_OUTBOUND_ALLOW_PRIVATE=0)', () => {
  let panel: RunningPanel;
  let token: string;
  const webdav = new LocalWebDavServer();
  const openai = new LocalOpenAiServer({ apiKey: 'sk-local', reply: () => 'OK' });
  const call = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => requestJson<T>(panel.url, path, { method, token, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    await webdav.start();
    await openai.start();
    panel = await startPanel({ env: { APP_OUTBOUND_ALLOW_PRIVATE: '0' } });
    token = await loginAsAdmin(panel);
  });

  afterAll(async () => {
    await panel?.close();
    await webdav.close();
    await openai.close();
  });

  it('refuses a WebDAV server on a loopback address before connecting', async () => {
    const saved = await call('PUT', '/api/config/settings', { webdav_url: webdav.url, webdav_username: webdav.username, webdav_password: webdav.password });
    expect(saved.status).toBe(200);
    const tested = await call<{ ok: boolean; error?: string }>('POST', '/api/ops/backup/webdav/test');
    expect(tested.status).toBe(200);
    expect(tested.body.ok).toBe(false);
    expect(tested.body.error).toMatch(/127\.0\.0\.1 is a loopback address .*set APP_OUTBOUND_ALLOW_PRIVATE=1/);
  });

  it('refuses an AI base URL on a loopback address (error_kind refused), sending it nothing', async () => {
    expect((await call('PUT', '/api/config/settings', { ai_base_url: openai.baseUrl, ai_model: 'gpt-4o-mini', ai_api_key: 'sk-local' })).status).toBe(200);
    const tested = await call<{ ok: boolean; error_kind?: string; error?: string }>('POST', '/api/config/ai/test');
    expect(tested.body).toMatchObject({ ok: false, error_kind: 'refused' });
    expect(tested.body.error).toMatch(/loopback address; outbound requests to non-public addresses are off/);
    expect(openai.completions).toHaveLength(0);
  });
});
