import { Inject, Injectable, Optional } from '@nestjs/common';
import { fetchThrough } from '@shared/outbound-http';
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { Dispatcher } from 'undici';
import { EFFECTIVE_AI_SETTINGS, EffectiveAiSettings, EffectiveAiSettingsProvider } from '../ai-settings/ai-settings.service';
import { AiFeatureSwitches } from '../config/monitor-config';
import { MetricsService } from '../metrics/metrics.service';
import { OUTBOUND_DISPATCHER } from '../outbound/outbound-dispatcher';

export type AiFeature = keyof AiFeatureSwitches;

/** Why a model answer is missing; every AI feature falls back on any of these. */
export type AiFailureCode =
  | 'disabled'
  | 'not_configured'
  | 'timeout'
  | 'server_error'
  | 'rate_limited'
  | 'auth_failed'
  | 'bad_request'
  | 'connection_failed'
  | 'malformed_response'
  | 'empty_response';

export type AiOutcome =
  | { ok: true; text: string; elapsedMs: number; model: string; promptTokens?: number; completionTokens?: number }
  | { ok: false; code: AiFailureCode; message: string; elapsedMs: number; upstreamStatus?: number };

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

export interface CompletionOptions {
  /** Ask for a JSON object (response_format json_object). */
  json?: boolean;
  /**
   * A hard cap on the whole call, retries included. Real-time steps pass the configured timeout so a
   * notification never waits longer than it; without it each attempt has the timeout.
   */
  deadlineMs?: number;
  /** Aborts the call (and classifies it as a timeout): the caller's own deadline. */
  signal?: AbortSignal;
  /** Metrics label; default the feature. */
  metricsFeature?: string;
  /** false: count nothing (the console's connectivity test changes no runtime state). */
  record?: boolean;
}

/** Whether a feature may call the model now: master switch, feature switch and an API key. */
export function featureAvailable(settings: EffectiveAiSettings, feature: AiFeature): AiFailureCode | undefined {
  if (!settings.enabled || !settings.features[feature]) return 'disabled';
  if (!settings.apiKey) return 'not_configured';
  return undefined;
}

/**
 * The one chat-completions client of the service (the `openai` package against any compatible
 * endpoint), built per call from the effective settings so console changes apply at once, and
 * sending through the outbound dispatcher (HTTPS_PROXY / NO_PROXY). It never throws: every
 * failure is classified so the features can fall back.
 */
@Injectable()
export class AiClient {
  constructor(
    @Inject(EFFECTIVE_AI_SETTINGS) private readonly settingsProvider: EffectiveAiSettingsProvider,
    @Optional() @Inject(OUTBOUND_DISPATCHER) private readonly dispatcher?: Dispatcher,
    @Optional() private readonly metrics?: MetricsService,
  ) {}

  settings(): Promise<EffectiveAiSettings> {
    return this.settingsProvider.current();
  }

  /** Settings for `feature` when it may run now, else the reason it may not. */
  async settingsFor(feature: AiFeature): Promise<{ settings: EffectiveAiSettings; unavailable?: AiFailureCode }> {
    const settings = await this.settings();
    return { settings, unavailable: featureAvailable(settings, feature) };
  }

  /** One completion for `feature` with the effective settings (checked against the switches). */
  async completeFor(feature: AiFeature, messages: ChatMessage[], options: CompletionOptions = {}): Promise<AiOutcome> {
    const { settings, unavailable } = await this.settingsFor(feature);
    if (unavailable) return { ok: false, code: unavailable, message: unavailable === 'disabled' ? `AI ${feature} is switched off` : 'no AI API key is configured', elapsedMs: 0 };
    return this.complete(settings, messages, { metricsFeature: feature, ...options });
  }

  /** One completion with explicit settings (the connectivity test passes unsaved values). */
  async complete(settings: EffectiveAiSettings, messages: ChatMessage[], options: CompletionOptions = {}): Promise<AiOutcome> {
    const started = Date.now();
    const outcome = await this.call(settings, messages, options, started);
    if (options.record !== false && this.metrics) {
      this.metrics.aiRequestFinished(options.metricsFeature ?? 'other', {
        ok: outcome.ok,
        code: outcome.ok ? undefined : outcome.code,
        elapsedMs: outcome.elapsedMs,
        promptTokens: outcome.ok ? outcome.promptTokens : undefined,
        completionTokens: outcome.ok ? outcome.completionTokens : undefined,
      });
    }
    return outcome;
  }

