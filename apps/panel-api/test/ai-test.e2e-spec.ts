import { LocalOpenAiServer, LocalWebhookReceiver, requestJson } from '@shared/testing';
import { loginAsAdmin, RunningPanel, startPanel } from './harness';

interface AiTestResult {
  ok: boolean;
  model: string;
  base_url: string | null;
  latency_ms: number;
  answer?: string;
  error_kind?: string;
  status?: number;
  error?: string;
}

/** POST /api/config/ai/test against the local OpenAI-compatible server. */
describe('panel-api AI test (local OpenAI-compatible server)', () => {
  let panel: RunningPanel;
  let token: string;
  const openai = new LocalOpenAiServer({ apiKey: 'sk-local', reply: () => 'OK' });

  const api = <T = Record<string, unknown>>(path: string, options: { method?: string; body?: unknown; auth?: boolean } = {}) =>
    requestJson<T>(panel.url, path, { method: options.method, body: options.body, token: options.auth === false ? undefined : token });

  beforeAll(async () => {
    await openai.start();
    panel = await startPanel();
    token = await loginAsAdmin(panel);
  });

  afterAll(async () => {
    await panel?.close();
    await openai.close();
  });

  it('answers 401 without a token and asks nothing', async () => {
    const response = await api('/api/config/ai/test', { method: 'POST', auth: false });
    expect(response.status).toBe(401);
    expect(openai.completions).toHaveLength(0);
  });

  it('answers 400 in the JSON error shape while the model or key is not saved', async () => {
    const unsaved = await api<{ statusCode: number; message: string }>('/api/config/ai/test', { method: 'POST' });
    expect(unsaved.status).toBe(400);
    expect(unsaved.body.statusCode).toBe(400);
    expect(unsaved.body.message).toMatch(/ai_model and ai_api_key/);
    const modelOnly = await api('/api/config/settings', { method: 'PUT', body: { ai_base_url: openai.baseUrl, ai_model: 'gpt-4o-mini' } });
    expect(modelOnly.status).toBe(200);
    expect((await api('/api/config/ai/test', { method: 'POST' })).status).toBe(400);
    expect(openai.completions).toHaveLength(0);
  });

  it('asks the saved model with the saved key and reports its answer', async () => {
    const saved = await api('/api/config/settings', { method: 'PUT', body: { ai_base_url: openai.baseUrl, ai_model: 'gpt-4o-mini', ai_api_key: 'sk-local' } });
    expect(saved.status).toBe(200);
    const response = await api<AiTestResult>('/api/config/ai/test', { method: 'POST' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ ok: true, model: 'gpt-4o-mini', base_url: openai.baseUrl, answer: 'OK' });
    expect(response.body.latency_ms).toBeGreaterThanOrEqual(0);
    expect(openai.completions.at(-1)?.model).toBe('gpt-4o-mini');
    expect(openai.requests.at(-1)?.headers['authorization']).toBe('Bearer sk-local');
  });

  it('reports a refusal of the model API as ok=false, classified, without echoing the upstream body', async () => {
    openai.failNext({ kind: 'status', status: 404, message: 'The model `nope` does not exist <script>upstream</script>', code: 'model_not_found' });
    const refused = await api<AiTestResult>('/api/config/ai/test', { method: 'POST' });
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ ok: false, error_kind: 'bad_response', status: 404, error: 'The model API answered HTTP 404; check ai_base_url and ai_model' });
    expect(refused.text).not.toContain('does not exist');
    expect(refused.body.answer).toBeUndefined();
    openai.failNext({ kind: 'status', status: 429, message: 'quota exceeded for org-secret', code: 'rate_limit_exceeded' });
    const limited = await api<AiTestResult>('/api/config/ai/test', { method: 'POST' });
    expect(limited.body).toMatchObject({ ok: false, error_kind: 'rate_limited', status: 429 });
    expect(limited.text).not.toContain('org-secret');
  });

  it('reports an unreachable server, and a redirect to another port (the key never arrives there)', async () => {
    const elsewhere = new LocalOpenAiServer({ apiKey: 'sk-local', reply: () => 'stolen' });
    await elsewhere.start();
    const redirecting = new LocalWebhookReceiver();
    await redirecting.start();
    try {
      redirecting.setDefaultReply({ status: 307, redirectTo: `${elsewhere.url}/v1/chat/completions` });
      expect((await api('/api/config/settings', { method: 'PUT', body: { ai_base_url: `${redirecting.url}/v1`, ai_api_key: 'sk-local' } })).status).toBe(200);
      const redirected = await api<AiTestResult>('/api/config/ai/test', { method: 'POST' });
      expect(redirected.body).toMatchObject({ ok: false, error_kind: 'refused' });
      expect(redirected.body.error).toContain(`the server redirected (HTTP 307) to ${elsewhere.url}/v1/chat/completions`);
      expect(redirecting.requests[0]?.headers['authorization']).toBe('Bearer sk-local');
      expect(elsewhere.completions).toHaveLength(0);
      await redirecting.close();
      const unreachable = await api<AiTestResult>('/api/config/ai/test', { method: 'POST' });
      expect(unreachable.body).toMatchObject({ ok: false, error_kind: 'unreachable' });
      expect(unreachable.body.error).toMatch(/^The model API could not be reached/);
    } finally {
      await redirecting.close().catch(() => undefined);
      await elsewhere.close();
      expect((await api('/api/config/settings', { method: 'PUT', body: { ai_base_url: openai.baseUrl, ai_api_key: 'sk-local' } })).status).toBe(200);
    }
  });

  it('reports a wrong key as ok=false, not as a panel error', async () => {
    expect((await api('/api/config/settings', { method: 'PUT', body: { ai_api_key: 'sk-wrong' } })).status).toBe(200);
    const wrong = await api<AiTestResult>('/api/config/ai/test', { method: 'POST' });
    expect(wrong.status).toBe(200);
    expect(wrong.body).toMatchObject({ ok: false, error_kind: 'unauthorized', status: 401, error: 'The model API refused the key (HTTP 401); check ai_api_key' });
  });
});
