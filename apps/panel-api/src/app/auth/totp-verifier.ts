import { authenticator } from 'otplib';
import { Clock } from './clock';

/** Codes of the current step and one step either side are accepted. */
export const TOTP_WINDOW_STEPS = 1;
/** A code that was accepted is refused again for this long (longer than its whole validity). */
export const TOTP_REPLAY_SECONDS = 120;

/** RFC 6238 codes (SHA-1, 6 digits, 30 s) as authenticator apps make them, with replay refusal. */
export class TotpVerifier {
  private readonly usedCodes = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    private readonly issuer: string,
  ) {}

  generateSecret(): string {
    return authenticator.generateSecret(20);
  }

  keyUri(accountName: string, secret: string): string {
    return authenticator.keyuri(accountName, this.issuer, secret);
  }

  /** True once for a valid code of `subject`; the same code is refused for TOTP_REPLAY_SECONDS after. */
  verify(subject: string, secret: string, code: string): boolean {
    const now = this.clock.now();
    for (const [key, expiresAt] of this.usedCodes) if (expiresAt <= now) this.usedCodes.delete(key);
    const key = `${subject}:${code}`;
    if (this.usedCodes.has(key)) return false;
    const checker = authenticator.clone({ window: TOTP_WINDOW_STEPS, epoch: now });
    let valid = false;
    try {
      valid = checker.check(code, secret);
    } catch {
      valid = false;
    }
    if (valid) this.usedCodes.set(key, now + TOTP_REPLAY_SECONDS * 1000);
    return valid;
  }
}
