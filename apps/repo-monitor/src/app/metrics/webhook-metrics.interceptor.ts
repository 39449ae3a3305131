import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Observable, tap } from 'rxjs';
import { MonitorError } from '../common/monitor-error';
import { WebhooksController } from '../webhooks/webhooks.controller';
import { MetricsService } from './metrics.service';

/** Counts inbound webhook deliveries by result from the receiver's answers, without touching the receiver. */
@Injectable()
export class WebhookMetricsInterceptor implements NestInterceptor {
  constructor(private readonly metrics: MetricsService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http' || context.getClass() !== WebhooksController) return next.handle();
    return next.handle().pipe(
      tap({
        next: (answer: unknown) => {
          const status = (answer as { status?: unknown } | undefined)?.status;
          this.metrics.webhookReceived(status === 'duplicate' ? 'duplicate' : 'accepted');
        },
        error: (error: unknown) => {
          const code = error instanceof MonitorError ? error.errorCode : undefined;
          this.metrics.webhookReceived(code === 'invalid_signature' || code === 'rate_limited' ? code : 'failed');
        },
      }),
    );
  }
}
