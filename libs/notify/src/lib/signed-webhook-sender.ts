import { randomUUID } from 'node:crypto';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { signSha256Header } from '@shared/crypto';
import { Agent } from 'undici';
import { classifyHttpStatus, type DeliveryResult, describeFetchError, parseRetryAfter, readSnippet } from './delivery-result';
import { redirectRefusal } from './redirect-refusal';
import { type HostResolver, type PlainHttpRule, type ResolvedAddress, resolveTarget } from './address-guard';
import { standardWebhookSignature } from './standard-webhooks';
import { type OutboundProxy, proxyApplies, proxyTunnelAgent, withDispatcher } from '@shared/outbound-http';

/** The event part of the outbound webhook body; its fields are the caller's. */
export type WebhookEventPayload = Record<string, unknown>;

export interface SignedWebhookMessage {
  /** Stable per notification (the outbox idempotency key), so a receiver can drop repeats. */
  deliveryId: string;
  /** Event kind, sent as `X-Host-Monitor-Event` (e.g. `issues.opened`). */
  eventType: string;
  event: WebhookEventPayload;
  title: string;
  /** Body in the Telegram HTML form. */
  bodyText: string;
  /** Body without markup. */
  bodyPlain: string;
  /** When the notification was created (default now). */
  emittedAt?: Date;
}

export interface SignedWebhookTarget {
  url: string;
  secret: string;
  /** Allows private, loopback, link-local and metadata targets (MONITOR_HTTP_WEBHOOK_ALLOW_PRIVATE / per channel). */
  allowPrivate?: boolean;
  /** Where a plain http URL may go (default `allow`; see PlainHttpRule). */
  plainHttp?: PlainHttpRule;
}

export interface SignedWebhookSenderOptions {
  /** Per-request timeout (default 10 s). */
  timeoutMs?: number;
  /** Resolver used for the SSRF check (default: the system resolver, all addresses). */
  resolver?: HostResolver;
  /** Refuse plain http targets (default false). */
  requireHttps?: boolean;
  userAgent?: string;
  /** Extra CA certificates (PEM) to trust for https targets, e.g. a self-hosted receiver's CA. */
  trustedCa?: string | string[];
  /** Clock for `emitted_at` defaults and the signature timestamp. */
  now?: () => Date;
  /**
   * HTTPS_PROXY / NO_PROXY. When the proxy applies to a target, the address is still resolved and
   * vetted here and the proxy is asked to CONNECT to that IP (so it cannot resolve the name again);
   * Host header, TLS SNI and certificate name stay the URL's host name.
   */
  proxy?: OutboundProxy;
}

export interface SignedWebhookResult extends DeliveryResult {
  deliveryId: string;
  /** The exact body that was (or would have been) sent. */
  body: string;
}

/**
 * Builds the body of repo-monitor-details.md:
 * `{"spec_version":"1","delivery_id","emitted_at","event":{...},"title","body_text","body_plain"}`.
 */
export function buildSignedWebhookBody(message: SignedWebhookMessage, now: Date = new Date()): string {
  return JSON.stringify({
    spec_version: '1',
    delivery_id: message.deliveryId,
    emitted_at: (message.emittedAt ?? now).toISOString(),
    event: message.event,
    title: message.title,
    body_text: message.bodyText,
    body_plain: message.bodyPlain,
  });
}

/** Every header of one delivery; the same secret signs both schemes. */
export function signedWebhookHeaders(secret: string, message: Pick<SignedWebhookMessage, 'deliveryId' | 'eventType'>, body: string, timestampSeconds: number): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-host-monitor-event': message.eventType,
    'x-host-monitor-delivery': message.deliveryId,
    'x-host-monitor-timestamp': String(timestampSeconds),
    'x-host-monitor-signature-256': signSha256Header(secret, body),
    'webhook-id': message.deliveryId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': standardWebhookSignature(secret, message.deliveryId, timestampSeconds, body),
  };
}

/**
 * An undici dispatcher whose connections go to `address` whatever the URL's host resolves to now:
 * the name stays in the URL (Host header, TLS SNI and certificate check), the address is the vetted one.
 */
