import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { delay, headerValue, LocalHttpServer, type RecordedRequest, type TlsIdentity } from './local-http-server';

/** What the receiver answers to one request. */
export interface WebhookReply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Wait this long before answering (to provoke a sender's timeout). */
  delayMs?: number;
  /** Answer 302 (or `status` if 3xx) with this Location. */
  redirectTo?: string;
  /** Drop the connection without an answer (a network error for the sender). */
  destroy?: boolean;
}

function safeEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * A local webhook endpoint: records raw bodies and headers, answers what a test queued (status codes,
 * delays, redirects, dropped connections) and checks the signatures our senders add. The checks are
 * written here independently of libs/notify, so a test compares two implementations.
 */
export class LocalWebhookReceiver extends LocalHttpServer {
  private readonly replies: WebhookReply[] = [];
  private defaultReply: WebhookReply = { status: 200, body: 'ok' };

  /** `tls` makes it an HTTPS receiver (e.g. with a certificate for a made-up host name). */
  constructor(options: { tls?: TlsIdentity } = {}) {
    super(options.tls);
  }

  /** The next requests get these replies, in order; after that the default. */
  replyNext(...replies: WebhookReply[]): void {
    this.replies.push(...replies);
  }

  /** The reply for every request once the queue is empty (default 200 `ok`). */
  setDefaultReply(reply: WebhookReply): void {
    this.defaultReply = reply;
  }

  /** `http://127.0.0.1:<port><path>` */
  urlFor(path = '/hook'): string {
    return `${this.url}${path.startsWith('/') ? path : `/${path}`}`;
  }

  /** Requests to one path. */
  requestsTo(path: string): RecordedRequest[] {
    return this.requests.filter((request) => request.path === path);
  }

  protected override async handle(_request: RecordedRequest, response: ServerResponse): Promise<void> {
    const reply = this.replies.shift() ?? this.defaultReply;
    if (reply.delayMs) await delay(reply.delayMs);
    if (reply.destroy) {
      response.socket?.destroy();
      return;
    }
    if (reply.redirectTo !== undefined) {
      response.writeHead(reply.status >= 300 && reply.status < 400 ? reply.status : 302, { location: reply.redirectTo, ...(reply.headers ?? {}) });
      response.end();
      return;
    }
    response.writeHead(reply.status, { 'content-type': 'text/plain; charset=utf-8', ...(reply.headers ?? {}) });
    response.end(reply.body ?? '');
  }
}

/** `<header>: sha256=<hex HMAC-SHA256(secret, raw body)>` as sent by our custom and monitor webhooks. */
export function verifySha256SignatureHeader(request: RecordedRequest, secret: string, headerName = 'x-signature-256'): boolean {
  const header = headerValue(request.headers, headerName);
  if (!header?.startsWith('sha256=')) return false;
  const expected = createHmac('sha256', secret).update(request.rawBody).digest();
  return safeEqual(Buffer.from(header.slice(7), 'hex'), expected);
}

/** repo-monitor's `X-Host-Monitor-Signature-256`. */
export function verifyHostMonitorSignature(request: RecordedRequest, secret: string): boolean {
  return verifySha256SignatureHeader(request, secret, 'x-host-monitor-signature-256');
}

/**
 * Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature `v1,<base64>`) over
 * `id.timestamp.body`; a `whsec_` secret is base64 after the prefix, any other secret raw bytes.
 * Refuses timestamps more than `toleranceSeconds` (default 300) away from now.
 */
export function verifyStandardWebhookSignature(request: RecordedRequest, secret: string, toleranceSeconds = 300): boolean {
  const id = headerValue(request.headers, 'webhook-id');
  const timestamp = headerValue(request.headers, 'webhook-timestamp');
  const signatures = headerValue(request.headers, 'webhook-signature');
  if (!id || !timestamp || !signatures || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > toleranceSeconds) return false;
  const key = secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(request.rawBody).digest();
  return signatures.split(' ').some((entry) => entry.startsWith('v1,') && safeEqual(Buffer.from(entry.slice(3), 'base64'), expected));
}
