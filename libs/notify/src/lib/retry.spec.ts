import { capRetryAfter, classifyHttpStatus, MAX_RETRY_AFTER_SECONDS, parseRetryAfter } from './delivery-result';
import { exponentialBackoffDelayMs, nextOutboxAttemptAt, nextOutboxRetryDelaySeconds, OUTBOX_MAX_RETRIES, OUTBOX_RETRY_SCHEDULE_SECONDS, retryWithBackoff } from './retry';

describe('outbox retry schedule', () => {
  it('backs off 30 s, 2 min, 10 min, 30 min, 2 h, 4 h, 8 h, 12 h and then gives up', () => {
    const delays = Array.from({ length: 9 }, (_, index) => nextOutboxRetryDelaySeconds(index + 1));
    expect(delays).toEqual([30, 120, 600, 1800, 7200, 14400, 28800, 43200, null]);
    expect(OUTBOX_RETRY_SCHEDULE_SECONDS).toHaveLength(8);
    expect(OUTBOX_MAX_RETRIES).toBe(8);
  });

  it('honours Retry-After up to one hour but never retries sooner than the schedule', () => {
    expect(nextOutboxRetryDelaySeconds(1, 90)).toBe(90);
    expect(nextOutboxRetryDelaySeconds(1, 5)).toBe(30);
    expect(nextOutboxRetryDelaySeconds(2, 86_400)).toBe(MAX_RETRY_AFTER_SECONDS);
    expect(nextOutboxRetryDelaySeconds(6, 86_400)).toBe(14400);
  });

  it('computes the next attempt time and rejects a nonsensical attempt count', () => {
    const now = new Date('2024-01-01T00:00:00Z');
    expect(nextOutboxAttemptAt(3, now)?.toISOString()).toBe('2024-01-01T00:10:00.000Z');
    expect(nextOutboxAttemptAt(9, now)).toBeNull();
    expect(() => nextOutboxRetryDelaySeconds(0)).toThrow(RangeError);
  });
});

describe('classification helpers', () => {
  it('classifies statuses the way the outbox needs', () => {
    expect([200, 204, 408, 429, 500, 503, 400, 401, 404, 410, 301].map(classifyHttpStatus)).toEqual([
      'sent', 'sent', 'retryable', 'retryable', 'retryable', 'retryable', 'permanent', 'permanent', 'permanent', 'permanent', 'permanent',
    ]);
  });

  it('parses Retry-After seconds and dates, capped at one hour', () => {
    const now = new Date('2024-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120);
    expect(parseRetryAfter('999999', now)).toBe(3600);
    expect(parseRetryAfter('Mon, 01 Jan 2024 00:05:00 GMT', now)).toBe(300);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(capRetryAfter(-5)).toBe(0);
  });
});

describe('retryWithBackoff', () => {
  it('doubles the delay and stops at the attempt limit', () => {
    expect([1, 2, 3, 4].map((attempt) => exponentialBackoffDelayMs(attempt, { initialDelayMs: 100, maxDelayMs: 500 }))).toEqual([100, 200, 400, 500]);
  });

  it('retries until the decision says stop', async () => {
    const seen: number[] = [];
    const started = Date.now();
    const { result, attempts } = await retryWithBackoff(
      async (attempt) => {
        seen.push(attempt);
        return attempt;
      },
      (value) => ({ retry: value < 3 }),
      { attempts: 5, initialDelayMs: 20 },
    );
    expect(result).toBe(3);
    expect(attempts).toBe(3);
    expect(seen).toEqual([1, 2, 3]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
  });

  it('returns the last result when attempts run out', async () => {
    const { result, attempts } = await retryWithBackoff(async () => 'failed', () => ({ retry: true, delayMs: 1 }), { attempts: 2 });
    expect(result).toBe('failed');
    expect(attempts).toBe(2);
  });
});
