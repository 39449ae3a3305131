import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Cookie that marks a browser the admin logged in on (a token of @shared/crypto's known-device
 * scheme). It is only read by the login route: it proves nothing but "this browser logged in
 * before", which exempts the login from the per-account delay. Over https it takes the `__Host-` form.
 */
export const KNOWN_DEVICE_COOKIE = 'panel_device';
export const SECURE_KNOWN_DEVICE_COOKIE = `__Host-${KNOWN_DEVICE_COOKIE}`;
const KNOWN_DEVICE_MAX_AGE_SECONDS = 365 * 24 * 3600;
// A real Cookie header of this app is short; anything longer is not worth parsing.
const MAX_COOKIE_HEADER_CHARS = 8192;

/** The known-device token the request carries, if any (panel-api has no cookie plugin: parsed here). */
export function knownDeviceCookie(request: Pick<FastifyRequest, 'headers'>): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== 'string' || header.length > MAX_COOKIE_HEADER_CHARS) return undefined;
  const values = new Map<string, string>();
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator === -1) continue;
    const name = part.slice(0, separator).trim();
    if (name === KNOWN_DEVICE_COOKIE || name === SECURE_KNOWN_DEVICE_COOKIE) values.set(name, part.slice(separator + 1).trim());
  }
  return values.get(SECURE_KNOWN_DEVICE_COOKIE) ?? values.get(KNOWN_DEVICE_COOKIE);
}

export function setKnownDeviceCookie(reply: FastifyReply, token: string, secure: boolean): void {
  const name = secure ? SECURE_KNOWN_DEVICE_COOKIE : KNOWN_DEVICE_COOKIE;
  const attributes = [`${name}=${token}`, 'Path=/', 'HttpOnly', 'SameSite=Strict', `Max-Age=${KNOWN_DEVICE_MAX_AGE_SECONDS}`];
  if (secure) attributes.push('Secure');
  void reply.header('Set-Cookie', attributes.join('; '));
}