export function pinnedAddressAgent(address: ResolvedAddress, options: { connectTimeoutMs?: number; trustedCa?: string | string[] } = {}): Agent {
  return new Agent({
    connect: {
      timeout: options.connectTimeoutMs ?? 10_000,
      ...(options.trustedCa ? { ca: options.trustedCa } : {}),
      lookup: (
        _hostname: string,
        lookupOptions: LookupOptions,
        callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
      ) => {
        if (lookupOptions.all) callback(null, [{ address: address.address, family: address.family }]);
        else callback(null, address.address, address.family);
      },
    },
  });
}

/** Sends repo-monitor's outbound webhook: signed, no redirects, SSRF-checked, one attempt per call. */
export class SignedWebhookSender {
  private readonly timeoutMs: number;
  private readonly now: () => Date;

  constructor(private readonly options: SignedWebhookSenderOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.now = options.now ?? (() => new Date());
  }

  async send(target: SignedWebhookTarget, message: SignedWebhookMessage): Promise<SignedWebhookResult> {
    const started = Date.now();
    const now = this.now();
    const body = buildSignedWebhookBody(message, now);
    const base = { deliveryId: message.deliveryId, body };
    const elapsed = (): number => Date.now() - started;
    if (!target.secret) return { ...base, outcome: 'permanent', errorCode: 'invalid_url', message: 'the channel has no signing secret', attempts: 0, durationMs: elapsed() };
    const check = await resolveTarget(target.url, {
      allowPrivate: target.allowPrivate,
      resolver: this.options.resolver,
      requireHttps: this.options.requireHttps,
      plainHttp: target.plainHttp,
    });
    if (!check.ok) {
      const outcome = check.reason === 'dns_failed' ? 'retryable' : 'permanent';
      return { ...base, outcome, errorCode: check.reason, message: check.message, attempts: 0, durationMs: elapsed() };
    }
    const timestamp = Math.floor(now.getTime() / 1000);
    const headers = signedWebhookHeaders(target.secret, message, body, timestamp);
    headers['user-agent'] = this.options.userAgent ?? 'repo-monitor-webhook/1';
    const proxy = this.options.proxy;
    const agent =
      proxy && proxyApplies(proxy, check.url)
        ? proxyTunnelAgent(new URL(proxy.url), check.address, { servername: check.hostname, connectTimeoutMs: this.timeoutMs, trustedCa: this.options.trustedCa })
        : pinnedAddressAgent(check.address, { connectTimeoutMs: this.timeoutMs, trustedCa: this.options.trustedCa });
    try {
      const response = await fetch(
        check.url,
        withDispatcher({ method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(this.timeoutMs) }, agent),
      );
      const responseSnippet = await readSnippet(response);
      if (response.status >= 300 && response.status < 400) {
        return { ...base, outcome: 'permanent', status: response.status, errorCode: 'redirect_refused', message: redirectRefusal(response.status, response.headers.get('location'), target.url), attempts: 1, durationMs: elapsed(), responseSnippet };
      }
      const outcome = classifyHttpStatus(response.status);
      if (outcome === 'sent') return { ...base, outcome, status: response.status, attempts: 1, durationMs: elapsed(), responseSnippet };
      return {
        ...base,
        outcome,
        status: response.status,
        errorCode: response.status === 429 ? 'rate_limited' : 'http_error',
        message: `receiver answered HTTP ${response.status}`,
        retryAfterSeconds: parseRetryAfter(response.headers.get('retry-after'), now),
        attempts: 1,
        durationMs: elapsed(),
        responseSnippet,
      };
    } catch (error) {
      const failure = describeFetchError(error);
      return { ...base, outcome: 'retryable', errorCode: failure.errorCode, message: failure.message, attempts: 1, durationMs: elapsed() };
    } finally {
      void agent.close().catch(() => undefined);
    }
  }
}

/** A fresh delivery id for callers without an outbox key. */
export function newDeliveryId(): string {
  return randomUUID();
}
