import type { FastifyInstance } from 'fastify';
import { bodyLimitsOf } from '../common/request-limits';
import { extractAccessToken } from './access-token.guard';
import { AccessTokenService } from './access-token.service';
import { PanelError } from '../common/panel-error';

/**
 * Checks the access token of routes marked `tokenBeforeBody` (configuration import, sign tasks)
 * before their body is read: a request without a valid token is answered 401 and its megabytes
 * are never read or parsed. The global guard still runs as for every route.
 */
export function installTokenBeforeBody(fastify: FastifyInstance, tokens: AccessTokenService): void {
  fastify.addHook('preParsing', async (request, reply, payload) => {
    if (!bodyLimitsOf(request).tokenBeforeBody) return payload;
    const token = extractAccessToken(request);
    try {
      if (!token) throw new PanelError('unauthorized', 'Missing access token (Authorization: Bearer <token>)');
      await tokens.verify(token);
    } catch (error) {
      // The body stays unread, so the connection cannot be reused.
      void reply.header('WWW-Authenticate', 'Bearer').header('connection', 'close');
      throw error;
    }
    return payload;
  });
}
