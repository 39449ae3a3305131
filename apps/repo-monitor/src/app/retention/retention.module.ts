import { Module } from '@nestjs/common';
import { DatabaseWorkModule } from '../processing/database-work.module';
import { SystemSettingsModule } from '../system-settings/system-settings.module';
import { RetentionScheduler } from './retention.scheduler';
import { RetentionService } from './retention.service';

/** The daily job that applies the retention settings to events, outbox entries and webhook deliveries. */
@Module({
  imports: [DatabaseWorkModule, SystemSettingsModule],
  providers: [RetentionService, RetentionScheduler],
  exports: [RetentionService],
})
export class RetentionModule {}
