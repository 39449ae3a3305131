import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { MonitorError } from '../common/monitor-error';

/** Who a request acts as: the admin through a console session, or an agent through a read-only token. */
export type Principal =
  | { kind: 'admin'; username: string; sessionId: string }
  | { kind: 'agent'; clientId: string; scopes: string[] };

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}

/** The admin a console request acts for; the guard guarantees it on non-public session routes. */
export const CurrentAdmin = createParamDecorator((_data: unknown, context: ExecutionContext) => {
  const principal = context.switchToHttp().getRequest<FastifyRequest>().principal;
  if (principal?.kind !== 'admin') throw new MonitorError('forbidden', 'this action needs an admin session');
  return principal;
});

/** Name to write into the audit log for whoever makes the request. */
export function actorOf(principal: Principal | undefined): string {
  if (!principal) return 'anonymous';
  return principal.kind === 'admin' ? principal.username : `agent:${principal.clientId}`;
}

/** The client address as Fastify sees it (X-Forwarded-For only when MONITOR_HTTP_TRUST_PROXY). */
export function clientAddress(request: FastifyRequest): string {
  return request.ip || request.socket.remoteAddress || 'unknown';
}
