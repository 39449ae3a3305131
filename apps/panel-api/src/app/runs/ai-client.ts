import { Injectable } from '@nestjs/common';
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

export type AiErrorKind = 'timeout' | 'not_configured' | 'error' | 'aborted';

export class AiError extends Error {
  constructor(
    readonly kind: AiErrorKind,
    message: string,
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
  constructor(private readonly settings: SettingsService) {}

  async answer(question: AiQuestion, options: AiCallOptions): Promise<string> {
    const ai = this.settings.getAi();
    if (!ai.api_key || !ai.model) throw new AiError('not_configured', 'AI settings are incomplete: set ai_model and ai_api_key (and ai_base_url for a non-OpenAI server)');
    const { default: OpenAI } = await import('openai');
    const client = new OpenAI({ apiKey: ai.api_key, baseURL: ai.base_url ?? undefined, timeout: options.timeoutMs, maxRetries: 0 });
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
      if (!text) throw new AiError('error', 'The model gave an empty answer');
      return text;
    } catch (error) {
      if (error instanceof AiError) throw error;
      if (options.signal.aborted) throw new AiError('aborted', 'The AI request was cancelled');
      if (error instanceof OpenAI.APIConnectionTimeoutError) throw new AiError('timeout', `The model did not answer within ${Math.round(options.timeoutMs / 1000)} s`);
      // Inside Jest fetch's abort error comes from another realm, so a timeout shows as its parent class.
      if (error instanceof OpenAI.APIConnectionError && Date.now() - started >= options.timeoutMs - 50) {
        throw new AiError('timeout', `The model did not answer within ${Math.round(options.timeoutMs / 1000)} s`);
      }
      if (error instanceof OpenAI.APIError) throw new AiError('error', `The model API failed: ${error.message}`);
      throw new AiError('error', `The model API failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
