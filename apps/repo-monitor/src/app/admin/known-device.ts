import type { FastifyReply, FastifyRequest } from 'fastify';

// The token itself (issue and check) is shared with panel-api through @shared/crypto.
export { issueKnownDeviceToken, knownDeviceId } from '@shared/crypto';

/** Cookie that marks a browser the admin signed in on; its `__Host-` form is used over https. */
export const KNOWN_DEVICE_COOKIE = 'monitor_device';
export const SECURE_KNOWN_DEVICE_COOKIE = `__Host-${KNOWN_DEVICE_COOKIE}`;
const KNOWN_DEVICE_MAX_AGE_SECONDS = 365 * 24 * 3600;

export function knownDeviceCookie(request: Pick<FastifyRequest, 'cookies'>): string | undefined {
  return request.cookies?.[SECURE_KNOWN_DEVICE_COOKIE] ?? request.cookies?.[KNOWN_DEVICE_COOKIE];
}

export function setKnownDeviceCookie(reply: FastifyReply, token: string, secure: boolean): void {
  void reply.setCookie(secure ? SECURE_KNOWN_DEVICE_COOKIE : KNOWN_DEVICE_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    maxAge: KNOWN_DEVICE_MAX_AGE_SECONDS,
  });
}
