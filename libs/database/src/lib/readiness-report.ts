import type { HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import type { ReadinessService } from '@shared/http-service';
import type { DataSource } from 'typeorm';

export interface ReadinessReport {
  httpStatus: 200 | 503;
  body: Record<string, unknown>;
}

/**
 * What /readyz answers in both services: 503 `starting` until startup is complete, then the
 * database ping (503 `degraded` when it fails) and every detail features registered.
 */
export async function readinessReport(
  readiness: ReadinessService,
  healthCheck: HealthCheckService,
  indicator: TypeOrmHealthIndicator,
  dataSource: DataSource,
): Promise<ReadinessReport> {
  if (!readiness.isReady()) return { httpStatus: 503, body: { status: 'starting' } };
  let database = 'ok';
  try {
    await healthCheck.check([() => indicator.pingCheck('database', { connection: dataSource, timeout: 2000 })]);
  } catch {
    database = 'unavailable';
  }
  return {
    httpStatus: database === 'ok' ? 200 : 503,
    body: {
      status: database === 'ok' ? 'ready' : 'degraded',
      database: { driver: dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite', status: database },
      ...readiness.describe(),
    },
  };
}
