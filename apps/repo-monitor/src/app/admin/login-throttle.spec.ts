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

describe('LoginThrottle.begin (reserved password checks)', () => {
  const now = 5_000_000;
  const limiter = () => new LoginThrottle(() => now);

  it('counts checks in flight, so a parallel burst gets no more than the limit of verdicts', () => {
    const throttle = limiter();
    const attempts = Array.from({ length: LOGIN_FAILURE_LIMIT }, () => throttle.begin('10.0.1.1'));
    expect(() => throttle.begin('10.0.1.1')).toThrow(expect.objectContaining({ errorCode: 'rate_limited' }));
    for (const attempt of attempts) attempt.failed();
    expect(() => throttle.begin('10.0.1.1')).toThrow(expect.objectContaining({ errorCode: 'rate_limited' }));
    expect(throttle.retryAfterSeconds('10.0.1.1')).toBe(LOGIN_FAILURE_WINDOW_MS / 1000);
    expect(throttle.begin('10.0.1.2')).toBeDefined();
  });

  it('frees a slot without counting a failure on release, and settles only once', () => {
    const throttle = limiter();
    const attempts = Array.from({ length: LOGIN_FAILURE_LIMIT }, () => throttle.begin('10.0.1.3'));
    attempts[0].release();
    attempts[0].failed();
    const next = throttle.begin('10.0.1.3');
    next.release();
    for (const attempt of attempts.slice(1)) attempt.failed();
    expect(throttle.retryAfterSeconds('10.0.1.3')).toBe(0);
  });

  it('refuses a right password whose client got blocked while it was checked', () => {
    const throttle = limiter();
    const right = throttle.begin('10.0.1.4');
    for (let i = 0; i < LOGIN_FAILURE_LIMIT; i++) throttle.recordFailure('10.0.1.4');
    expect(() => right.succeeded()).toThrow(expect.objectContaining({ errorCode: 'rate_limited' }));
    expect(throttle.retryAfterSeconds('10.0.1.4')).toBeGreaterThan(0);
  });

  it('clears the client on a success', () => {
    const throttle = limiter();
    for (let i = 0; i < LOGIN_FAILURE_LIMIT - 1; i++) throttle.begin('10.0.1.5').failed();
    throttle.begin('10.0.1.5').succeeded();
    expect(throttle.retryAfterSeconds('10.0.1.5')).toBe(0);
    for (let i = 0; i < LOGIN_FAILURE_LIMIT - 1; i++) throttle.begin('10.0.1.5').failed();
    expect(throttle.retryAfterSeconds('10.0.1.5')).toBe(0);
  });
});
