import { Global, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DatabaseReadiness } from './database-readiness';
import { HealthController } from './health.controller';
import { ReadinessService } from '@shared/http-service';

@Global()
@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController],
  providers: [ReadinessService, DatabaseReadiness],
  exports: [ReadinessService],
})
export class HealthModule {}
