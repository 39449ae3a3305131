import { LocalHttpProxy, LocalOpenAiServer } from '@shared/testing';
import type { Dispatcher } from 'undici';
import { EffectiveAiSettings, EffectiveAiSettingsProvider } from '../ai-settings/ai-settings.service';
import { createOutboundDispatcher } from '../outbound/outbound-dispatcher';
import { AiClient, featureAvailable } from './ai-client';

const KEY = 'sk-unit';
const MESSAGES = [{ role: 'user' as const, content: 'hello' }];

function settingsFor(server: LocalOpenAiServer, overrides: Partial<EffectiveAiSettings> = {}): EffectiveAiSettings {
  return {
    enabled: true,
    apiKey: KEY,
    baseUrl: server.baseUrl,
    model: 'gpt-4o-mini',
    timeoutMs: 1000,
    maxTokens: 800,
    retries: 1,
    features: { digest: true, triage: true, releaseSummary: true, codeReview: true, failureAnalysis: true },
    ...overrides,
  };
}

class FixedSettings implements EffectiveAiSettingsProvider {
  constructor(public value: EffectiveAiSettings) {}
  async current(): Promise<EffectiveAiSettings> {
    return this.value;
  }
}

describe('AiClient', () => {
  const server = new LocalOpenAiServer({ apiKey: KEY });
  const dispatchers: Dispatcher[] = [];

  beforeAll(async () => {
    await server.start();
  });

  afterAll(async () => {
    await Promise.all(dispatchers.map((dispatcher) => dispatcher.close()));
    await server.close();
  });

  beforeEach(() => {
    server.completions.length = 0;
    server.setReply(() => ({ content: 'fine', promptTokens: 7, completionTokens: 2 }));
  });

  it('sends model and max tokens from the settings and reports tokens', async () => {
    const client = new AiClient(new FixedSettings(settingsFor(server, { maxTokens: 123, model: 'local-model' })));
    const outcome = await client.completeFor('digest', MESSAGES);
    expect(outcome).toMatchObject({ ok: true, text: 'fine', model: 'local-model', promptTokens: 7, completionTokens: 2 });
    expect(server.completions[0]).toMatchObject({ model: 'local-model', max_tokens: 123 });
  });

  it('honours the master and the feature switch and needs a key', async () => {
    const provider = new FixedSettings(settingsFor(server, { enabled: false }));
    const client = new AiClient(provider);
    expect(await client.completeFor('triage', MESSAGES)).toMatchObject({ ok: false, code: 'disabled' });
    provider.value = settingsFor(server, { features: { ...settingsFor(server).features, triage: false } });
    expect(await client.completeFor('triage', MESSAGES)).toMatchObject({ ok: false, code: 'disabled' });
    expect(await client.completeFor('digest', MESSAGES)).toMatchObject({ ok: true });
    expect(featureAvailable(settingsFor(server, { apiKey: undefined }), 'digest')).toBe('not_configured');
    expect(server.completions).toHaveLength(1);
  });

  it('retries a 5xx once (retries 1) and then succeeds', async () => {
    server.failNext({ kind: 'status', status: 503 });
    const client = new AiClient(new FixedSettings(settingsFor(server)));
    expect(await client.completeFor('digest', MESSAGES)).toMatchObject({ ok: true });
    expect(server.completions).toHaveLength(2);
  });

  it('does not retry with retries 0 and classifies the failures', async () => {
    const client = new AiClient(new FixedSettings(settingsFor(server, { retries: 0 })));
    server.failNext({ kind: 'status', status: 500 });
    expect(await client.completeFor('digest', MESSAGES)).toMatchObject({ ok: false, code: 'server_error' });
    server.failNext({ kind: 'status', status: 429 });
    expect(await client.completeFor('digest', MESSAGES)).toMatchObject({ ok: false, code: 'rate_limited' });
    server.failNext({ kind: 'status', status: 400 });
    expect(await client.completeFor('digest', MESSAGES)).toMatchObject({ ok: false, code: 'bad_request' });
    server.failNext({ kind: 'malformed' });
    expect(await client.completeFor('digest', MESSAGES)).toMatchObject({ ok: false, code: 'malformed_response' });
    server.setReply(() => '   ');
    expect(await client.completeFor('digest', MESSAGES)).toMatchObject({ ok: false, code: 'empty_response' });
    expect(server.completions).toHaveLength(5);
    const wrongKey = new AiClient(new FixedSettings(settingsFor(server, { apiKey: 'sk-wrong', retries: 0 })));
    expect(await wrongKey.completeFor('digest', MESSAGES)).toMatchObject({ ok: false, code: 'auth_failed' });
  });

  it('classifies a slow endpoint as a timeout after the configured timeout, and a deadline caps retries', async () => {
    // The stand-in's late answers come after 10 s, far from every bound below, so a starved machine
    // cannot blur them (the server closes their connections when the file ends).
    server.failNext({ kind: 'delay', ms: 10_000 });
    const client = new AiClient(new FixedSettings(settingsFor(server, { timeoutMs: 300, retries: 0 })));
    const single = await client.completeFor('digest', MESSAGES);
    expect(single).toMatchObject({ ok: false, code: 'timeout' });
    expect(single.elapsedMs).toBeGreaterThanOrEqual(280);
    expect(single.elapsedMs).toBeLessThan(5_000);

    server.failNext({ kind: 'delay', ms: 10_000 });
    const withRetry = new AiClient(new FixedSettings(settingsFor(server, { timeoutMs: 5_000, retries: 1 })));
    const capped = await withRetry.completeFor('triage', MESSAGES, { deadlineMs: 400 });
    expect(capped).toMatchObject({ ok: false, code: 'timeout' });
    // One attempt, cut at the deadline: without it the attempt alone would take 5 s, then a retry.
    expect(server.completions).toHaveLength(2);
    expect(capped.elapsedMs).toBeLessThan(4_000);
  });

  it('reports a refused connection as connection_failed', async () => {
    const client = new AiClient(new FixedSettings(settingsFor(server, { baseUrl: 'http://127.0.0.1:9/v1', retries: 0 })));
    expect(await client.completeFor('digest', MESSAGES)).toMatchObject({ ok: false, code: 'connection_failed' });
  });

  it('goes through HTTPS_PROXY via the outbound dispatcher', async () => {
    const proxy = await new LocalHttpProxy().start();
    try {
      const dispatcher = createOutboundDispatcher({ httpsProxy: proxy.url });
      dispatchers.push(dispatcher);
      const client = new AiClient(new FixedSettings(settingsFor(server)), dispatcher);
      expect(await client.completeFor('digest', MESSAGES)).toMatchObject({ ok: true });
      expect(proxy.requests.some((request) => request.target.includes(new URL(server.baseUrl).host) || (request.url ?? '').includes('/v1/chat/completions'))).toBe(true);
    } finally {
      await proxy.close();
    }
  });
});
