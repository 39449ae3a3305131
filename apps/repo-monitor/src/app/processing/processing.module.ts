import { Module } from '@nestjs/common';
import { DeliveriesModule } from '../deliveries/deliveries.module';
import { EventsModule } from '../events/events.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { InstallationsModule } from '../installations/installations.module';
import { RepositoriesModule } from '../repositories/repositories.module';
import { SecurityAlertsModule } from '../security-alerts/security-alerts.module';
import { WorkItemsModule } from '../work-items/work-items.module';
import { WorkflowRunsModule } from '../workflow-runs/workflow-runs.module';
import { DeliveryApplier } from './delivery-applier';
import { DeliveryInbox } from './delivery-inbox';
import { DeliveryProcessor } from './delivery-processor';

@Module({
  imports: [DeliveriesModule, EventsModule, NotificationsModule, RepositoriesModule, InstallationsModule, WorkItemsModule, WorkflowRunsModule, SecurityAlertsModule],
  providers: [DeliveryInbox, DeliveryApplier, DeliveryProcessor],
  exports: [DeliveriesModule, DeliveryInbox, DeliveryProcessor],
})
export class ProcessingModule {}
