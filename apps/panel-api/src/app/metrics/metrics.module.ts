import { Global, Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller';
import { PanelMetrics } from './metrics.service';

/** GET /metrics and the PanelMetrics every feature may count into (global, so no imports are needed). */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [PanelMetrics],
  exports: [PanelMetrics],
})
export class MetricsModule {}
