import { Injectable } from '@nestjs/common';
import { Webhooks } from '@octokit/webhooks';
import { verifySha256Header } from '@shared/crypto';

/**
 * Checks X-Hub-Signature-256 over the exact bytes received, with @octokit/webhooks (constant-time
 * comparison), against every candidate secret: all are tried so timing does not tell which matched.
 */
@Injectable()
export class WebhookSignatureVerifier {
  private readonly verifiers = new Map<string, Webhooks>();

  async verify(secrets: ReadonlyArray<string | undefined>, rawBody: Buffer, signature: string | undefined): Promise<boolean> {
    const candidates = secrets.filter((secret): secret is string => Boolean(secret));
    if (!signature || candidates.length === 0 || rawBody.length === 0) return false;
    const payload = rawBody.toString('utf8');
    // @octokit/webhooks signs text; bytes that are not valid UTF-8 would not survive the round trip.
    if (Buffer.byteLength(payload, 'utf8') !== rawBody.length || !Buffer.from(payload, 'utf8').equals(rawBody)) {
      return verifySha256Header(candidates, rawBody, signature);
    }
    const results = await Promise.all(candidates.map((secret) => this.verifierFor(secret).verify(payload, signature).catch(() => false)));
    return results.some(Boolean);
  }

  private verifierFor(secret: string): Webhooks {
    let verifier = this.verifiers.get(secret);
    if (!verifier) {
      if (this.verifiers.size > 8) this.verifiers.clear();
      verifier = new Webhooks({ secret });
      this.verifiers.set(secret, verifier);
    }
    return verifier;
  }
}
