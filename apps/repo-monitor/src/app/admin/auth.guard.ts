import { CanActivate, ExecutionContext, Inject, Injectable, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { IS_PUBLIC_ROUTE } from '../common/public.decorator';
import { MonitorError } from '../common/monitor-error';
import { GithubAppSharedSettings } from '../settings/github-app-shared-settings';
import { sessionCookieValue } from './session-cookie';
import { AdminAccountService } from './admin-account.service';
import { agentMayRead } from './agent-read-scope';
import { AGENT_TOKEN_VERIFIER, AgentTokenVerifier } from './agent-token-verifier';
import { SessionService } from './session.service';

export const CSRF_HEADER = 'x-csrf-token';
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Global default-deny guard. A route passes only when it is @Public(), or the request carries a
 * live admin session cookie (plus a matching X-CSRF-Token on every write), or a read-only agent
 * token on a read of the monitored data (agent-read-scope.ts).
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionService,
    private readonly accounts: AdminAccountService,
    private readonly settings: GithubAppSharedSettings,
    @Optional() @Inject(AGENT_TOKEN_VERIFIER) private readonly agentTokens?: AgentTokenVerifier,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    // No RPC or WebSocket transport is served; one added later must bring its own auth, so deny here.
    if (context.getType() !== 'http') return false;
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_ROUTE, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const isRead = READ_METHODS.has(request.method.toUpperCase());

    const cookie = sessionCookieValue(request);
    if (cookie) {
      const session = await this.sessions.resolve(cookie);
      if (session) {
        const header = request.headers[CSRF_HEADER];
        if (!isRead && !this.sessions.csrfMatches(session, typeof header === 'string' ? header : undefined)) {
          throw new MonitorError('csrf_failed', 'missing or wrong X-CSRF-Token header (use the csrf_token from login)');
        }
        const account = await this.accounts.find();
        if (!account) throw new MonitorError('unauthorized', 'session is no longer valid');
        request.principal = { kind: 'admin', username: account.username, sessionId: session.id };
        return true;
      }
    }

    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (bearer && this.agentTokens) {
      const agent = await this.agentTokens.verify(bearer, await this.settings.publicOrigin(request));
      if (agent) {
        if (!isRead) throw new MonitorError('forbidden', 'agent tokens are read-only');
        if (!agentMayRead(request.url)) {
          throw new MonitorError('forbidden', 'agent tokens cannot read this: it is part of the service administration (see docs/agent-access.md)');
        }
        request.principal = { kind: 'agent', clientId: agent.clientId, scopes: agent.scopes };
        return true;
      }
    }
    throw new MonitorError('unauthorized', 'sign in first: POST /api/v1/auth/login');
  }
}
