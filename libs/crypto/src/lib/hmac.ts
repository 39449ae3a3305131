import { createHmac, timingSafeEqual } from 'node:crypto';

export type BinaryLike = string | Buffer | Uint8Array;

/** HMAC-SHA256 of `payload` under `secret`, as lowercase hex. */
export function hmacSha256Hex(secret: BinaryLike, payload: BinaryLike): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}

/**
 * Compares two strings in time that depends only on their lengths, never on where they differ.
 * Inputs of different length are hashed first so the comparison itself stays constant-time.
 */
export function constantTimeEqual(a: string | Buffer, b: string | Buffer): boolean {
  const left = Buffer.isBuffer(a) ? a : Buffer.from(a, 'utf8');
  const right = Buffer.isBuffer(b) ? b : Buffer.from(b, 'utf8');
  if (left.length !== right.length) {
    // Still spend the same work as a real comparison, then fail.
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}

/** `sha256=<hex>` as used by GitHub's X-Hub-Signature-256 and our outbound webhook header. */
export function signSha256Header(secret: BinaryLike, payload: BinaryLike): string {
  return `sha256=${hmacSha256Hex(secret, payload)}`;
}

/**
 * Verifies a `sha256=<hex>` header against each candidate secret (current first, then previous).
 * Every candidate is checked, so the time taken does not reveal which one matched.
 */
export function verifySha256Header(
  secrets: ReadonlyArray<BinaryLike | undefined | null>,
  payload: BinaryLike,
  header: string | undefined | null,
): boolean {
  if (!header || !header.startsWith('sha256=')) return false;
  const candidate = header.slice('sha256='.length).toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(candidate)) return false;
  let matched = false;
  for (const secret of secrets) {
    if (secret === undefined || secret === null || secret.length === 0) continue;
    if (constantTimeEqual(hmacSha256Hex(secret, payload), candidate)) matched = true;
  }
  return matched;
}
