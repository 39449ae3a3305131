import { randomUUID } from 'node:crypto';
import { signSha256Header } from '@shared/crypto';
import type { Dispatcher } from 'undici';
import {
  classifyHttpStatus,
  type DeliveryResult,
  describeFetchError,
  parseRetryAfter,
  readBodyPrefix,
  RESPONSE_JSON_LIMIT_BYTES,
  RESPONSE_SNIPPET_LIMIT_BYTES,
} from './delivery-result';
import { withDispatcher } from '@shared/outbound-http';
import { type ExponentialBackoffOptions, retryWithBackoff } from './retry';
import { type HostResolver, resolveTarget } from './address-guard';
import { redirectRefusal } from './redirect-refusal';

export interface PushMessage {
  title: string;
  body: string;
  /** A link the notification opens (Bark `url`, ntfy `Click`). */
  url?: string;
  /** The words of that link where a channel shows them (Slack, Teams); default "View on GitHub". */
  linkLabel?: string;
  /**
   * The body is already written in the channel's markup (Discord Markdown, Slack mrkdwn), its values
   * escaped by whoever wrote it (a message template): sent as it is instead of escaped as text.
   */
  formatted?: boolean;
}

export interface PushSenderOptions {
  /** Per-request timeout (default 10 s). */
  timeoutMs?: number;
  dispatcher?: Dispatcher;
  /**
   * The destination guard of repo-monitor's webhooks: when set, a URL whose host resolves to a
   * loopback, private, link-local or metadata address is refused unless `allowPrivate`.
   */
  addressGuard?: { allowPrivate: boolean; resolver?: HostResolver };
}

export type PushChannelKind = 'bark' | 'server_chan' | 'ntfy' | 'custom_webhook' | 'discord' | 'slack' | 'teams' | 'gotify' | 'email';

export interface PushResult extends DeliveryResult {
  channel: PushChannelKind;
}

/** Anything that can deliver a {@link PushMessage}. */
export interface PushSender {
  readonly channel: PushChannelKind;
  send(message: PushMessage): Promise<PushResult>;
}

interface HttpAttempt {
  outcome: DeliveryResult['outcome'];
  status?: number;
  errorCode?: DeliveryResult['errorCode'];
  message?: string;
  retryAfterSeconds?: number;
  responseSnippet?: string;
}

/**
 * One HTTP request, judged by status and (optionally) by the JSON the service answers, because
 * Bark and ServerChan report some failures inside a 200.
 */
async function attemptRequest(
  url: string,
  init: { method: string; headers?: Record<string, string>; body?: string },
  options: PushSenderOptions,
  acceptsBody?: (json: unknown) => string | undefined,
): Promise<HttpAttempt> {
  if (options.addressGuard) {
    const check = await resolveTarget(url, { allowPrivate: options.addressGuard.allowPrivate, resolver: options.addressGuard.resolver });
    if (!check.ok) return { outcome: check.reason === 'dns_failed' ? 'retryable' : 'permanent', errorCode: check.reason, message: check.message };
  }
  let response: Response;
  try {
    response = await fetch(url, withDispatcher({ ...init, redirect: 'manual', signal: AbortSignal.timeout(options.timeoutMs ?? 10_000) }, options.dispatcher));
  } catch (error) {
    const failure = describeFetchError(error);
    return { outcome: 'retryable', errorCode: failure.errorCode, message: failure.message };
  }
  const { text } = await readBodyPrefix(response, RESPONSE_JSON_LIMIT_BYTES).catch(() => ({ text: '' }));
  const responseSnippet = text.slice(0, RESPONSE_SNIPPET_LIMIT_BYTES);
  if (response.status >= 300 && response.status < 400) {
    return { outcome: 'permanent', status: response.status, errorCode: 'redirect_refused', message: redirectRefusal(response.status, response.headers.get('location'), url), responseSnippet };
  }
  const outcome = classifyHttpStatus(response.status);
  if (outcome !== 'sent') {
    return {
      outcome,
      status: response.status,
      errorCode: response.status === 429 ? 'rate_limited' : 'http_error',
      message: `HTTP ${response.status}`,
      retryAfterSeconds: parseRetryAfter(response.headers.get('retry-after')),
      responseSnippet,
    };
  }
  if (acceptsBody) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const refusal = acceptsBody(json);
    if (refusal !== undefined) return { outcome: 'permanent', status: response.status, errorCode: 'rejected_by_receiver', message: refusal, responseSnippet };
  }
  return { outcome: 'sent', status: response.status, responseSnippet };
}

