import { Global, Module } from '@nestjs/common';
import { DeliveriesModule } from '../deliveries/deliveries.module';
import { OutboxModule } from '../outbox/outbox.module';
import { RepositoriesModule } from '../repositories/repositories.module';
import { SecurityAlertsModule } from '../security-alerts/security-alerts.module';
import { WorkflowRunsModule } from '../workflow-runs/workflow-runs.module';
import { WorkItemsModule } from '../work-items/work-items.module';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';

/** GET /metrics and the MetricsService every feature may increment (global, so no imports are needed). */
@Global()
@Module({
  imports: [DeliveriesModule, OutboxModule, WorkItemsModule, WorkflowRunsModule, SecurityAlertsModule, RepositoriesModule],
  controllers: [MetricsController],
  providers: [MetricsService],
  exports: [MetricsService],
})
export class MetricsModule {}
