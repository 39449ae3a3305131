import { Injectable, Logger } from '@nestjs/common';
import { answeredError } from '@shared/http-service';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RejectionReason } from '../deliveries/webhook-rejection.entity';
import { NewWebhookRejection, WebhookRejectionRepository } from '../deliveries/webhook-rejection.repository';
import { GITHUB_WEBHOOK_PATH } from './body-parsers';

/** At most this many refusals are written per minute by one process; a flood past it is counted, not stored. */
export const MAX_RECORDED_PER_MINUTE = 60;
/** Prune after this many writes (so the table holds at most MAX_KEPT_REJECTIONS plus this). */
const PRUNE_EVERY = 25;

const SAFE_DELIVERY_ID = /^[A-Za-z0-9._-]{1,128}$/;
const SAFE_EVENT = /^[a-z0-9_.-]{1,64}$/;

/** The reason a refusal of the webhook route had, from its status and the error the filter answered. */
export function rejectionReason(status: number, code: string | undefined, message: string | undefined): RejectionReason {
  if (code === 'webhook_not_configured') return 'no_secret';
  if (code === 'invalid_signature') return 'bad_signature';
  if (status === 429) return 'too_many_bad_signatures';
  if (status === 413) return 'too_large';
  if (status === 415) return 'unsupported_content_type';
  if (status === 400) {
    if (/headers are required/.test(message ?? '')) return 'missing_headers';
    if (/^X-GitHub-(Delivery|Event) must/.test(message ?? '')) return 'malformed_headers';
    return 'malformed_body';
  }
  if (status === 503) return 'unavailable';
  return 'other';
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value.trim() : undefined;
}

/** Printable ASCII only, at most `length` characters, or null. */
function printable(value: string | undefined, length: number): string | null {
  if (!value) return null;
  const text = value.replace(/[^\x20-\x7e]/g, '?').slice(0, length);
  return text || null;
}

/**
 * Records every request POST /webhooks/github refused (any status from 400 up) in
 * `webhook_rejections`, after the answer is sent, so a refusal costs the sender no time and a
 * failure to record never changes the answer. Bounded: MAX_RECORDED_PER_MINUTE per process, the
 * table pruned to its newest rows; the body is never kept.
 */
@Injectable()
export class WebhookRejectionRecorder {
  private readonly logger = new Logger(WebhookRejectionRecorder.name);
  private windowStart = 0;
  private inWindow = 0;
  private writes = 0;
  /** Refusals not stored because the per-minute bound was reached (since start). */
  dropped = 0;

  constructor(private readonly rejections: WebhookRejectionRepository) {}

  /** Adds the onResponse hook to the app's Fastify instance (createMonitorApp, before it is ready). */
  listenTo(instance: FastifyInstance): void {
    instance.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      if (reply.statusCode >= 400 && request.routeOptions.url === GITHUB_WEBHOOK_PATH && request.method === 'POST') this.note(request, reply);
      done();
    });
  }

  private note(request: FastifyRequest, reply: FastifyReply): void {
    const now = Date.now();
    if (now - this.windowStart >= 60_000) {
      this.windowStart = now;
      this.inWindow = 0;
    }
    if (this.inWindow >= MAX_RECORDED_PER_MINUTE) {
      this.dropped++;
      return;
    }
    this.inWindow++;
    const answered = answeredError(reply.raw);
    const deliveryId = header(request, 'x-github-delivery');
    const event = header(request, 'x-github-event');
    const length = Number(header(request, 'content-length'));
    const rejection: NewWebhookRejection = {
      receivedAt: new Date(now),
      reason: rejectionReason(reply.statusCode, answered?.code, answered?.message),
      httpStatus: reply.statusCode,
      detail: printable(answered?.message, 200),
      deliveryId: deliveryId && SAFE_DELIVERY_ID.test(deliveryId) ? deliveryId : null,
      event: event && SAFE_EVENT.test(event) ? event : null,
      remoteAddress: printable(request.ip, 64),
      userAgent: printable(header(request, 'user-agent'), 100),
      bodyBytes: Number.isSafeInteger(length) && length >= 0 && length <= 2_147_483_647 ? length : null,
    };
    void this.store(rejection);
  }

  private async store(rejection: NewWebhookRejection): Promise<void> {
    try {
      await this.rejections.insert(rejection);
      if (++this.writes % PRUNE_EVERY === 0) await this.rejections.prune();
    } catch (error) {
      this.logger.warn({ err: error }, 'a refused webhook request could not be recorded');
    }
  }
}
