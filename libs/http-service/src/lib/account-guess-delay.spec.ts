import { ACCOUNT_PASSWORD_DELAY, ACCOUNT_TOTP_DELAY, accountGuessDelayMs, accountGuessWaitSeconds } from './account-guess-delay';

describe('account guess delay', () => {
  it('lets the free failures through, then doubles the wait up to the longest one', () => {
    expect([0, 4, 5, 6, 7, 11, 12, 40].map((failures) => accountGuessDelayMs(ACCOUNT_PASSWORD_DELAY, failures))).toEqual([0, 0, 1000, 2000, 4000, 60_000, 60_000, 60_000]);
  });

  it('is stricter for wrong TOTP codes than for wrong passwords at every count', () => {
    for (let failures = 2; failures <= 20; failures++) {
      expect(accountGuessDelayMs(ACCOUNT_TOTP_DELAY, failures)).toBeGreaterThan(accountGuessDelayMs(ACCOUNT_PASSWORD_DELAY, failures));
    }
    expect(accountGuessDelayMs(ACCOUNT_TOTP_DELAY, 10)).toBe(15 * 60_000);
  });

  it('counts the wait from the last failure and forgets failures after a quiet spell', () => {
    const last = 1_000_000;
    expect(accountGuessWaitSeconds(ACCOUNT_PASSWORD_DELAY, 6, last, last + 500)).toBe(2);
    expect(accountGuessWaitSeconds(ACCOUNT_PASSWORD_DELAY, 6, last, last + 2000)).toBe(0);
    expect(accountGuessWaitSeconds(ACCOUNT_TOTP_DELAY, 3, last, last + 1000)).toBe(9);
    expect(accountGuessWaitSeconds(ACCOUNT_PASSWORD_DELAY, 30, last, last + ACCOUNT_PASSWORD_DELAY.resetAfterMs + 1)).toBe(0);
  });
});
