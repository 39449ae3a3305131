import { Controller, Headers, HttpCode, Post, Req } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiConsumes,
  ApiHeader,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { clientAddress } from '../admin/principal';
import { MonitorError } from '../common/monitor-error';
import { Public } from '../common/public.decorator';
import { MetricsService } from '../metrics/metrics.service';
import { DeliveryInbox } from '../processing/delivery-inbox';
import { summariseDelivery } from './delivery-body';
import { SignatureFailureLimiter } from './signature-failure-limiter';
import { WebhookAcceptedDto } from './dto/webhook-accepted.dto';
import { InboundWebhookSecretSource } from './inbound-webhook-secrets';
import { WebhookSignatureVerifier } from './webhook-signature-verifier';

const DELIVERY_ID = /^[A-Za-z0-9._-]+$/;
// GitHub's event names are lower case words joined by underscores, some with digits (projects_v2_item).
const EVENT_NAME = /^[a-z0-9]+(?:[_.-][a-z0-9]+)*$/;

@ApiTags('webhooks')
@Public()
@Controller('webhooks')
export class WebhooksController {
  constructor(
    private readonly secrets: InboundWebhookSecretSource,
    private readonly verifier: WebhookSignatureVerifier,
    private readonly inbox: DeliveryInbox,
    private readonly failures: SignatureFailureLimiter,
    private readonly metrics: MetricsService,
  ) {}

  @Post('github')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Receives a GitHub App webhook delivery',
    description:
      'Verifies X-Hub-Signature-256 over the raw body (current and previous secret) before the body is parsed, stores the ' +
      'delivery, then answers 202; processing is asynchronous. Every event name is accepted; kinds that are not handled are ' +
      'stored and ignored. 413 over 1 MiB, 503 webhook_not_configured without a secret, 401 invalid_signature, 429 ' +
      'rate_limited (Retry-After) for an address past 20 bad signatures a minute (correctly signed deliveries still pass), ' +
      '400 without X-GitHub-Delivery / X-GitHub-Event or with a body that is not a JSON object.',
  })
  @ApiConsumes('application/json', 'application/x-www-form-urlencoded')
  @ApiHeader({ name: 'X-Hub-Signature-256', required: true })
  @ApiHeader({ name: 'X-GitHub-Delivery', required: true })
  @ApiHeader({ name: 'X-GitHub-Event', required: true })
  @ApiAcceptedResponse({ type: WebhookAcceptedDto })
  @ApiBadRequestResponse({ description: 'validation_failed: X-GitHub-Delivery or X-GitHub-Event missing or malformed, or the body is not a JSON object' })
  @ApiUnauthorizedResponse({ description: 'invalid_signature: X-Hub-Signature-256 is missing or does not match' })
  @ApiPayloadTooLargeResponse({ description: 'validation_failed: the body is over 1 MiB' })
  @ApiTooManyRequestsResponse({ description: 'rate_limited, with Retry-After: too many bad signatures from this address' })
  @ApiServiceUnavailableResponse({ description: 'webhook_not_configured, with Retry-After: no inbound secret is configured' })
  async receive(
    @Req() request: FastifyRequest,
    @Headers('x-hub-signature-256') signature: string | undefined,
    @Headers('x-github-delivery') deliveryId: string | undefined,
    @Headers('x-github-event') event: string | undefined,
  ): Promise<WebhookAcceptedDto> {
    // Counted here rather than by an interceptor: this is the hottest route, and an interceptor
    // costs each request an RxJS pipeline and two async-resource bindings.
    try {
      const answer = await this.accept(request, signature, deliveryId, event);
      this.metrics.webhookReceived(answer.status);
      return answer;
    } catch (error) {
      const code = error instanceof MonitorError ? error.errorCode : undefined;
      this.metrics.webhookReceived(code === 'invalid_signature' || code === 'rate_limited' ? code : 'failed');
      throw error;
    }
  }

  private async accept(request: FastifyRequest, signature: string | undefined, deliveryId: string | undefined, event: string | undefined): Promise<WebhookAcceptedDto> {
    const { current, previous } = await this.secrets.secrets();
    if (!current) {
      throw new MonitorError('webhook_not_configured', 'no inbound webhook secret is configured', undefined, { 'retry-after': '60' });
    }
    // The body parsers hand this route the bytes as received (see body-parsers.ts): nothing is parsed before the signature holds.
    const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    if (!(await this.verifier.verify([current, ...previous], rawBody, signature))) {
      const retryAfter = this.failures.fail(clientAddress(request));
      if (retryAfter > 0) {
        throw new MonitorError('rate_limited', 'too many deliveries with a bad signature from this address', undefined, { 'retry-after': String(retryAfter) });
      }
      throw new MonitorError('invalid_signature', 'the X-Hub-Signature-256 signature is missing or does not match');
    }
    const id = deliveryId?.trim();
    const kind = event?.trim();
    if (!id || !kind) {
      throw new MonitorError('validation_failed', 'X-GitHub-Delivery and X-GitHub-Event headers are required', { fields: ['X-GitHub-Delivery', 'X-GitHub-Event'] });
    }
    if (id.length > 128 || !DELIVERY_ID.test(id)) {
      throw new MonitorError('validation_failed', 'X-GitHub-Delivery must be at most 128 letters, digits, dots, dashes or underscores', { field: 'X-GitHub-Delivery' });
    }
    if (kind.length > 64 || !EVENT_NAME.test(kind)) {
      throw new MonitorError('validation_failed', 'X-GitHub-Event must be an event name of at most 64 letters, digits or underscores', { field: 'X-GitHub-Event' });
    }
    const summary = summariseDelivery(rawBody, request.headers['content-type']);
    const stored = await this.inbox.store({ deliveryId: id, event: kind, receivedAt: new Date(), ...summary });
    return { status: stored.status, delivery_id: id };
  }
}
