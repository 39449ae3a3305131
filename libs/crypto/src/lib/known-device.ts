import { createHmac, randomBytes } from 'node:crypto';
import { constantTimeEqual } from './hmac';

/**
 * Known-device tokens: proof that a browser signed in to the account before, so a login throttle
 * can exempt it from the delay that guessing at the account from elsewhere causes.
 *
 * The MAC key is the stored password hash: it never leaves the server, and changing the password
 * (or a reset) makes every earlier token worthless.
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
