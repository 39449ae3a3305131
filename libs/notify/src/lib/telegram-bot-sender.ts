import type { Dispatcher } from 'undici';
import { capRetryAfter, type DeliveryErrorCode, type DeliveryOutcome, describeFetchError, readBodyPrefix, RESPONSE_JSON_LIMIT_BYTES } from './delivery-result';
import { withDispatcher } from '@shared/outbound-http';
import { sleep } from './retry';
import { splitTelegramHtml, TELEGRAM_MESSAGE_LIMIT, truncateTelegramHtml } from './telegram-html';

export const TELEGRAM_DEFAULT_API_BASE_URL = 'https://api.telegram.org';

export interface TelegramBotSenderOptions {
  /** The bot token from @BotFather; it is part of every request path and never appears in results. */
  token: string;
  /** Bot API base URL without the `/bot<token>` part (default https://api.telegram.org). */
  baseUrl?: string;
  /** An undici dispatcher (for example a `ProxyAgent`) that every request goes through. */
  dispatcher?: Dispatcher;
  /** Per-request timeout (default 15 s). */
  timeoutMs?: number;
  /**
   * A 429 whose `retry_after` is at most this many seconds is waited out and retried in-process
   * (default 30); longer ones come back as `retryable` with `retryAfterSeconds`. 0 never waits.
   */
  maxInlineRetryAfterSeconds?: number;
  /** How many 429s one call waits out in-process (default 2). */
  maxRateLimitRetries?: number;
}

export interface TelegramUrlButton {
  text: string;
  url: string;
}

export interface TelegramMessageRequest {
  chatId: number | string;
  /** Message text; HTML unless `parseMode` says otherwise. */
  text: string;
  /** Default `HTML`; `null` sends plain text. */
  parseMode?: 'HTML' | 'MarkdownV2' | null;
  disableLinkPreview?: boolean;
  /** Forum topic id. */
  messageThreadId?: number;
  /** One inline URL button under the message (under the last part when the text is split). */
  button?: TelegramUrlButton;
  disableNotification?: boolean;
  /** Longer text is split into several messages (default) or cut to one. Only HTML-aware for `HTML`. */
  overflow?: 'split' | 'truncate';
  /** Default 4096 (the Bot API limit); repo-monitor uses 4000 with `truncate`. */
  maxLength?: number;
}

export interface TelegramSendResult {
  ok: boolean;
  outcome: DeliveryOutcome;
  /** Ids of the messages Telegram accepted, in order (several when the text was split). */
  messageIds: number[];
  /** How many parts the text became. */
  parts: number;
  /** HTTP status of the last Bot API answer. */
  status?: number;
  /** Telegram's `error_code` of the failing answer. */
  telegramErrorCode?: number;
  /** Telegram's `description`, or our reason for a network failure. */
  description?: string;
  errorCode?: DeliveryErrorCode;
  retryAfterSeconds?: number;
  attempts: number;
}

export interface TelegramBotUser {
  id: number;
  is_bot: boolean;
  first_name: string;
  username?: string;
}

export interface TelegramMessageSent {
  message_id: number;
  date: number;
  chat: { id: number; type: string };
  text?: string;
  message_thread_id?: number;
}

interface BotApiAnswer<T> {
  ok: boolean;
  result?: T;
  error_code?: number;
  description?: string;
  parameters?: { retry_after?: number; migrate_to_chat_id?: number };
}

export type TelegramCallResult<T> =
  | { ok: true; status: number; result: T; attempts: number }
  | {
      ok: false;
      outcome: 'retryable' | 'permanent';
      status?: number;
      telegramErrorCode?: number;
      description: string;
      errorCode: DeliveryErrorCode;
      retryAfterSeconds?: number;
      attempts: number;
    };

/** Sends messages through the Telegram Bot API with global fetch (optionally through a dispatcher). */
export class TelegramBotSender {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly maxInlineRetryAfterSeconds: number;
  private readonly maxRateLimitRetries: number;

  constructor(private readonly options: TelegramBotSenderOptions) {
    if (!options.token || /[\s/]/.test(options.token)) throw new Error('Telegram bot token is missing or malformed');
    this.baseUrl = (options.baseUrl ?? TELEGRAM_DEFAULT_API_BASE_URL).replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.maxInlineRetryAfterSeconds = options.maxInlineRetryAfterSeconds ?? 30;
    this.maxRateLimitRetries = options.maxRateLimitRetries ?? 2;
  }

  /** `getMe`: who the token belongs to; useful for a "test the bot settings" button. */
  async getMe(): Promise<TelegramCallResult<TelegramBotUser>> {
    return this.call<TelegramBotUser>('getMe', {});
  }

