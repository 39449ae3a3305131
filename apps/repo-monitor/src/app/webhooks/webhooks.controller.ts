import { Controller, Headers, HttpCode, Post, RawBodyRequest, Req } from '@nestjs/common';
import { ApiAcceptedResponse, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { MonitorError } from '../common/monitor-error';
import { Public } from '../common/public.decorator';
import { DeliveryInbox } from './delivery-inbox';
import { WebhookAcceptedDto } from './dto/webhook-accepted.dto';
import { InboundWebhookSecretSource } from './inbound-webhook-secrets';
import { WebhookSignatureVerifier } from './webhook-signature-verifier';

export interface DeliverySummary {
  action: string | null;
  installationId: number | null;
  repositoryFullName: string | null;
  payload: string;
}

/** The JSON text of a delivery (GitHub sends JSON or a form with a `payload` field) and what routing needs. */
export function summariseDelivery(body: unknown, rawBody: Buffer, contentType: string | undefined): DeliverySummary {
  let payload = rawBody.toString('utf8');
  let parsed: unknown = body;
  if (contentType?.startsWith('application/x-www-form-urlencoded')) {
    const field = body && typeof body === 'object' ? (body as Record<string, unknown>)['payload'] : undefined;
    if (typeof field !== 'string') throw new MonitorError('validation_failed', 'form deliveries need a payload field');
    payload = field;
    try {
      parsed = JSON.parse(field);
    } catch {
      throw new MonitorError('validation_failed', 'the payload field is not valid JSON');
    }
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new MonitorError('validation_failed', 'the delivery body must be a JSON object');
  const record = parsed as Record<string, unknown>;
  const installation = record['installation'] as { id?: unknown } | undefined;
  const repository = record['repository'] as { full_name?: unknown } | undefined;
  return {
    action: typeof record['action'] === 'string' ? record['action'].slice(0, 64) : null,
    installationId: typeof installation?.id === 'number' ? installation.id : null,
    repositoryFullName: typeof repository?.full_name === 'string' ? repository.full_name.slice(0, 255) : null,
    payload,
  };
}

@ApiTags('webhooks')
@Public()
@Controller('webhooks')
export class WebhooksController {
  constructor(
    private readonly secrets: InboundWebhookSecretSource,
    private readonly verifier: WebhookSignatureVerifier,
    private readonly inbox: DeliveryInbox,
  ) {}

  @Post('github')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Receives a GitHub App webhook delivery',
    description:
      'Verifies X-Hub-Signature-256 over the raw body (current and previous secret), stores the delivery, then answers 202; ' +
      'processing is asynchronous. 413 over 1 MiB, 503 webhook_not_configured without a secret, 401 invalid_signature, ' +
      '400 without X-GitHub-Delivery / X-GitHub-Event.',
  })
  @ApiHeader({ name: 'X-Hub-Signature-256', required: true })
  @ApiHeader({ name: 'X-GitHub-Delivery', required: true })
  @ApiHeader({ name: 'X-GitHub-Event', required: true })
  @ApiAcceptedResponse({ type: WebhookAcceptedDto })
  async receive(
    @Req() request: RawBodyRequest<FastifyRequest>,
    @Headers('x-hub-signature-256') signature: string | undefined,
    @Headers('x-github-delivery') deliveryId: string | undefined,
    @Headers('x-github-event') event: string | undefined,
  ): Promise<WebhookAcceptedDto> {
    const { current, previous } = await this.secrets.secrets();
    if (!current) {
      throw new MonitorError('webhook_not_configured', 'no inbound webhook secret is configured', undefined, { 'retry-after': '60' });
    }
    const rawBody = request.rawBody ?? Buffer.alloc(0);
    if (!(await this.verifier.verify([current, previous], rawBody, signature))) {
      throw new MonitorError('invalid_signature', 'the X-Hub-Signature-256 signature is missing or does not match');
    }
    const id = deliveryId?.trim();
    const kind = event?.trim();
    if (!id || !kind || id.length > 128 || kind.length > 64 || !/^[A-Za-z0-9._-]+$/.test(id) || !/^[a-z_]+$/.test(kind)) {
      throw new MonitorError('validation_failed', 'X-GitHub-Delivery and X-GitHub-Event headers are required', {
        fields: ['X-GitHub-Delivery', 'X-GitHub-Event'],
      });
    }
    const summary = summariseDelivery(request.body, rawBody, request.headers['content-type']);
    const stored = await this.inbox.store({ deliveryId: id, event: kind, receivedAt: new Date(), ...summary });
    return { status: stored.status, delivery_id: id };
  }
}
