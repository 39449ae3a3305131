import { LOGIN_FAILURE_LIMIT, LOGIN_FAILURE_WINDOW_MS, LoginThrottle } from './login-throttle';

describe('LoginThrottle', () => {
  let now = 1_000_000;
  const throttle = () => new LoginThrottle(() => now);

  it('refuses a client after the failure limit until the oldest failure leaves the window', () => {
    const limiter = throttle();
    for (let i = 0; i < LOGIN_FAILURE_LIMIT - 1; i++) limiter.recordFailure('10.0.0.1');
    expect(limiter.retryAfterSeconds('10.0.0.1')).toBe(0);
    limiter.recordFailure('10.0.0.1');
    expect(limiter.retryAfterSeconds('10.0.0.1')).toBe(LOGIN_FAILURE_WINDOW_MS / 1000);
    expect(limiter.retryAfterSeconds('10.0.0.2')).toBe(0);
    now += LOGIN_FAILURE_WINDOW_MS + 1;
    expect(limiter.retryAfterSeconds('10.0.0.1')).toBe(0);
  });

  it('clears a client on success', () => {
    const limiter = throttle();
    for (let i = 0; i < LOGIN_FAILURE_LIMIT; i++) limiter.recordFailure('10.0.0.3');
    expect(limiter.retryAfterSeconds('10.0.0.3')).toBeGreaterThan(0);
    limiter.recordSuccess('10.0.0.3');
    expect(limiter.retryAfterSeconds('10.0.0.3')).toBe(0);
  });
});
