import type { ServerResponse } from 'node:http';
import { delay, headerValue, LocalHttpServer, type RecordedRequest, sendJson } from './local-http-server';

export interface ChatMessage {
  role: string;
  content?: string | Array<{ type: string; text?: string; image_url?: { url: string } }> | null;
  [key: string]: unknown;
}

/** The part of a chat-completions request a test usually looks at. */
export interface ChatCompletionRequestBody {
  model: string;
  messages: ChatMessage[];
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  response_format?: { type: string; [key: string]: unknown };
  stream?: boolean;
  [key: string]: unknown;
}

/** What the model "answers": a string is the assistant's content. */
export type ChatCompletionReply = string | { content: string; finishReason?: 'stop' | 'length' | 'content_filter'; promptTokens?: number; completionTokens?: number };

/** A non-answer the server gives instead of a completion. */
export type OpenAiFault =
  | { kind: 'status'; status: number; message?: string; type?: string; code?: string }
  | { kind: 'delay'; ms: number }
  | { kind: 'malformed' }
  | { kind: 'destroy' };

export interface LocalOpenAiServerOptions {
  /** Required as `Authorization: Bearer <apiKey>` when set (401 otherwise). */
  apiKey?: string;
  /** Model ids `/v1/models` lists; any model is accepted (default ['gpt-4o-mini']). */
  models?: string[];
  /** Content of every completion (default: echoes the last user message). */
  reply?: (request: ChatCompletionRequestBody) => ChatCompletionReply | Promise<ChatCompletionReply>;
}

/** Text of one message, with image parts shown as `[image]`. */
export function chatMessageText(message: ChatMessage | undefined): string {
  if (!message?.content) return '';
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part) => (part.type === 'text' ? (part.text ?? '') : '[image]')).join('\n');
}

function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/**
 * An OpenAI-compatible server: `POST /v1/chat/completions` (also streamed) and `GET /v1/models`,
 * with programmable replies, faults (status codes, delays, malformed JSON, dropped connections)
 * and a record of every request.
 */
export class LocalOpenAiServer extends LocalHttpServer {
  /** Parsed bodies of every chat-completions request. */
  readonly completions: ChatCompletionRequestBody[] = [];
  private readonly faults: OpenAiFault[] = [];
  private reply: (request: ChatCompletionRequestBody) => ChatCompletionReply | Promise<ChatCompletionReply>;
  private counter = 0;

  constructor(private readonly options: LocalOpenAiServerOptions = {}) {
    super();
    this.reply = options.reply ?? ((request) => `echo: ${chatMessageText([...request.messages].reverse().find((message) => message.role === 'user'))}`);
  }

  /** The base URL an OpenAI client takes (`.../v1`). */
  get baseUrl(): string {
    return `${this.url}/v1`;
  }

  setReply(reply: (request: ChatCompletionRequestBody) => ChatCompletionReply | Promise<ChatCompletionReply>): void {
    this.reply = reply;
  }

  /** The next completion requests meet these faults, in order (a `delay` then answers normally). */
  failNext(...faults: OpenAiFault[]): void {
    this.faults.push(...faults);
  }

  protected override async handle(request: RecordedRequest, response: ServerResponse): Promise<void> {
    if (this.options.apiKey && headerValue(request.headers, 'authorization') !== `Bearer ${this.options.apiKey}`) {
      sendJson(response, 401, { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } });
      return;
    }
    if (request.method === 'GET' && request.path === '/v1/models') {
      sendJson(response, 200, { object: 'list', data: (this.options.models ?? ['gpt-4o-mini']).map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'local' })) });
      return;
    }
    if (request.method === 'POST' && request.path === '/v1/chat/completions') {
      await this.chatCompletion(request, response);
      return;
    }
    sendJson(response, 404, { error: { message: `Unknown request URL: ${request.method} ${request.path}`, type: 'invalid_request_error', param: null, code: 'unknown_url' } });
  }

  private async chatCompletion(request: RecordedRequest, response: ServerResponse): Promise<void> {
    let body: ChatCompletionRequestBody;
    try {
      body = JSON.parse(request.bodyText) as ChatCompletionRequestBody;
    } catch {
      sendJson(response, 400, { error: { message: 'We could not parse the JSON body of your request.', type: 'invalid_request_error', param: null, code: null } });
      return;
    }
    if (typeof body.model !== 'string' || !Array.isArray(body.messages) || body.messages.length === 0) {
      sendJson(response, 400, { error: { message: "Missing required parameter: 'messages'.", type: 'invalid_request_error', param: 'messages', code: 'missing_required_parameter' } });
      return;
    }
    this.completions.push(body);
    const fault = this.faults.shift();
    if (fault?.kind === 'delay') await delay(fault.ms);
    if (fault?.kind === 'destroy') {
      response.socket?.destroy();
      return;
    }
    if (fault?.kind === 'malformed') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"id": "chatcmpl-broken", "choices": [');
      return;
    }
    if (fault?.kind === 'status') {
      sendJson(response, fault.status, { error: { message: fault.message ?? `The server had an error (HTTP ${fault.status}).`, type: fault.type ?? (fault.status >= 500 ? 'server_error' : 'invalid_request_error'), param: null, code: fault.code ?? null } });
      return;
    }
    const produced = await this.reply(body);
    const reply = typeof produced === 'string' ? { content: produced } : produced;
    const promptTokens = reply.promptTokens ?? estimateTokens(body.messages.map((message) => chatMessageText(message)).join('\n'));
    const completionTokens = reply.completionTokens ?? estimateTokens(reply.content);
    const id = `chatcmpl-local${++this.counter}`;
    const created = Math.floor(Date.now() / 1000);
    const usage = { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
    if (body.stream) {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const chunk = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}): string =>
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
      response.write(chunk({ role: 'assistant', content: '' }, null));
      for (const piece of reply.content.match(/[\s\S]{1,16}/g) ?? []) response.write(chunk({ content: piece }, null));
      response.write(chunk({}, reply.finishReason ?? 'stop', { usage }));
      response.end('data: [DONE]\n\n');
      return;
    }
    sendJson(response, 200, {
      id,
      object: 'chat.completion',
      created,
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content: reply.content, refusal: null }, logprobs: null, finish_reason: reply.finishReason ?? 'stop' }],
      usage,
      system_fingerprint: 'fp_local',
    });
  }
}
