import type { ServerResponse } from 'node:http';
import { headerValue, LocalHttpServer, type RecordedRequest, sendJson } from './local-http-server';

/** A failure the stand-in answers instead of performing a method. */
export interface TelegramApiFailure {
  /** 400, 403, 429, 500 ... (also the HTTP status). */
  errorCode: number;
  description: string;
  /** For 429: `parameters.retry_after`. */
  retryAfter?: number;
  /** Only this method fails (default: any method but getMe). */
  method?: string;
}

/** A message the stand-in accepted. */
export interface TelegramRecordedMessage {
  messageId: number;
  chatId: number | string;
  /** The text exactly as sent (markup included). */
  text: string;
  /** The text as Telegram would show it (tags removed, entities decoded). */
  plainText: string;
  parseMode?: string;
  messageThreadId?: number;
  replyMarkup?: unknown;
  linkPreviewOptions?: { is_disabled?: boolean } & Record<string, unknown>;
  disableNotification?: boolean;
  date: number;
}

export interface LocalTelegramBotApiOptions {
  /** The only token accepted (default `123456:TEST-bot-token`). */
  token?: string;
  botUsername?: string;
  /** When set, any other chat id answers 400 `chat not found`. */
  knownChatIds?: Array<number | string>;
}

const TELEGRAM_HTML_TAGS = new Set(['b', 'strong', 'i', 'em', 'u', 'ins', 's', 'strike', 'del', 'span', 'tg-spoiler', 'a', 'code', 'pre', 'blockquote', 'tg-emoji']);
const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

/** Parses Telegram HTML like the Bot API does; returns the visible text or the error description. */
export function parseTelegramHtml(html: string): { ok: true; text: string } | { ok: false; description: string } {
  const stack: string[] = [];
  let text = '';
  const pattern = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)(\s[^<>]*)?>|&(#\d+|#x[0-9a-fA-F]+|[a-zA-Z]+);|[<>&]/g;
  let last = 0;
  for (const match of html.matchAll(pattern)) {
    const index = match.index ?? 0;
    text += html.slice(last, index);
    last = index + match[0].length;
    const offset = Buffer.byteLength(html.slice(0, index));
    if (match[0] === '<' || match[0] === '>') {
      if (match[0] === '>') {
        text += '>';
        continue;
      }
      return { ok: false, description: `Bad Request: can't parse entities: Unexpected end of name token at byte offset ${offset}` };
    }
    if (match[0] === '&') {
      text += '&';
      continue;
    }
    if (match[4] !== undefined) {
      const entity = match[4];
      if (entity.startsWith('#x')) text += String.fromCodePoint(parseInt(entity.slice(2), 16));
      else if (entity.startsWith('#')) text += String.fromCodePoint(Number(entity.slice(1)));
      else if (NAMED_ENTITIES[entity] !== undefined) text += NAMED_ENTITIES[entity];
      else return { ok: false, description: `Bad Request: can't parse entities: Unsupported HTML entity "&${entity};" at byte offset ${offset}` };
      continue;
    }
    const name = (match[2] as string).toLowerCase();
    if (!TELEGRAM_HTML_TAGS.has(name)) return { ok: false, description: `Bad Request: can't parse entities: Unsupported start tag "${name}" at byte offset ${offset}` };
    if (match[1] === '/') {
      const expected = stack.pop();
      if (expected !== name) {
        return { ok: false, description: `Bad Request: can't parse entities: Unmatched end tag at byte offset ${offset}, expected "</${expected ?? ''}>", found "</${name}>"` };
      }
    } else stack.push(name);
  }
  text += html.slice(last);
  if (stack.length > 0) return { ok: false, description: `Bad Request: can't parse entities: Can't find end tag corresponding to start tag "${stack[stack.length - 1]}"` };
  return { ok: true, text };
}

/**
 * A local Telegram Bot API: `getMe` and `sendMessage` with the real answer shapes, HTML checking,
 * the 4096-character limit, and programmable failures (429 with retry_after, 400, 403, 5xx).
 */
export class LocalTelegramBotApi extends LocalHttpServer {
  readonly token: string;
  readonly botId: number;
  readonly botUsername: string;
  /** Every message accepted by sendMessage, oldest first. */
  readonly messages: TelegramRecordedMessage[] = [];
  private readonly failures: TelegramApiFailure[] = [];
  private nextMessageId = 1;

  constructor(private readonly options: LocalTelegramBotApiOptions = {}) {
    super();
    this.token = options.token ?? '123456:TEST-bot-token';
    this.botId = Number(this.token.split(':')[0]) || 123456;
    this.botUsername = options.botUsername ?? 'local_test_bot';
  }

  /** The base URL to configure (the sender appends `/bot<token>/<method>`). */
  get apiBaseUrl(): string {
    return this.url;
  }

  /** The next requests (of `failure.method`, default any but getMe) answer these failures, in order. */
  failNext(...failures: TelegramApiFailure[]): void {
    this.failures.push(...failures);
  }

