import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { IS_PUBLIC_ROUTE } from '../common/public.decorator';
import { AccessTokenService, AuthenticatedAdmin } from './access-token.service';
import { PanelError } from '../common/panel-error';

/** Routes whose clients (EventSource) cannot send headers, so they may pass the token as `?token=`. */
export const QUERY_TOKEN_PATH_PREFIX = '/api/events/';

export type AuthenticatedRequest = FastifyRequest & { admin: AuthenticatedAdmin };

/**
 * The access token of a request: the `Authorization: Bearer` header, or for GET requests under
 * /api/events/ only, the `token` query parameter.
 */
export function extractAccessToken(request: { method: string; url: string; headers: Record<string, string | string[] | undefined> }): string | undefined {
  const header = request.headers['authorization'];
  if (typeof header === 'string') {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return match ? match[1] : undefined;
  }
  const queryStart = request.url.indexOf('?');
  const path = queryStart === -1 ? request.url : request.url.slice(0, queryStart);
  if (request.method !== 'GET' || !path.startsWith(QUERY_TOKEN_PATH_PREFIX) || queryStart === -1) return undefined;
  return new URLSearchParams(request.url.slice(queryStart + 1)).get('token') || undefined;
}

/** The global default-deny guard: every route needs a valid access token unless it is marked @Public(). */
@Injectable()
export class AccessTokenGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: AccessTokenService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_ROUTE, [context.getHandler(), context.getClass()]);
    if (isPublic) return true;
    if (context.getType() !== 'http') return false;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const token = extractAccessToken(request);
    try {
      if (!token) throw new PanelError('unauthorized', 'Missing access token (Authorization: Bearer <token>)');
      (request as AuthenticatedRequest).admin = await this.tokens.verify(token);
    } catch (error) {
      void reply.header('WWW-Authenticate', 'Bearer');
      throw error;
    }
    return true;
  }
}
