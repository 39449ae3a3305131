import { Controller, Get, Res } from '@nestjs/common';
import { ApiOperation, ApiTags, ApiOkResponse, ApiResponse } from '@nestjs/swagger';
import { HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { InjectDataSource } from '@nestjs/typeorm';
import { readinessReport } from '@shared/database';
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

  @Get('health')
  @ApiOperation({ summary: 'Basic liveness' })
  health(): { status: string } {
    return { status: 'ok' };
  }

  @Get('healthz')
  @ApiOperation({ summary: 'Container liveness check' })
  healthz(): { status: string } {
    return { status: 'ok' };
  }

  @Get('readyz')
  @ApiOperation({ summary: 'Startup complete and database reachable; 503 otherwise' })
  @ApiOkResponse({ description: 'Ready: the readiness report', content: { 'application/json': { schema: { type: 'object', additionalProperties: true } } } })
  @ApiResponse({ status: 503, description: 'Not ready (starting, stopping or a failed check): the same report', content: { 'application/json': { schema: { type: 'object', additionalProperties: true } } } })
  async readyz(@Res({ passthrough: true }) reply: FastifyReply): Promise<Record<string, unknown>> {
    const report = await readinessReport(this.readiness, this.healthCheck, this.database, this.dataSource);
    void reply.status(report.httpStatus);
    return report.body;
  }
}
