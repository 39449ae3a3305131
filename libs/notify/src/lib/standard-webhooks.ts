import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signing key of the Standard Webhooks scheme (https://www.standardwebhooks.com):
 * a secret written `whsec_<base64>` is the base64-decoded bytes after the prefix; any other secret
 * is used as its raw UTF-8 bytes (our channels store free-form secrets, and receivers built on the
 * official libraries accept either form when they are configured with the same string).
 */
export function standardWebhookKey(secret: string): Buffer {
  if (secret.startsWith('whsec_')) return Buffer.from(secret.slice('whsec_'.length), 'base64');
  return Buffer.from(secret, 'utf8');
}

/** `v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>` */
export function standardWebhookSignature(secret: string, id: string, timestampSeconds: number, body: string | Buffer): string {
  const mac = createHmac('sha256', standardWebhookKey(secret));
  mac.update(`${id}.${timestampSeconds}.`);
  mac.update(body);
  return `v1,${mac.digest('base64')}`;
}

export interface StandardWebhookHeaders {
  'webhook-id'?: string | null;
  'webhook-timestamp'?: string | null;
  'webhook-signature'?: string | null;
}

/**
 * Verifies Standard Webhooks headers: one of the space-separated `v1,` signatures must match and the
 * timestamp must be within `toleranceSeconds` (default 300) of `now`, so a replay is refused.
 */
export function verifyStandardWebhook(
  secret: string,
  headers: StandardWebhookHeaders,
  body: string | Buffer,
  options: { toleranceSeconds?: number; now?: Date } = {},
): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (!id || !timestamp || !signatures || !/^\d+$/.test(timestamp)) return false;
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > (options.toleranceSeconds ?? 300)) return false;
  const expected = Buffer.from(standardWebhookSignature(secret, id, Number(timestamp), body).slice(3), 'base64');
  let matched = false;
  for (const candidate of signatures.split(' ')) {
    if (!candidate.startsWith('v1,')) continue;
    const given = Buffer.from(candidate.slice(3), 'base64');
    if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
  }
  return matched;
}
