import { randomBytes } from 'node:crypto';

export const WHSEC_PREFIX = 'whsec_';
const MIN_KEY_BYTES = 24;
const MAX_KEY_BYTES = 64;
/** Bytes of a generated signing key. */
const GENERATED_KEY_BYTES = 32;

/** What the 400 says when a given secret is not in the Standard Webhooks format. */
export const WHSEC_FORMAT_HINT =
  `the signing secret must be a Standard Webhooks secret: "${WHSEC_PREFIX}" followed by the base64 of ${MIN_KEY_BYTES} to ${MAX_KEY_BYTES} random bytes ` +
  `(make one with: echo "${WHSEC_PREFIX}$(openssl rand -base64 32)"), or leave it out and one is generated`;

/** A new signing secret: `whsec_` + base64 of 32 random bytes. */
export function generateStandardWebhookSecret(): string {
  return `${WHSEC_PREFIX}${randomBytes(GENERATED_KEY_BYTES).toString('base64')}`;
}

/** Whether `secret` is `whsec_` + canonical base64 of 24..64 bytes (what the official libraries decode). */
export function isStandardWebhookSecret(secret: string): boolean {
  if (!secret.startsWith(WHSEC_PREFIX)) return false;
  const encoded = secret.slice(WHSEC_PREFIX.length);
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(encoded)) return false;
  const key = Buffer.from(encoded, 'base64');
  return key.length >= MIN_KEY_BYTES && key.length <= MAX_KEY_BYTES && key.toString('base64') === encoded;
}
