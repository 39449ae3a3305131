import { Module } from '@nestjs/common';
import { WebhookDeliveryRepository } from './webhook-delivery.repository';

/** The stored inbound deliveries: processing writes them, PR review, the dashboard, the metrics and retention read or remove them. */
@Module({ providers: [WebhookDeliveryRepository], exports: [WebhookDeliveryRepository] })
export class DeliveriesModule {}
