import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { DeliveryApplier } from './delivery-applier';
import { DeliveryProcessor } from './delivery-processor';

@Module({
  imports: [WebhooksModule, EventsModule, NotificationsModule],
  providers: [DeliveryApplier, DeliveryProcessor],
  exports: [DeliveryProcessor],
})
export class ProcessingModule {}
