import { Module } from '@nestjs/common';
import { GitHubAppModule } from '../github/github-app.module';
import { RecoveredDeliveriesController } from './recovered-deliveries.controller';
import { RecoveredDeliveryRepository } from './recovered-delivery.repository';
import { RedeliverySweepService } from './redelivery-sweep.service';

/** The sweep that asks GitHub to redeliver what never reached the inbox, and its console list. */
@Module({
  imports: [GitHubAppModule],
  controllers: [RecoveredDeliveriesController],
  providers: [RecoveredDeliveryRepository, RedeliverySweepService],
  exports: [RedeliverySweepService],
})
export class RedeliveryModule {}
