import { capRetryAfter } from './delivery-result';

/**
 * The outbox retry schedule of repo-monitor-details.md: after the first failed attempt wait 30 s,
 * then 2 min, 10 min, 30 min, 2 h, 4 h, 8 h and 12 h. Eight retries; after that the entry is dead.
 */
export const OUTBOX_RETRY_SCHEDULE_SECONDS: readonly number[] = Object.freeze([30, 120, 600, 1800, 7200, 14400, 28800, 43200]);

/** Retries after the first attempt (so at most 1 + 8 attempts in total). */
export const OUTBOX_MAX_RETRIES = OUTBOX_RETRY_SCHEDULE_SECONDS.length;

/**
 * Seconds to wait before the next attempt, or `null` when the entry should go to `dead`.
 *
 * `failedAttempts` counts attempts made so far, all failed (1 after the first failure).
 * A `Retry-After` from the receiver (capped at one hour) is honoured by never retrying sooner than it
 * asks; the schedule still sets the minimum, so a receiver cannot make us hammer it.
 */
export function nextOutboxRetryDelaySeconds(failedAttempts: number, retryAfterSeconds?: number): number | null {
  if (!Number.isInteger(failedAttempts) || failedAttempts < 1) throw new RangeError('failedAttempts must be an integer >= 1');
  if (failedAttempts > OUTBOX_MAX_RETRIES) return null;
  const scheduled = OUTBOX_RETRY_SCHEDULE_SECONDS[failedAttempts - 1] as number;
  if (retryAfterSeconds === undefined) return scheduled;
  return Math.max(scheduled, capRetryAfter(retryAfterSeconds));
}

/** The time of the next attempt (see {@link nextOutboxRetryDelaySeconds}), or `null` for dead. */
export function nextOutboxAttemptAt(failedAttempts: number, now: Date, retryAfterSeconds?: number): Date | null {
  const delay = nextOutboxRetryDelaySeconds(failedAttempts, retryAfterSeconds);
  return delay === null ? null : new Date(now.getTime() + delay * 1000);
}

export interface ExponentialBackoffOptions {
  /** Total attempts including the first (default 3). */
  attempts?: number;
  /** Delay before the second attempt (default 1000 ms); each later delay is multiplied by `factor`. */
  initialDelayMs?: number;
  factor?: number;
  maxDelayMs?: number;
  /** Adds up to this fraction of random extra delay (default 0: deterministic). */
  jitter?: number;
}

/** Delay before attempt `attempt + 1`, after `attempt` (1-based) failed. */
export function exponentialBackoffDelayMs(attempt: number, options: ExponentialBackoffOptions = {}): number {
  const initial = options.initialDelayMs ?? 1000;
  const factor = options.factor ?? 2;
  const max = options.maxDelayMs ?? 60_000;
  const base = Math.min(max, initial * factor ** Math.max(0, attempt - 1));
  const jitter = options.jitter ?? 0;
  return Math.round(base + (jitter > 0 ? Math.random() * base * jitter : 0));
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export interface RetryDecision {
  retry: boolean;
  /** Overrides the computed backoff for this wait (e.g. a Retry-After), in ms. */
  delayMs?: number;
}

/**
 * Runs `attempt` until `decide` says stop or the attempts run out, waiting with exponential backoff
 * in between. Returns the last result; `attempt` receives the 1-based attempt number.
 */
export async function retryWithBackoff<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  decide: (result: T, attemptNumber: number) => RetryDecision,
  options: ExponentialBackoffOptions & { signal?: AbortSignal } = {},
): Promise<{ result: T; attempts: number }> {
  const attempts = Math.max(1, options.attempts ?? 3);
  for (let number = 1; ; number++) {
    const result = await attempt(number);
    const decision = decide(result, number);
    if (!decision.retry || number >= attempts) return { result, attempts: number };
    await sleep(decision.delayMs ?? exponentialBackoffDelayMs(number, options), options.signal);
  }
}