function finish(channel: PushChannelKind, attempt: HttpAttempt, attempts: number, started: number): PushResult {
  return { channel, ...attempt, attempts, durationMs: Date.now() - started };
}

/** A failure result when `url` is not an http(s) URL, otherwise undefined. */
function invalidUrlResult(url: string): Omit<PushResult, 'channel'> | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return undefined;
  } catch {
    // not a URL at all
  }
  return { outcome: 'permanent', errorCode: 'invalid_url', message: 'the URL is not a valid http(s) URL', attempts: 0, durationMs: 0 };
}

export type BarkMethod = 'POST' | 'GET';

/**
 * Bark (https://github.com/Finb/Bark): `barkUrl` is the device URL the app shows,
 * e.g. `https://api.day.app/<device key>`. POST sends JSON `{title, body, url?, group?}` to it;
 * GET appends `/<title>/<body>`.
 */
export class BarkSender implements PushSender {
  readonly channel = 'bark' as const;

  constructor(
    private readonly barkUrl: string,
    private readonly options: PushSenderOptions & { method?: BarkMethod; group?: string } = {},
  ) {}

  async send(message: PushMessage): Promise<PushResult> {
    const started = Date.now();
    const invalid = invalidUrlResult(this.barkUrl);
    if (invalid) return { ...invalid, channel: this.channel };
    const base = this.barkUrl.replace(/\/+$/, '');
    const accepts = (json: unknown): string | undefined => {
      if (json && typeof json === 'object' && 'code' in json && json.code !== 200) {
        return `Bark refused the push: ${'message' in json ? String(json.message) : String(json.code)}`;
      }
      return undefined;
    };
    let attempt: HttpAttempt;
    if ((this.options.method ?? 'POST') === 'GET') {
      const query = new URLSearchParams();
      if (message.url) query.set('url', message.url);
      if (this.options.group) query.set('group', this.options.group);
      const suffix = query.size > 0 ? `?${query.toString()}` : '';
      attempt = await attemptRequest(`${base}/${encodeURIComponent(message.title)}/${encodeURIComponent(message.body)}${suffix}`, { method: 'GET' }, this.options, accepts);
    } else {
      const payload: Record<string, string> = { title: message.title, body: message.body };
      if (message.url) payload['url'] = message.url;
      if (this.options.group) payload['group'] = this.options.group;
      attempt = await attemptRequest(base, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(payload) }, this.options, accepts);
    }
    return finish(this.channel, attempt, 1, started);
  }
}

export const SERVER_CHAN_DEFAULT_BASE_URL = 'https://sctapi.ftqq.com';

/**
 * ServerChan (Server酱): POST `{title, desp}` to `<base>/<sendKey>.send`. Server酱³ keys
 * (`sctp<uid>t...`) go to `https://<uid>.push.ft07.com/send/<key>.send` unless a base URL is given.
 */
export class ServerChanSender implements PushSender {
  readonly channel = 'server_chan' as const;

  constructor(
    private readonly sendKey: string,
    private readonly options: PushSenderOptions & { baseUrl?: string } = {},
  ) {}

  endpoint(): string {
    const key = encodeURIComponent(this.sendKey);
    if (this.options.baseUrl) return `${this.options.baseUrl.replace(/\/+$/, '')}/${key}.send`;
    const sc3 = /^sctp(\d+)t/i.exec(this.sendKey);
    if (sc3) return `https://${sc3[1]}.push.ft07.com/send/${key}.send`;
    return `${SERVER_CHAN_DEFAULT_BASE_URL}/${key}.send`;
  }

