import { constantTimeEqual } from '@shared/crypto';
import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Cookie that marks a browser the admin signed in on; its `__Host-` form is used over https. */
export const KNOWN_DEVICE_COOKIE = 'monitor_device';
export const SECURE_KNOWN_DEVICE_COOKIE = `__Host-${KNOWN_DEVICE_COOKIE}`;
const KNOWN_DEVICE_MAX_AGE_SECONDS = 365 * 24 * 3600;

/**
 * The MAC key is the stored password hash: it never leaves the server, and changing the password
 * (or a reset) makes every earlier known-device cookie worthless.
 */
function mac(passwordHash: string, username: string, nonce: string): string {
  return createHmac('sha256', passwordHash).update(`known-device\n${username}\n${nonce}`).digest('base64url');
}

/** A fresh known-device token for the account: `<nonce>.<mac>`. */
export function issueKnownDeviceToken(passwordHash: string, username: string): string {
  const nonce = randomBytes(16).toString('base64url');
  return `${nonce}.${mac(passwordHash, username, nonce)}`;
}

/** The device id (the nonce) of a valid known-device token for this account, else undefined. */
export function knownDeviceId(token: string | undefined, passwordHash: string, username: string): string | undefined {
  if (!token || token.length > 200) return undefined;
  const [nonce, signature, extra] = token.split('.');
  if (!nonce || !signature || extra !== undefined) return undefined;
  return constantTimeEqual(signature, mac(passwordHash, username, nonce)) ? nonce : undefined;
}

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
