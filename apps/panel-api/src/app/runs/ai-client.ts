import { englishText } from '@shared/panel-texts';
import { Inject, Injectable } from '@nestjs/common';
import { fetchRefusingRedirects, RedirectRefusedError, resolveTarget } from '@shared/notify';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import type { ChatCompletionContentPart } from 'openai/resources/chat/completions';
import { SettingsService } from '../settings/settings.service';

/** The model port of the AI actions 4-7; production talks to an OpenAI-compatible API with the saved AI settings. */
export const AI_CLIENT = Symbol('AI_CLIENT');

export interface AiQuestion {
  /** What the model must do, including the expected answer format. */
  instruction: string;
  /** The text the bot showed (a question), when there is one. */
  text?: string;
  /** An image the bot showed, when there is one. */
  image?: { data: Buffer; mimeType: string };
}

export interface AiCallOptions {
  signal: AbortSignal;
  timeoutMs: number;
}

/**
 * What went wrong, in words of our own (the upstream body is never repeated: it may echo the key or
 * come from a server that is not an AI API at all): `unreachable` (no connection), `unauthorized`
 * (HTTP 401/403), `rate_limited` (429), `bad_response` (another HTTP error, or an answer that is not
 * one), `refused` (the URL points at a private address or redirected elsewhere).
 */
export type AiErrorKind = 'timeout' | 'not_configured' | 'error' | 'aborted' | 'unreachable' | 'unauthorized' | 'rate_limited' | 'bad_response' | 'refused';

export class AiError extends Error {
  constructor(
    readonly kind: AiErrorKind,
    message: string,
    /** The HTTP status the model API answered, when it answered. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'AiError';
  }
}

export interface AiClient {
  /** The model's answer as plain text (trimmed); AiError on any failure. */
  answer(question: AiQuestion, options: AiCallOptions): Promise<string>;
}

/**
 * The openai client against the base URL, model and key saved in `.openai_config.json`. The package
 * is loaded with the first question, so a panel without AI actions never holds it in memory.
 */
@Injectable()
export class OpenAiCompatibleClient implements AiClient {
  constructor(
    private readonly settings: SettingsService,
    @Inject(PANEL_CONFIG) private readonly config: Pick<PanelConfig, 'outbound'>,
  ) {}

  async answer(question: AiQuestion, options: AiCallOptions): Promise<string> {
    const ai = this.settings.getAi();
    if (!ai.api_key || !ai.model) throw new AiError('not_configured', englishText('runMessage', 'ai_not_configured'));
    const { default: OpenAI } = await import('openai');
    if (ai.base_url && !this.config.outbound.allowPrivate) {
      const check = await resolveTarget(ai.base_url, { allowPrivate: false });
      if (!check.ok && check.reason === 'private_target_refused') {
        throw new AiError('refused', `ai_base_url: the ${check.message}; outbound requests to non-public addresses are off: set APP_OUTBOUND_ALLOW_PRIVATE=1 if this server is yours`);
      }
    }
    // The API key goes with every request: a redirect is never followed (the saved URL must be the final one).
    const client = new OpenAI({ apiKey: ai.api_key, baseURL: ai.base_url ?? undefined, timeout: options.timeoutMs, maxRetries: 0, fetch: fetchRefusingRedirects() });
    const content: ChatCompletionContentPart[] = [];
    if (question.text) content.push({ type: 'text', text: question.text });
    if (question.image) {
      content.push({ type: 'image_url', image_url: { url: `data:${question.image.mimeType};base64,${question.image.data.toString('base64')}` } });
    }
    if (content.length === 0) content.push({ type: 'text', text: '(no content)' });
    const started = Date.now();
    try {
      const completion = await client.chat.completions.create(
        {
          model: ai.model,
          messages: [
            { role: 'system', content: question.instruction },
            { role: 'user', content },
          ],
          temperature: 0,
        },
        { signal: options.signal, timeout: options.timeoutMs },
      );
      const text = completion.choices[0]?.message.content?.trim();
      if (!text) throw new AiError('bad_response', englishText('runMessage', 'ai_empty_answer'));
      return text;
    } catch (error) {
      if (error instanceof AiError) throw error;
      if (options.signal.aborted) throw new AiError('aborted', englishText('runMessage', 'ai_cancelled'));
      if (error instanceof OpenAI.APIConnectionTimeoutError) throw new AiError('timeout', englishText('runMessage', 'ai_timeout', { seconds: Math.round(options.timeoutMs / 1000) }));
      // Inside Jest fetch's abort error comes from another realm, so a timeout shows as its parent class.
      if (error instanceof OpenAI.APIConnectionError && Date.now() - started >= options.timeoutMs - 50) {
        throw new AiError('timeout', englishText('runMessage', 'ai_timeout', { seconds: Math.round(options.timeoutMs / 1000) }));
      }
      throw classifyAiFailure(error, OpenAI.APIError, OpenAI.APIConnectionError);
    }
  }
}

/** The AiError for a failure of the openai client: a kind, the status, and a message of our own. */
export function classifyAiFailure(error: unknown, apiError: abstract new (...args: never[]) => Error, connectionError: abstract new (...args: never[]) => Error): AiError {
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  if (error instanceof RedirectRefusedError || cause instanceof RedirectRefusedError) return new AiError('refused', (cause instanceof RedirectRefusedError ? cause : (error as Error)).message);
  if (error instanceof connectionError) {
    const code = (cause as { code?: unknown; cause?: { code?: unknown } } | undefined)?.code ?? (cause as { cause?: { code?: unknown } } | undefined)?.cause?.code;
    return new AiError('unreachable', typeof code === 'string' ? englishText('runMessage', 'ai_unreachable_code', { code }) : englishText('runMessage', 'ai_unreachable'));
  }
  if (error instanceof apiError) {
    const status = (error as { status?: unknown }).status;
    if (status === 401 || status === 403) return new AiError('unauthorized', englishText('runMessage', 'ai_unauthorized', { status }), status);
    if (status === 429) return new AiError('rate_limited', englishText('runMessage', 'ai_rate_limited'), status);
    if (typeof status === 'number') return new AiError('bad_response', englishText('runMessage', 'ai_http_error', { status }), status);
    return new AiError('bad_response', englishText('runMessage', 'ai_not_openai'));
  }
  return new AiError('error', englishText('runMessage', 'ai_failed'));
}