  async send(message: PushMessage): Promise<PushResult> {
    const started = Date.now();
    if (!this.sendKey || /[\s/]/.test(this.sendKey)) {
      return { channel: this.channel, outcome: 'permanent', errorCode: 'invalid_url', message: 'the ServerChan send key is missing or malformed', attempts: 0, durationMs: 0 };
    }
    const desp = message.url ? `${message.body}\n\n${message.url}` : message.body;
    const attempt = await attemptRequest(
      this.endpoint(),
      { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify({ title: message.title, desp }) },
      this.options,
      (json) => {
        if (json && typeof json === 'object' && 'code' in json && json.code !== 0) {
          return `ServerChan refused the push: ${'message' in json ? String(json.message) : String(json.code)}`;
        }
        return undefined;
      },
    );
    return finish(this.channel, attempt, 1, started);
  }
}

/** RFC 2047 encoded-word for a header value that is not plain ASCII (ntfy decodes it). */
export function encodeHeaderValue(value: string): string {
  if (/^[\x20-\x7e]*$/.test(value)) return value;
  return `=?UTF-8?B?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** ntfy (https://ntfy.sh): POST the body as text to the topic URL with a `Title` header. */
export class NtfySender implements PushSender {
  readonly channel = 'ntfy' as const;

  constructor(
    private readonly topicUrl: string,
    private readonly options: PushSenderOptions & { accessToken?: string; priority?: 1 | 2 | 3 | 4 | 5; tags?: string[] } = {},
  ) {}

  async send(message: PushMessage): Promise<PushResult> {
    const started = Date.now();
    const invalid = invalidUrlResult(this.topicUrl);
    if (invalid) return { ...invalid, channel: this.channel };
    const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8', title: encodeHeaderValue(message.title) };
    if (message.url) headers['click'] = message.url;
    if (this.options.priority) headers['priority'] = String(this.options.priority);
    if (this.options.tags?.length) headers['tags'] = encodeHeaderValue(this.options.tags.join(','));
    if (this.options.accessToken) headers['authorization'] = `Bearer ${this.options.accessToken}`;
    const attempt = await attemptRequest(this.topicUrl, { method: 'POST', headers, body: message.body }, this.options);
    return finish(this.channel, attempt, 1, started);
  }
}

export interface CustomWebhookOptions extends PushSenderOptions {
  /** Signs the raw body: `X-Signature-256: sha256=<hex HMAC-SHA256(secret, body)>`. */
  secret?: string;
  /** In-process retries of retryable failures (default 3 attempts, 1 s then 2 s). */
  retry?: ExponentialBackoffOptions;
  /** Extra request headers (ours win on a clash). */
  extraHeaders?: Record<string, string>;
}

export interface CustomWebhookResult extends PushResult {
  deliveryId: string;
}

export const CUSTOM_WEBHOOK_SIGNATURE_HEADER = 'x-signature-256';
export const CUSTOM_WEBHOOK_DELIVERY_HEADER = 'x-delivery-id';
export const CUSTOM_WEBHOOK_TIMESTAMP_HEADER = 'x-timestamp';

/**
 * A JSON POST to a user's URL. Every attempt of one delivery carries the same `X-Delivery-Id`, so
 * a receiver can drop repeats; retryable failures are retried with exponential backoff, honouring
 * `Retry-After` (up to the backoff's `maxDelayMs`).
 */
export class CustomWebhookSender implements PushSender {
  readonly channel = 'custom_webhook' as const;

  constructor(
    private readonly url: string,
    private readonly options: CustomWebhookOptions = {},
  ) {}

  /** Sends `{title, body, url?, sent_at, delivery_id}` merged with `extra`. */
  async send(message: PushMessage, extra: Record<string, unknown> = {}, deliveryId: string = randomUUID()): Promise<CustomWebhookResult> {
    const payload: Record<string, unknown> = { delivery_id: deliveryId, title: message.title, body: message.body, sent_at: new Date().toISOString(), ...extra };
    if (message.url) payload['url'] = message.url;
    return this.sendJson(payload, deliveryId);
  }

  /** Sends an arbitrary JSON payload as it is. */
  async sendJson(payload: unknown, deliveryId: string = randomUUID()): Promise<CustomWebhookResult> {
    const started = Date.now();
    const invalid = invalidUrlResult(this.url);
    if (invalid) return { ...invalid, channel: this.channel, deliveryId };
    const body = JSON.stringify(payload);
    const maxDelayMs = this.options.retry?.maxDelayMs ?? 60_000;
    const { result, attempts } = await retryWithBackoff(
      async () => {
        const headers: Record<string, string> = {
          ...(this.options.extraHeaders ?? {}),
          'content-type': 'application/json; charset=utf-8',
          [CUSTOM_WEBHOOK_DELIVERY_HEADER]: deliveryId,
          [CUSTOM_WEBHOOK_TIMESTAMP_HEADER]: String(Math.floor(Date.now() / 1000)),
        };
        if (this.options.secret) headers[CUSTOM_WEBHOOK_SIGNATURE_HEADER] = signSha256Header(this.options.secret, body);
        return attemptRequest(this.url, { method: 'POST', headers, body }, this.options);
      },
      (attempt) => ({
        retry: attempt.outcome === 'retryable',
        delayMs: attempt.retryAfterSeconds !== undefined ? Math.min(attempt.retryAfterSeconds * 1000, maxDelayMs) : undefined,
      }),
      { attempts: 3, initialDelayMs: 1000, ...this.options.retry },
    );
    return { ...finish(this.channel, result, attempts, started), deliveryId };
  }
}

/** Cuts `text` to `max` characters, marking the cut with an ellipsis. */
export function clipText(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

/** Discord's limit on a message's `content`. */
export const DISCORD_CONTENT_LIMIT = 2000;

/** Text as Discord shows it literally: markdown and mention characters escaped. */
export function escapeDiscordMarkdown(text: string): string {
  return text.replace(/[\\*_~`|>#\-[\]()@<]/g, (char) => `\\${char}`);
}