  /** Messages sent to one chat. */
  messagesTo(chatId: number | string): TelegramRecordedMessage[] {
    return this.messages.filter((message) => String(message.chatId) === String(chatId));
  }

  protected override handle(request: RecordedRequest, response: ServerResponse): void {
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(request.path);
    if (!match) {
      sendJson(response, 404, { ok: false, error_code: 404, description: 'Not Found' });
      return;
    }
    if (match[1] !== this.token) {
      sendJson(response, 401, { ok: false, error_code: 401, description: 'Unauthorized' });
      return;
    }
    const method = match[2] as string;
    const params = this.paramsOf(request);
    if (params === undefined) {
      sendJson(response, 400, { ok: false, error_code: 400, description: 'Bad Request: invalid JSON' });
      return;
    }
    const failureIndex = this.failures.findIndex((failure) => (failure.method ? failure.method === method : method !== 'getMe'));
    if (failureIndex !== -1) {
      const [failure] = this.failures.splice(failureIndex, 1) as [TelegramApiFailure];
      const body: Record<string, unknown> = { ok: false, error_code: failure.errorCode, description: failure.description };
      if (failure.retryAfter !== undefined) body['parameters'] = { retry_after: failure.retryAfter };
      sendJson(response, failure.errorCode, body, failure.retryAfter !== undefined ? { 'retry-after': String(failure.retryAfter) } : {});
      return;
    }
    if (method === 'getMe') {
      sendJson(response, 200, {
        ok: true,
        result: { id: this.botId, is_bot: true, first_name: 'Local Test Bot', username: this.botUsername, can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false },
      });
      return;
    }
    if (method === 'sendMessage') {
      this.sendMessage(params, response);
      return;
    }
    sendJson(response, 404, { ok: false, error_code: 404, description: 'Not Found: method not found' });
  }

  private sendMessage(params: Record<string, unknown>, response: ServerResponse): void {
    const fail = (description: string): void => sendJson(response, 400, { ok: false, error_code: 400, description });
    const chatId = params['chat_id'];
    if (chatId === undefined || chatId === '' || (typeof chatId !== 'number' && typeof chatId !== 'string')) return fail('Bad Request: chat_id is empty');
    if (this.options.knownChatIds && !this.options.knownChatIds.some((known) => String(known) === String(chatId))) return fail('Bad Request: chat not found');
    const text = typeof params['text'] === 'string' ? params['text'] : '';
    if (text.trim() === '') return fail('Bad Request: message text is empty');
    const parseMode = typeof params['parse_mode'] === 'string' ? params['parse_mode'] : undefined;
    let plainText = text;
    if (parseMode?.toUpperCase() === 'HTML') {
      const parsed = parseTelegramHtml(text);
      if (!parsed.ok) return fail(parsed.description);
      plainText = parsed.text;
    }
    if (plainText.length > 4096) return fail('Bad Request: message is too long');
    const threadId = params['message_thread_id'] === undefined ? undefined : Number(params['message_thread_id']);
    const date = Math.floor(Date.now() / 1000);
    const message: TelegramRecordedMessage = {
      messageId: this.nextMessageId++,
      chatId,
      text,
      plainText,
      parseMode,
      messageThreadId: threadId,
      replyMarkup: params['reply_markup'],
      linkPreviewOptions: params['link_preview_options'] as TelegramRecordedMessage['linkPreviewOptions'],
      disableNotification: params['disable_notification'] === true || params['disable_notification'] === 'true',
      date,
    };
    this.messages.push(message);
    const numericChat = Number(chatId);
    const result: Record<string, unknown> = {
      message_id: message.messageId,
      from: { id: this.botId, is_bot: true, first_name: 'Local Test Bot', username: this.botUsername },
      chat: Number.isFinite(numericChat) && numericChat > 0 ? { id: numericChat, type: 'private', first_name: 'Owner' } : { id: Number.isFinite(numericChat) ? numericChat : -1000000000001, type: 'supergroup', title: 'Test group' },
      date,
      text: plainText,
    };
    if (threadId !== undefined) {
      result['message_thread_id'] = threadId;
      result['is_topic_message'] = true;
    }
    if (message.replyMarkup !== undefined) result['reply_markup'] = message.replyMarkup;
    sendJson(response, 200, { ok: true, result });
  }

  private paramsOf(request: RecordedRequest): Record<string, unknown> | undefined {
    const params: Record<string, unknown> = Object.fromEntries(request.query.entries());
    const type = headerValue(request.headers, 'content-type') ?? '';
    if (request.rawBody.length === 0) return params;
    if (type.includes('application/json')) {
      try {
        return { ...params, ...(JSON.parse(request.bodyText) as Record<string, unknown>) };
      } catch {
        return undefined;
      }
    }
    if (type.includes('application/x-www-form-urlencoded')) {
      for (const [key, value] of new URLSearchParams(request.bodyText)) {
        params[key] = key === 'reply_markup' || key === 'link_preview_options' ? (JSON.parse(value) as unknown) : value;
      }
    }
    return params;
  }
}
