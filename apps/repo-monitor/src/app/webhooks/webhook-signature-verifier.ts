import { Injectable } from '@nestjs/common';
import { verifySha256Header } from '@shared/crypto';

/**
 * Checks X-Hub-Signature-256 over the exact bytes received (HMAC-SHA256, constant-time comparison)
 * against every candidate secret: all are tried so timing does not tell which matched. The bytes
 * are never decoded first, so a body that is not valid UTF-8 is checked as sent, and a delivery
 * costs one HMAC per secret (the e2e suite cross-checks with @octokit/webhooks-methods' signer).
 */
@Injectable()
export class WebhookSignatureVerifier {
  verify(secrets: ReadonlyArray<string | undefined>, rawBody: Buffer, signature: string | undefined): boolean {
    if (rawBody.length === 0) return false;
    return verifySha256Header(secrets, rawBody, signature);
  }
}
