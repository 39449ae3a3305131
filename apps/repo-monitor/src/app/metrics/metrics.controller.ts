import { Controller, Get, Headers, Inject, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiSecurity, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { constantTimeEqual } from '@shared/crypto';
import type { FastifyReply } from 'fastify';
import { MonitorError } from '../common/monitor-error';
import { Public } from '../common/public.decorator';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { METRICS_SCHEME } from '../openapi';
import { MetricsService } from './metrics.service';

/**
 * Prometheus scrape endpoint. Public to the session guard on purpose: it has its own bearer token
 * (MONITOR_METRICS_TOKEN), compared in constant time, and answers 404 when metrics are disabled.
 */
@ApiTags('metrics')
@Public()
@Controller('metrics')
export class MetricsController {
  constructor(
    @Inject(MONITOR_CONFIG) private readonly config: MonitorConfig,
    private readonly metrics: MetricsService,
  ) {}

  @Get()
  @ApiBearerAuth(METRICS_SCHEME)
  @ApiSecurity({})
  @ApiOperation({ summary: 'Prometheus metrics; needs `Authorization: Bearer <MONITOR_METRICS_TOKEN>` when that token is set' })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'Prometheus text exposition format', content: { 'text/plain': { schema: { type: 'string' } } } })
  @ApiUnauthorizedResponse({ description: 'unauthorized: MONITOR_METRICS_TOKEN is set and the bearer token is missing or wrong' })
  @ApiNotFoundResponse({ description: 'not_found: MONITOR_METRICS_ENABLED=false' })
  async scrape(@Headers('authorization') authorization: string | undefined, @Res() reply: FastifyReply): Promise<void> {
    if (!this.config.metrics.enabled) throw new MonitorError('not_found', 'metrics are disabled (MONITOR_METRICS_ENABLED=false)');
    const expected = this.config.metrics.token;
    if (expected) {
      const presented = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1] ?? '';
      if (!constantTimeEqual(presented, expected)) {
        throw new MonitorError('unauthorized', 'metrics need Authorization: Bearer <MONITOR_METRICS_TOKEN>', undefined, { 'www-authenticate': 'Bearer realm="metrics"' });
      }
    }
    const { contentType, body } = await this.metrics.render();
    await reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
  }
}
