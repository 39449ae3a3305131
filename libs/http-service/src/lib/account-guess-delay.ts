/**
 * How guesses at one account are slowed, whatever address they come from: the first `freeFailures`
 * failures cost nothing, then each further guess must wait twice as long after the last failure as
 * the one before (`baseDelayMs`, 2×, 4× … up to `maxDelayMs`). A quiet `resetAfterMs` forgets the
 * failures. The wait is bounded so guessing slows down without locking the owner out for long.
 */
export interface AccountGuessDelayPolicy {
  freeFailures: number;
  baseDelayMs: number;
  maxDelayMs: number;
  resetAfterMs: number;
}

/** Password guesses at an admin account (both services' sign-in). */
export const ACCOUNT_PASSWORD_DELAY: AccountGuessDelayPolicy = {
  freeFailures: 5,
  baseDelayMs: 1000,
  maxDelayMs: 60_000,
  resetAfterMs: 15 * 60_000,
};

/**
 * Wrong second-factor codes after the right password: the guesser knows the password, and a
 * 6-digit code space is small, so fewer free failures and a much longer longest wait.
 */
export const ACCOUNT_TOTP_DELAY: AccountGuessDelayPolicy = {
  freeFailures: 2,
  baseDelayMs: 5000,
  maxDelayMs: 15 * 60_000,
  resetAfterMs: 60 * 60_000,
};

/** The failures that still count at `now` (0 once the account was quiet for `resetAfterMs`). */
export function countedFailures(policy: AccountGuessDelayPolicy, failures: number, lastFailureAt: number, now: number): number {
  return failures > 0 && now - lastFailureAt > policy.resetAfterMs ? 0 : failures;
}

/** Milliseconds the next guess must wait after the last failure, given the counted failures. */
export function accountGuessDelayMs(policy: AccountGuessDelayPolicy, failures: number): number {
  if (failures < policy.freeFailures) return 0;
  const doublings = Math.min(30, failures - policy.freeFailures);
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** doublings);
}

/** Seconds (rounded up) until the next guess may be checked, or 0 when it may be now. */
export function accountGuessWaitSeconds(policy: AccountGuessDelayPolicy, failures: number, lastFailureAt: number, now: number): number {
  const counted = countedFailures(policy, failures, lastFailureAt, now);
  const waitMs = lastFailureAt + accountGuessDelayMs(policy, counted) - now;
  return counted >= policy.freeFailures && waitMs > 0 ? Math.ceil(waitMs / 1000) : 0;
}
