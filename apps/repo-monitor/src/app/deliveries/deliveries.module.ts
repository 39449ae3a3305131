import { Module } from '@nestjs/common';
import { DeliveriesController } from './deliveries.controller';
import { WebhookDeliveryRepository } from './webhook-delivery.repository';
import { WebhookRejectionRepository } from './webhook-rejection.repository';

/**
 * The inbound deliveries, stored and refused: processing writes the stored ones, the webhook route's
 * recorder the refused ones; PR review, the dashboard, the metrics and retention read or remove them,
 * and the console lists both (GET /api/v1/deliveries).
 */
@Module({ providers: [WebhookDeliveryRepository, WebhookRejectionRepository], exports: [WebhookDeliveryRepository, WebhookRejectionRepository], controllers: [DeliveriesController] })
export class DeliveriesModule {}
