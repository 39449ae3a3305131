import { Controller, Get, Inject, OnModuleDestroy, OnModuleInit, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiTags, ApiTooManyRequestsResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { extractAccessToken } from '../auth/access-token.guard';
import { AccessTokenService } from '../auth/access-token.service';
import { TokenRevocation, TokenRevocations } from '../auth/token-revocations';
import { PanelError } from '../common/panel-error';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import { BEARER_SCHEME } from '../openapi';
import { RuntimeStatusRegistry } from '../ops/runtime-status.registry';
import { RunHistoryService, SignLogEvent } from '../runs/run-history.service';
import { RUN_TIMINGS, RunTimings } from '../runs/run-timings';
import { formatServerSentEvent, SseBroadcaster, StreamCloseReason } from './sse-broadcaster';
import { runMessageFields } from '../common/run-outcomes';

export { formatServerSentEvent } from './sse-broadcaster';

interface Stream {
  response: ServerResponse;
  token: string;
  tokenKey: string;
  userId: number;
  tokenVersion: number;
  tokenId?: string;
  close: (reason?: StreamCloseReason) => void;
}

/** Longest a timer may be set for (about 24.8 days); a token living longer is checked on the keep-alive beat. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * GET /api/events/sign-history: the live sign history as server-sent events, written straight to
 * the raw response: `event: ready` first, then one `event: sign_log` per finished run, and a
 * `: keep-alive` comment on a fixed beat. The token comes as `?token=` (EventSource cannot send
 * headers); the global guard checks it before this handler runs.
 *
 * Events go out through one SseBroadcaster: serialized once, coalesced per client per event-loop
 * turn, a slow client never holds up the others and one too far behind is dropped
 * (`event: close` `{"reason":"lagging"}`). A stream ends with `event: close` `{"reason":"token_revoked"}`
 * the moment its token is revoked (a password change raises token_version; TokenRevocations tells
 * this controller), with `token_expired` when the token expires, and the token is checked again
 * on every keep-alive beat. One token holds at most APP_EVENTS_MAX_STREAMS_PER_TOKEN streams.
 */
@ApiTags('events')
@ApiBearerAuth(BEARER_SCHEME)
@ApiUnauthorizedResponse({ description: 'Missing or invalid token (pass it as ?token=)' })
@Controller('api/events')
export class SignHistoryStreamController implements OnModuleInit, OnModuleDestroy {
  private readonly broadcaster = new SseBroadcaster();
  private readonly streams = new Set<Stream>();
  private readonly streamsPerToken = new Map<string, number>();
  private stopListening: Array<() => void> = [];

  constructor(
    private readonly history: RunHistoryService,
    private readonly runtimeStatus: RuntimeStatusRegistry,
    private readonly tokens: AccessTokenService,
    private readonly revocations: TokenRevocations,
    @Inject(PANEL_CONFIG) private readonly config: PanelConfig,
    @Inject(RUN_TIMINGS) private readonly timings: RunTimings,
  ) {}

  onModuleInit(): void {
    this.runtimeStatus.register('sign_history_stream', () => {
      const stats = this.broadcaster.stats;
      return {
        state: stats.clients > 0 ? 'running' : 'idle',
        details: {
          clients: stats.clients,
          events_delivered: stats.eventsDelivered,
          clients_dropped_lagging: stats.clientsDropped,
          keep_alive_seconds: this.timings.sseKeepAliveMs / 1000,
          max_streams_per_token: this.config.events.maxStreamsPerToken,
        },
      };
    });
    const subscription = this.history.events.subscribe((event: SignLogEvent) => {
      if (this.broadcaster.size === 0) return;
      const payload = {
        account_name: event.account_name,
        task_name: event.task_name,
        success: event.success,
        message: event.message,
        // Read from the text, so runs announced by another replica get it too.
        ...runMessageFields(event),
        created_at: event.created_at,
        failure_category: event.failure_category,
      };
      this.broadcaster.broadcast(formatServerSentEvent('sign_log', payload, event.run_id));
    });
    this.stopListening.push(() => subscription.unsubscribe());
    this.stopListening.push(this.revocations.onRevocation((revocation) => this.revoke(revocation)));
  }

  onModuleDestroy(): void {
    for (const stop of this.stopListening) stop();
    this.stopListening = [];
    // Open streams would keep the HTTP server from closing.
    for (const stream of [...this.streams]) stream.close('shutdown');
  }

  @Get('sign-history')
  @ApiOperation({
    summary: 'Live sign history (server-sent events): `ready`, then `sign_log` per finished run with account_name, task_name, success, message, message_code and message_params (the sentence of the catalogue when the runner or a named error wrote the message, else null and {}), created_at, failure_category',
    description:
      'The server ends a stream with `event: close` and data `{"reason": …}`: `token_revoked` (the token logged out, or the password or username changed; on every replica), `token_expired`, ' +
      '`lagging` (the client read too slowly: more than 1 MiB waiting for it; reconnecting starts afresh) or `shutdown`. ' +
      'One access token may hold APP_EVENTS_MAX_STREAMS_PER_TOKEN (default 10) open streams; one more is answered 429.',
  })
  @ApiQuery({ name: 'token', required: true, description: 'The access token (EventSource cannot send an Authorization header)' })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({ description: 'An endless text/event-stream' })
  @ApiTooManyRequestsResponse({ description: 'This token already holds the maximum number of open streams (APP_EVENTS_MAX_STREAMS_PER_TOKEN)' })
  stream(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    const token = extractAccessToken(request);
    const holder = token ? this.tokens.holderOf(token) : undefined;
    if (!token || !holder) throw new PanelError('unauthorized', 'Invalid access token');
    const tokenKey = createHash('sha256').update(token).digest('base64url');
    const open = this.streamsPerToken.get(tokenKey) ?? 0;
    const max = this.config.events.maxStreamsPerToken;
    if (open >= max) {
      throw new PanelError('rate_limited', `This access token already holds ${max} open event streams (APP_EVENTS_MAX_STREAMS_PER_TOKEN); close one first`);
    }
    this.streamsPerToken.set(tokenKey, open + 1);

    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
      'X-Request-Id': String(request.id),
    });
    response.flushHeaders();
    this.broadcaster.add(response, `retry: 5000\n\n${formatServerSentEvent('ready', { connected_at: new Date().toISOString() })}`);

    const keepAlive = setInterval(() => {
      this.broadcaster.sendTo(response, ': keep-alive\n\n');
      // The backstop for revocations TokenRevocations cannot see (a row changed by raw SQL).
      this.tokens.verify(token).catch(() => stream.close('token_revoked'));
    }, this.timings.sseKeepAliveMs);
    keepAlive.unref();
    const untilExpiry = holder.expiresAtMs === undefined ? undefined : holder.expiresAtMs - Date.now();
    const expiry = untilExpiry !== undefined && untilExpiry < MAX_TIMER_MS ? setTimeout(() => stream.close('token_expired'), Math.max(0, untilExpiry)) : undefined;
    expiry?.unref();

    let closed = false;
    const stream: Stream = {
      response,
      token,
      tokenKey,
      userId: holder.userId,
      tokenVersion: holder.tokenVersion,
      tokenId: holder.tokenId,
      close: (reason) => {
        if (closed) return;
        closed = true;
        clearInterval(keepAlive);
        if (expiry) clearTimeout(expiry);
        this.streams.delete(stream);
        const left = (this.streamsPerToken.get(tokenKey) ?? 1) - 1;
        if (left > 0) this.streamsPerToken.set(tokenKey, left);
        else this.streamsPerToken.delete(tokenKey);
        if (reason) this.broadcaster.close(response, reason);
        else this.broadcaster.remove(response);
        if (!response.writableEnded && !reason) response.end();
      },
    };
    this.streams.add(stream);
    request.raw.once('close', () => stream.close());
    response.once('close', () => stream.close());
    response.once('error', () => stream.close());
  }

  /** Closes the streams whose token a logout or credential change revoked; re-checks them when the new version is unknown. */
  private revoke(revocation: TokenRevocation): void {
    for (const stream of [...this.streams]) {
      if (revocation.tokenId !== undefined) {
        // A logout: that token's streams end, the holder's other sessions stay.
        if (revocation.tokenId === stream.tokenId) stream.close('token_revoked');
        continue;
      }
      if (revocation.userId !== undefined && revocation.userId !== stream.userId) continue;
      if (revocation.tokenVersion !== undefined) {
        if (revocation.tokenVersion !== stream.tokenVersion) stream.close('token_revoked');
        continue;
      }
      // The change may not be committed yet; check once it is visible to other connections.
      setTimeout(() => this.tokens.verify(stream.token).catch(() => stream.close('token_revoked')), 100).unref();
    }
  }
}