/**
 * Discord incoming webhook (https://discord.com/developers/docs/resources/webhook#execute-webhook):
 * POST `{content, allowed_mentions: {parse: []}}` (no @everyone or role pings from GitHub text);
 * 204 when accepted.
 */
export class DiscordWebhookSender implements PushSender {
  readonly channel = 'discord' as const;

  constructor(
    private readonly webhookUrl: string,
    private readonly options: PushSenderOptions & { username?: string } = {},
  ) {}

  body(message: PushMessage): Record<string, unknown> {
    const link = message.url ? `\n<${message.url}>` : '';
    const head = `**${escapeDiscordMarkdown(message.title)}**\n`;
    const room = DISCORD_CONTENT_LIMIT - head.length - link.length;
    const body = message.formatted ? message.body : escapeDiscordMarkdown(message.body);
    const content = `${head}${clipText(body, Math.max(room, 1))}${link}`;
    const payload: Record<string, unknown> = { content: clipText(content, DISCORD_CONTENT_LIMIT), allowed_mentions: { parse: [] } };
    if (this.options.username) payload['username'] = this.options.username;
    return payload;
  }

  async send(message: PushMessage): Promise<PushResult> {
    const started = Date.now();
    const invalid = invalidUrlResult(this.webhookUrl);
    if (invalid) return { ...invalid, channel: this.channel };
    const attempt = await attemptRequest(this.webhookUrl, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(this.body(message)) }, this.options);
    return finish(this.channel, attempt, 1, started);
  }
}

/** Slack's `text` is best kept under this (Slack truncates longer messages). */
export const SLACK_TEXT_LIMIT = 3000;

