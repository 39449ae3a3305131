import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';
import { WebhookMetricsInterceptor } from './webhook-metrics.interceptor';

/** GET /metrics and the MetricsService every feature may increment (global, so no imports are needed). */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [MetricsService, { provide: APP_INTERCEPTOR, useClass: WebhookMetricsInterceptor }],
  exports: [MetricsService],
})
export class MetricsModule {}
