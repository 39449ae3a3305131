import { Controller, Get, Inject, OnModuleDestroy, OnModuleInit, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import { BEARER_SCHEME } from '../openapi';
import { RuntimeStatusRegistry } from '../ops/runtime-status.registry';
import { RunHistoryService, SignLogEvent } from '../runs/run-history.service';
import { RUN_TIMINGS, RunTimings } from '../runs/run-timings';

/** One `event:` block of a server-sent event stream. */
export function formatServerSentEvent(event: string, data: unknown, id?: string): string {
  return `${id ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * GET /api/events/sign-history: the live sign history as server-sent events, written straight to
 * the raw response (no buffering layer in between): `event: ready` first, then one `event: sign_log`
 * per finished run, and a `: keep-alive` comment on a fixed beat. The token comes as `?token=`
 * (EventSource cannot send headers); the global guard checks it before this handler runs.
 */
@ApiTags('events')
@ApiBearerAuth(BEARER_SCHEME)
@ApiUnauthorizedResponse({ description: 'Missing or invalid token (pass it as ?token=)' })
@Controller('api/events')
export class SignHistoryStreamController implements OnModuleInit, OnModuleDestroy {
  private readonly clients = new Set<ServerResponse>();
  private delivered = 0;

  constructor(
    private readonly history: RunHistoryService,
    private readonly runtimeStatus: RuntimeStatusRegistry,
    @Inject(RUN_TIMINGS) private readonly timings: RunTimings,
  ) {}

  onModuleInit(): void {
    this.runtimeStatus.register('sign_history_stream', () => ({
      state: this.clients.size > 0 ? 'running' : 'idle',
      details: { clients: this.clients.size, events_delivered: this.delivered, keep_alive_seconds: this.timings.sseKeepAliveMs / 1000 },
    }));
  }

  onModuleDestroy(): void {
    // Open streams would keep the HTTP server from closing.
    for (const client of this.clients) client.end();
    this.clients.clear();
  }

  @Get('sign-history')
  @ApiOperation({
    summary: 'Live sign history (server-sent events): `ready`, then `sign_log` per finished run with account_name, task_name, success, message, created_at, failure_category',
  })
  @ApiQuery({ name: 'token', required: true, description: 'The access token (EventSource cannot send an Authorization header)' })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({ description: 'An endless text/event-stream' })
  stream(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
      'X-Request-Id': String(request.id),
    });
    response.flushHeaders();
    this.clients.add(response);
    response.write(`retry: 5000\n\n${formatServerSentEvent('ready', { connected_at: new Date().toISOString() })}`);

    const subscription = this.history.events.subscribe((event: SignLogEvent) => {
      const payload = {
        account_name: event.account_name,
        task_name: event.task_name,
        success: event.success,
        message: event.message,
        created_at: event.created_at,
        failure_category: event.failure_category,
      };
      response.write(formatServerSentEvent('sign_log', payload, event.run_id));
      this.delivered += 1;
    });
    const keepAlive = setInterval(() => response.write(': keep-alive\n\n'), this.timings.sseKeepAliveMs);
    keepAlive.unref();

    let closed = false;
    const close = (): void => {
      if (closed) return;
      closed = true;
      clearInterval(keepAlive);
      subscription.unsubscribe();
      this.clients.delete(response);
      if (!response.writableEnded) response.end();
    };
    request.raw.once('close', close);
    response.once('close', close);
    response.once('error', close);
  }
}