  async sendMessage(message: TelegramMessageRequest): Promise<TelegramSendResult> {
    const parseMode = message.parseMode === undefined ? 'HTML' : message.parseMode;
    const limit = message.maxLength ?? TELEGRAM_MESSAGE_LIMIT;
    const texts = this.partsOf(message.text, parseMode, limit, message.overflow ?? 'split');
    const messageIds: number[] = [];
    let attempts = 0;
    let status: number | undefined;
    for (let index = 0; index < texts.length; index++) {
      const isLast = index === texts.length - 1;
      const params: Record<string, unknown> = { chat_id: message.chatId, text: texts[index] };
      if (parseMode) params['parse_mode'] = parseMode;
      if (message.disableLinkPreview) params['link_preview_options'] = { is_disabled: true };
      if (message.messageThreadId !== undefined) params['message_thread_id'] = message.messageThreadId;
      if (message.disableNotification) params['disable_notification'] = true;
      if (message.button && isLast) params['reply_markup'] = { inline_keyboard: [[{ text: message.button.text, url: message.button.url }]] };
      const answer = await this.call<TelegramMessageSent>('sendMessage', params);
      attempts += answer.attempts;
      status = answer.status;
      if (!answer.ok) {
        return {
          ok: false,
          outcome: answer.outcome,
          messageIds,
          parts: texts.length,
          status: answer.status,
          telegramErrorCode: answer.telegramErrorCode,
          description: answer.description,
          errorCode: answer.errorCode,
          retryAfterSeconds: answer.retryAfterSeconds,
          attempts,
        };
      }
      messageIds.push(answer.result.message_id);
    }
    return { ok: true, outcome: 'sent', messageIds, parts: texts.length, status, attempts };
  }

  private partsOf(text: string, parseMode: string | null, limit: number, overflow: 'split' | 'truncate'): string[] {
    if (text.length === 0) return [text];
    if (parseMode === 'HTML') return overflow === 'split' ? splitTelegramHtml(text, limit) : [truncateTelegramHtml(text, limit)];
    const chars = Array.from(text);
    if (chars.length <= limit) return [text];
    if (overflow === 'truncate') return [chars.slice(0, limit - 1).join('') + '…'];
    const parts: string[] = [];
    for (let start = 0; start < chars.length; start += limit) parts.push(chars.slice(start, start + limit).join(''));
    return parts;
  }

  private async call<T>(method: string, params: Record<string, unknown>): Promise<TelegramCallResult<T>> {
    const url = `${this.baseUrl}/bot${this.options.token}/${method}`;
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await fetch(
          url,
          withDispatcher(
            { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(params), signal: AbortSignal.timeout(this.timeoutMs), redirect: 'manual' },
            this.options.dispatcher,
          ),
        );
      } catch (error) {
        const failure = describeFetchError(error);
        return { ok: false, outcome: 'retryable', description: this.redact(failure.message), errorCode: failure.errorCode, attempts: attempt };
      }
      const { text } = await readBodyPrefix(response, RESPONSE_JSON_LIMIT_BYTES).catch(() => ({ text: '' }));
      let answer: BotApiAnswer<T> | undefined;
      try {
        answer = JSON.parse(text) as BotApiAnswer<T>;
      } catch {
        answer = undefined;
      }
      if (response.ok && answer?.ok && answer.result !== undefined) return { ok: true, status: response.status, result: answer.result, attempts: attempt };
      const telegramErrorCode = answer?.error_code ?? response.status;
      const description = this.redact(answer?.description ?? `Bot API answered HTTP ${response.status}`);
      if (telegramErrorCode === 429 || response.status === 429) {
        const retryAfter = capRetryAfter(answer?.parameters?.retry_after ?? Number(response.headers.get('retry-after') ?? 1));
        if (attempt <= this.maxRateLimitRetries && retryAfter <= this.maxInlineRetryAfterSeconds) {
          await sleep(retryAfter * 1000);
          continue;
        }
        return { ok: false, outcome: 'retryable', status: response.status, telegramErrorCode, description, errorCode: 'rate_limited', retryAfterSeconds: retryAfter, attempts: attempt };
      }
      const retryable = response.status >= 500 || response.status === 408 || (response.ok && !answer);
      return {
        ok: false,
        outcome: retryable ? 'retryable' : 'permanent',
        status: response.status,
        telegramErrorCode,
        description,
        errorCode: response.ok ? 'rejected_by_receiver' : 'http_error',
        attempts: attempt,
      };
    }
  }

  private redact(text: string): string {
    return text.split(this.options.token).join('<token>');
  }
}

