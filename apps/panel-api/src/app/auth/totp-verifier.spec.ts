import { authenticator } from 'otplib';
import { Clock } from './clock';
import { TotpVerifier } from './totp-verifier';

class ManualClock extends Clock {
  time = Date.UTC(2025, 0, 1, 12, 0, 10);
  now(): number {
    return this.time;
  }
}

describe('TotpVerifier', () => {
  const secret = authenticator.generateSecret(20);
  const codeAt = (time: number) => authenticator.clone({ epoch: time }).generate(secret);
  let clock: ManualClock;
  let verifier: TotpVerifier;

  beforeEach(() => {
    clock = new ManualClock();
    verifier = new TotpVerifier(clock, 'SignPulse');
  });

  it('accepts the current step and one step either side, nothing further', () => {
    expect(verifier.verify('1', secret, codeAt(clock.time - 30_000))).toBe(true);
    expect(verifier.verify('1', secret, codeAt(clock.time))).toBe(true);
    expect(verifier.verify('1', secret, codeAt(clock.time + 30_000))).toBe(true);
    expect(verifier.verify('1', secret, codeAt(clock.time - 60_000))).toBe(false);
    expect(verifier.verify('1', secret, codeAt(clock.time + 60_000))).toBe(false);
  });

  it('refuses a used code for 120 s', () => {
    const code = codeAt(clock.time);
    expect(verifier.verify('1', secret, code)).toBe(true);
    expect(verifier.verify('1', secret, code)).toBe(false);
    // Still inside its validity (next step, window 1) and inside the replay period.
    clock.time += 25_000;
    expect(verifier.verify('1', secret, code)).toBe(false);
  });

  it('builds an otpauth URI with issuer and account', () => {
    expect(verifier.keyUri('admin', secret)).toBe(`otpauth://totp/SignPulse:admin?secret=${secret}&period=30&digits=6&algorithm=SHA1&issuer=SignPulse`);
  });
});
