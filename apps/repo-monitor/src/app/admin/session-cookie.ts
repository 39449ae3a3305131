import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '../openapi';

/**
 * The session cookie's name when it is Secure: the `__Host-` prefix makes the browser refuse it
 * unless it is Secure, has Path=/ and no Domain, so no sibling host or plain-http page can set or
 * shadow it.
 */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

/** The session token a request carries: the `__Host-` cookie (https) or the plain one (http on localhost). */
export function sessionCookieValue(request: Pick<FastifyRequest, 'cookies'>): string | undefined {
  return request.cookies?.[SECURE_SESSION_COOKIE] ?? request.cookies?.[SESSION_COOKIE];
}

/**
 * Sets the session cookie. Over https (the socket, a trusted proxy's X-Forwarded-Proto, or an https
 * public base URL) it is `__Host-monitor_session` with Secure; over plain http it keeps the plain
 * name, so signing in on http://localhost still works.
 */
export function setSessionCookie(reply: FastifyReply, token: string, secure: boolean, maxAgeSeconds: number): void {
  void reply.setCookie(secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    maxAge: maxAgeSeconds,
  });
}

/** Removes both forms of the session cookie. */
export function clearSessionCookies(reply: FastifyReply): void {
  void reply.clearCookie(SESSION_COOKIE, { path: '/' });
  void reply.clearCookie(SECURE_SESSION_COOKIE, { path: '/', secure: true });
}
