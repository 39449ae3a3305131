import { authenticator } from 'otplib';
import { TotpVerifier } from './totp-verifier';

describe('TotpVerifier', () => {
  const secret = authenticator.generateSecret(20);
  const codeAt = (time: number) => authenticator.clone({ epoch: time }).generate(secret);
  let time: number;
  let verifier: TotpVerifier;

  beforeEach(() => {
    time = Date.UTC(2026, 0, 1, 12, 0, 10);
    verifier = new TotpVerifier(() => time);
  });

  it('accepts the current step and one step either side, nothing further', () => {
    expect(verifier.verify(secret, codeAt(time - 30_000))).toBe(true);
    expect(verifier.verify(secret, codeAt(time))).toBe(true);
    expect(verifier.verify(secret, codeAt(time + 30_000))).toBe(true);
    expect(verifier.verify(secret, codeAt(time - 60_000))).toBe(false);
    expect(verifier.verify(secret, codeAt(time + 60_000))).toBe(false);
    expect(verifier.verify(secret, 'abcdef')).toBe(false);
  });

  it('refuses a used code while it could still be valid', () => {
    const code = codeAt(time);
    expect(verifier.verify(secret, code)).toBe(true);
    expect(verifier.verify(secret, code)).toBe(false);
    time += 25_000;
    expect(verifier.verify(secret, code)).toBe(false);
  });

  it('builds an otpauth URI with issuer and account', () => {
    expect(verifier.keyUri('admin', secret)).toBe(`otpauth://totp/repo-monitor:admin?secret=${secret}&period=30&digits=6&algorithm=SHA1&issuer=repo-monitor`);
  });
});