  private async call(settings: EffectiveAiSettings, messages: ChatMessage[], options: CompletionOptions, started: number): Promise<AiOutcome> {
    const dispatcher = this.dispatcher;
    const client = new OpenAI({
      apiKey: settings.apiKey ?? 'unset',
      baseURL: settings.baseUrl,
      timeout: settings.timeoutMs,
      maxRetries: settings.retries,
      fetch: dispatcher ? fetchThrough(dispatcher) : undefined,
    });
    const controller = new AbortController();
    const timer = options.deadlineMs ? setTimeout(() => controller.abort(), options.deadlineMs) : undefined;
    const onOuterAbort = () => controller.abort();
    options.signal?.addEventListener('abort', onOuterAbort, { once: true });
    if (options.signal?.aborted) controller.abort();
    const elapsed = () => Date.now() - started;
    try {
      const completion = await client.chat.completions.create(
        {
          model: settings.model,
          messages,
          max_tokens: settings.maxTokens,
          temperature: 0.2,
          ...(options.json ? { response_format: { type: 'json_object' as const } } : {}),
        },
        { signal: controller.signal },
      );
      const choice = Array.isArray(completion?.choices) ? completion.choices[0] : undefined;
      if (!choice || !choice.message) return { ok: false, code: 'malformed_response', message: 'the answer has no choices', elapsedMs: elapsed() };
      const text = typeof choice.message.content === 'string' ? choice.message.content.trim() : '';
      if (!text) return { ok: false, code: 'empty_response', message: 'the model answered with no text', elapsedMs: elapsed() };
      return {
        ok: true,
        text,
        elapsedMs: elapsed(),
        model: typeof completion.model === 'string' ? completion.model : settings.model,
        promptTokens: completion.usage?.prompt_tokens,
        completionTokens: completion.usage?.completion_tokens,
      };
    } catch (error) {
      return { ok: false, ...classifyAiError(error, elapsed(), settings.timeoutMs, controller.signal.aborted), elapsedMs: elapsed() };
    } finally {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onOuterAbort);
    }
  }
}

/**
 * Maps an error of the openai client to a failure code. Our own abort is the deadline, so it is a
 * timeout; a connection error after the configured timeout is one too (inside Jest the client's
 * own timeout surfaces as a plain APIConnectionError).
 */
export function classifyAiError(error: unknown, elapsedMs: number, timeoutMs: number, aborted: boolean): { code: AiFailureCode; message: string; upstreamStatus?: number } {
  const message = error instanceof Error ? error.message.slice(0, 300) : String(error).slice(0, 300);
  if (aborted || error instanceof APIUserAbortError || error instanceof APIConnectionTimeoutError) {
    return { code: 'timeout', message: `no answer within ${timeoutMs} ms` };
  }
  if (error instanceof APIConnectionError) {
    if (elapsedMs >= timeoutMs * 0.95) return { code: 'timeout', message: `no answer within ${timeoutMs} ms` };
    return { code: 'connection_failed', message };
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const upstreamStatus = error.status;
    if (error.status >= 500) return { code: 'server_error', message: `HTTP ${error.status}: ${message}`, upstreamStatus };
    if (error.status === 429) return { code: 'rate_limited', message, upstreamStatus };
    if (error.status === 401 || error.status === 403) return { code: 'auth_failed', message: `HTTP ${error.status}: the endpoint refused the API key`, upstreamStatus };
    if (error.status === 408) return { code: 'timeout', message, upstreamStatus };
    return { code: 'bad_request', message: `HTTP ${error.status}: ${message}`, upstreamStatus };
  }
  if (error instanceof SyntaxError || /json/i.test(message)) return { code: 'malformed_response', message: 'the answer is not valid JSON' };
  return { code: 'connection_failed', message };
}
