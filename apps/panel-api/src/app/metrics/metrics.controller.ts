import { Controller, Get, Headers, Inject, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiSecurity, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { constantTimeEqual } from '@shared/crypto';
import type { FastifyReply } from 'fastify';
import { Public } from '../common/public.decorator';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import { METRICS_SCHEME } from '../openapi';
import { PanelMetrics } from './metrics.service';
import { PanelError } from '../common/panel-error';

/**
 * Prometheus scrape endpoint. Public to the access-token guard on purpose: it has its own bearer
 * token (APP_METRICS_TOKEN), compared in constant time; without that token it is open, as
 * repo-monitor's /metrics is without MONITOR_METRICS_TOKEN.
 */
@ApiTags('metrics')
@Public()
@Controller('metrics')
export class MetricsController {
  constructor(
    @Inject(PANEL_CONFIG) private readonly config: PanelConfig,
    private readonly metrics: PanelMetrics,
  ) {}

  @Get()
  @ApiBearerAuth(METRICS_SCHEME)
  @ApiSecurity({})
  @ApiOperation({ summary: 'Prometheus metrics; needs `Authorization: Bearer <APP_METRICS_TOKEN>` when that token is set' })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'Prometheus text exposition format', content: { 'text/plain': { schema: { type: 'string' } } } })
  @ApiUnauthorizedResponse({ description: 'APP_METRICS_TOKEN is set and the bearer token is missing or wrong' })
  async scrape(@Headers('authorization') authorization: string | undefined, @Res() reply: FastifyReply): Promise<void> {
    const expected = this.config.metrics.token;
    if (expected) {
      const presented = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1] ?? '';
      if (!constantTimeEqual(presented, expected)) {
        void reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw new PanelError('unauthorized', 'metrics need Authorization: Bearer <APP_METRICS_TOKEN>');
      }
    }
    const { contentType, body } = await this.metrics.render();
    await reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
  }
}
