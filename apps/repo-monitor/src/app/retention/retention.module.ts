import { Module } from '@nestjs/common';
import { DatabaseWorkModule } from '../../database/database-work.module';
import { DeliveriesModule } from '../deliveries/deliveries.module';
import { EventsModule } from '../events/events.module';
import { OutboxModule } from '../outbox/outbox.module';
import { SystemSettingsModule } from '../system-settings/system-settings.module';
import { RetentionScheduler } from './retention.scheduler';
import { RetentionService } from './retention.service';

/** The daily job that applies the retention settings to events, outbox entries and webhook deliveries. */
@Module({
  imports: [DatabaseWorkModule, DeliveriesModule, EventsModule, OutboxModule, SystemSettingsModule],
  providers: [RetentionService, RetentionScheduler],
  exports: [RetentionService],
})
export class RetentionModule {}
