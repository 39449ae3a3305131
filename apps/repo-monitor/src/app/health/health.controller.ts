import { Controller, Get, Res } from '@nestjs/common';
import { ApiOperation, ApiTags, ApiOkResponse, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../common/public.decorator';
import { DatabaseReadiness } from './database-readiness';

@ApiTags('health')
@Public()
@Controller()
export class HealthController {
  constructor(private readonly readiness: DatabaseReadiness) {}

  @Get('healthz')
  @ApiOperation({ summary: 'Liveness: the process answers' })
  healthz(): { status: string } {
    return { status: 'ok' };
  }

  @Get('readyz')
  @ApiOperation({ summary: 'Readiness: startup complete and database reachable; 503 otherwise' })
  @ApiOkResponse({ description: 'Ready: the readiness report', content: { 'application/json': { schema: { type: 'object', additionalProperties: true } } } })
  @ApiResponse({ status: 503, description: 'Not ready (starting, stopping or a failed check): the same report', content: { 'application/json': { schema: { type: 'object', additionalProperties: true } } } })
  async readyz(@Res({ passthrough: true }) reply: FastifyReply): Promise<Record<string, unknown>> {
    const report = await this.readiness.report();
    void reply.status(report.httpStatus);
    return report.body;
  }
}
