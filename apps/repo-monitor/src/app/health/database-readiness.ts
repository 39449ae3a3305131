import { Injectable } from '@nestjs/common';
import { HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { InjectDataSource } from '@nestjs/typeorm';
import { ReadinessService } from '@shared/http-service';
import { readinessReport } from '@shared/database';
import { DataSource } from 'typeorm';

/** The readiness report: startup state and whether the database answers (with the pool's figures). */
@Injectable()
export class DatabaseReadiness {
  constructor(
    private readonly readiness: ReadinessService,
    private readonly healthCheck: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  report(): ReturnType<typeof readinessReport> {
    return readinessReport(this.readiness, this.healthCheck, this.database, this.dataSource);
  }
}
