import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply } from 'fastify';
import { DataSource } from 'typeorm';
import { Public } from '../common/public.decorator';
import { ReadinessService } from '@shared/config';

@ApiTags('health')
@Public()
@Controller()
export class HealthController {
  constructor(
    private readonly readiness: ReadinessService,
    private readonly healthCheck: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  @Get('healthz')
  @ApiOperation({ summary: 'Liveness: the process answers' })
  healthz(): { status: string } {
    return { status: 'ok' };
  }

  @Get('readyz')
  @ApiOperation({ summary: 'Readiness: startup complete and database reachable; 503 otherwise' })
  async readyz(@Res({ passthrough: true }) reply: FastifyReply): Promise<Record<string, unknown>> {
    if (!this.readiness.isReady()) {
      void reply.status(HttpStatus.SERVICE_UNAVAILABLE);
      return { status: 'starting' };
    }
    let database = 'ok';
    try {
      await this.healthCheck.check([() => this.database.pingCheck('database', { connection: this.dataSource, timeout: 2000 })]);
    } catch {
      database = 'unavailable';
    }
    if (database !== 'ok') void reply.status(HttpStatus.SERVICE_UNAVAILABLE);
    return {
      status: database === 'ok' ? 'ready' : 'degraded',
      database: { driver: this.dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite', status: database },
      ...this.readiness.describe(),
    };
  }
}
