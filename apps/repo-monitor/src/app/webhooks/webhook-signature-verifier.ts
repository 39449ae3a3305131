import { Injectable } from '@nestjs/common';
import { Webhooks } from '@octokit/webhooks';

/** Strict: a body that is not valid UTF-8 is refused, never decoded lossily (a BOM is kept as sent). */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
/** Verifiers kept per secret (the current one and those in their grace period: a handful). */
const MAX_CACHED_SECRETS = 16;

/**
 * Checks X-Hub-Signature-256 with @octokit/webhooks' `verify` (HMAC-SHA256 over the payload text,
 * constant-time comparison) against every candidate secret: all are tried, so timing does not tell
 * which matched. `verify` takes the payload as a string; the bytes received are decoded strictly,
 * and for valid UTF-8 that text encodes back to exactly those bytes, so the signature still covers
 * the bytes as sent. A body that is not valid UTF-8 (never a GitHub delivery: GitHub sends UTF-8
 * JSON) is refused as unverifiable rather than decoded with replacement characters. Nothing is
 * parsed before this holds.
 */
@Injectable()
export class WebhookSignatureVerifier {
  private readonly verifiers = new Map<string, Webhooks>();

  async verify(secrets: ReadonlyArray<string | undefined>, rawBody: Buffer, signature: string | undefined): Promise<boolean> {
    const candidates = secrets.filter((secret): secret is string => Boolean(secret));
    if (rawBody.length === 0 || !signature || candidates.length === 0) return false;
    let payload: string;
    try {
      payload = UTF8.decode(rawBody);
    } catch {
      return false;
    }
    const results = await Promise.all(candidates.map((secret) => this.verifierFor(secret).verify(payload, signature).catch(() => false)));
    return results.includes(true);
  }

  private verifierFor(secret: string): Webhooks {
    let verifier = this.verifiers.get(secret);
    if (!verifier) {
      if (this.verifiers.size >= MAX_CACHED_SECRETS) this.verifiers.clear();
      verifier = new Webhooks({ secret });
      this.verifiers.set(secret, verifier);
    }
    return verifier;
  }
}
