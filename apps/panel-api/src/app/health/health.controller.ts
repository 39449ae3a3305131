import { Controller, Get, Req, Res } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { ApiOperation, ApiTags, ApiOkResponse, ApiResponse } from '@nestjs/swagger';
import { HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { InjectDataSource } from '@nestjs/typeorm';
import { readinessReport } from '@shared/database';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import { Public } from '../common/public.decorator';
import { ReadinessService } from '@shared/http-service';
import { extractAccessToken } from '../auth/access-token.guard';
import { AccessTokenService } from '../auth/access-token.service';

/**
 * What /readyz tells a caller without a valid token: the states a probe or a load balancer needs,
 * nothing about the machine (the scheduler lock holder's host name, pid and instance id).
 */
export function anonymousReadinessView(body: Record<string, unknown>): Record<string, unknown> {
  const view: Record<string, unknown> = {};
  for (const key of ['status', 'database', 'read_only']) if (key in body) view[key] = body[key];
  const directory = body['data_directory'];
  if (directory && typeof directory === 'object') {
    const { writable, error } = directory as Record<string, unknown>;
    view['data_directory'] = { writable, error };
  }
  const lock = body['scheduler_lock'];
  if (lock && typeof lock === 'object') {
    const { enabled, held } = lock as Record<string, unknown>;
    view['scheduler_lock'] = { enabled, held };
  }
  return view;
}

@ApiTags('health')
@Public()
@Controller()
export class HealthController {
  constructor(
    private readonly readiness: ReadinessService,
    private readonly healthCheck: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly moduleRef: ModuleRef,
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
  @ApiOperation({
    summary: 'Startup complete and database reachable; 503 otherwise',
    description:
      'Without a token: status, database, read_only, data_directory (writable, error code) and scheduler_lock (enabled, held). With a ' +
      'valid access token also the details (scheduler lock holder with host name and pid, instance id, the cluster: the id of this replica, ' +
      'whether it leads and its account leases with their epochs, and any other detail).',
  })
  @ApiOkResponse({ description: 'Ready: the readiness report', content: { 'application/json': { schema: { type: 'object', additionalProperties: true } } } })
  @ApiResponse({ status: 503, description: 'Not ready (starting, stopping or a failed check): the same report', content: { 'application/json': { schema: { type: 'object', additionalProperties: true } } } })
  async readyz(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<Record<string, unknown>> {
    const report = await readinessReport(this.readiness, this.healthCheck, this.database, this.dataSource);
    void reply.status(report.httpStatus);
    return (await this.isAuthenticated(request)) ? report.body : anonymousReadinessView(report.body);
  }

  /** Whether the request carries a valid access token; /readyz stays public either way. */
  private async isAuthenticated(request: FastifyRequest): Promise<boolean> {
    const token = extractAccessToken(request);
    if (!token) return false;
    try {
      await this.moduleRef.get(AccessTokenService, { strict: false }).verify(token);
      return true;
    } catch {
      return false;
    }
  }
}
