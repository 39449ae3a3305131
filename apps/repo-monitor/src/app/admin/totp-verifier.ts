import { authenticator } from 'otplib';

/** Codes of the current step and one step either side are accepted. */
export const TOTP_WINDOW_STEPS = 1;
/** A code that was accepted is refused again for this long (longer than its whole validity). */
export const TOTP_REPLAY_SECONDS = 120;
export const TOTP_ISSUER = 'repo-monitor';

/**
 * RFC 6238 codes (SHA-1, 6 digits, 30 s) as authenticator apps make them, with replay refusal.
 * The same rules as panel-api's verifier; apps do not import each other, and the class is small.
 */
export class TotpVerifier {
  private readonly usedCodes = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  generateSecret(): string {
    return authenticator.generateSecret(20);
  }

  keyUri(accountName: string, secret: string): string {
    return authenticator.keyuri(accountName, TOTP_ISSUER, secret);
  }

  /** True once for a valid code of `secret`; the same code is refused for TOTP_REPLAY_SECONDS after. */
  verify(secret: string, code: string): boolean {
    const now = this.now();
    for (const [key, expiresAt] of this.usedCodes) if (expiresAt <= now) this.usedCodes.delete(key);
    if (this.usedCodes.has(code)) return false;
    let valid = false;
    try {
      valid = authenticator.clone({ window: TOTP_WINDOW_STEPS, epoch: now }).check(code, secret);
    } catch {
      valid = false;
    }
    if (valid) this.usedCodes.set(code, now + TOTP_REPLAY_SECONDS * 1000);
    return valid;
  }
}