/** Slack mrkdwn control characters escaped (https://api.slack.com/reference/surfaces/formatting#escaping). */
export function escapeSlackText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Slack incoming webhook (https://api.slack.com/messaging/webhooks): POST `{text, unfurl_links:
 * false}`; Slack answers 200 `ok`, or 4xx with a reason (`invalid_payload`, `no_service`…).
 */
export class SlackWebhookSender implements PushSender {
  readonly channel = 'slack' as const;

  constructor(
    private readonly webhookUrl: string,
    private readonly options: PushSenderOptions = {},
  ) {}

  body(message: PushMessage): Record<string, unknown> {
    const link = message.url ? `\n<${message.url.replace(/[<>|]/g, encodeURIComponent)}|${(message.linkLabel ?? 'View on GitHub').replace(/[<>|]/g, '')}>` : '';
    const head = `*${escapeSlackText(message.title)}*\n`;
    const body = message.formatted ? message.body : escapeSlackText(message.body);
    const text = `${head}${clipText(body, Math.max(SLACK_TEXT_LIMIT - head.length - link.length, 1))}${link}`;
    return { text, unfurl_links: false, unfurl_media: false };
  }

  async send(message: PushMessage): Promise<PushResult> {
    const started = Date.now();
    const invalid = invalidUrlResult(this.webhookUrl);
    if (invalid) return { ...invalid, channel: this.channel };
    const attempt = await attemptRequest(this.webhookUrl, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(this.body(message)) }, this.options);
    return finish(this.channel, attempt, 1, started);
  }
}

/** Text blocks of an Adaptive Card are kept under this. */
export const TEAMS_TEXT_LIMIT = 10_000;

/**
 * Microsoft Teams through a Workflows (Power Automate) "when a Teams webhook request is received"
 * URL: POST a `message` with one Adaptive Card attachment; 202 when accepted.
 */
export class TeamsWorkflowSender implements PushSender {
  readonly channel = 'teams' as const;

  constructor(
    private readonly workflowUrl: string,
    private readonly options: PushSenderOptions = {},
  ) {}

  body(message: PushMessage): Record<string, unknown> {
    const card: Record<string, unknown> = {
      $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
      type: 'AdaptiveCard',
      version: '1.4',
      body: [
        { type: 'TextBlock', text: clipText(message.title, 500), weight: 'Bolder', size: 'Medium', wrap: true },
        { type: 'TextBlock', text: clipText(message.body, TEAMS_TEXT_LIMIT), wrap: true },
      ],
    };
    if (message.url) card['actions'] = [{ type: 'Action.OpenUrl', title: message.linkLabel ?? 'View on GitHub', url: message.url }];
    return { type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card }] };
  }

  async send(message: PushMessage): Promise<PushResult> {
    const started = Date.now();
    const invalid = invalidUrlResult(this.workflowUrl);
    if (invalid) return { ...invalid, channel: this.channel };
    const attempt = await attemptRequest(this.workflowUrl, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(this.body(message)) }, this.options);
    return finish(this.channel, attempt, 1, started);
  }
}

/**
 * Gotify (https://gotify.net/docs/pushmsg): POST `<server>/message` with the application token in
 * `X-Gotify-Key` and `{title, message, priority, extras}`; a link opens on click.
 */
export class GotifySender implements PushSender {
  readonly channel = 'gotify' as const;

  constructor(
    private readonly serverUrl: string,
    private readonly appToken: string,
    private readonly options: PushSenderOptions & { priority?: number } = {},
  ) {}

  body(message: PushMessage): Record<string, unknown> {
    const payload: Record<string, unknown> = { title: message.title, message: message.body, priority: this.options.priority ?? 5 };
    if (message.url) payload['extras'] = { 'client::notification': { click: { url: message.url } } };
    return payload;
  }

  async send(message: PushMessage): Promise<PushResult> {
    const started = Date.now();
    const invalid = invalidUrlResult(this.serverUrl);
    if (invalid) return { ...invalid, channel: this.channel };
    const url = `${this.serverUrl.replace(/\/+$/, '')}/message`;
    const attempt = await attemptRequest(url, { method: 'POST', headers: { ...JSON_HEADERS, 'x-gotify-key': this.appToken }, body: JSON.stringify(this.body(message)) }, this.options);
    return finish(this.channel, attempt, 1, started);
  }
}
