import { Injectable } from '@nestjs/common';
import { isUtf8 } from 'node:buffer';
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
    // @octokit/webhooks signs text; valid UTF-8 decodes and re-encodes to the same bytes, anything
    // else would not survive that round trip and is checked over the bytes themselves.
    if (!isUtf8(rawBody)) return verifySha256Header(candidates, rawBody, signature);
    const payload = rawBody.toString('utf8');
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
