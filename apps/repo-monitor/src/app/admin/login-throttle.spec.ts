import { ACCOUNT_FREE_FAILURES, ACCOUNT_MAX_DELAY_MS, LOGIN_FAILURE_LIMIT, LOGIN_FAILURE_WINDOW_MS, LoginThrottle } from './login-throttle';

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

describe('LoginThrottle keys, eviction and the account limit', () => {
  let now = 9_000_000;
  const limiter = () => new LoginThrottle(() => now);
  const fail = (throttle: LoginThrottle, source: Parameters<LoginThrottle['begin']>[0], times: number) => {
    for (let i = 0; i < times; i++) throttle.begin(source).failed();
  };

  it('counts every address of an IPv6 /64 as one client', () => {
    const throttle = limiter();
    for (let i = 0; i < LOGIN_FAILURE_LIMIT; i++) throttle.begin(`2001:db8:7:7::${(i + 1).toString(16)}`).failed();
    expect(() => throttle.begin('2001:db8:7:7:dead:beef:1:2')).toThrow(expect.objectContaining({ errorCode: 'rate_limited' }));
    expect(throttle.begin('2001:db8:7:8::1')).toBeDefined();
  });

  it('never forgets a blocked client to make room for new ones', () => {
    const throttle = limiter();
    fail(throttle, '198.51.100.1', LOGIN_FAILURE_LIMIT);
    // Far more one-failure addresses than the map holds.
    for (let i = 0; i < 10_050; i++) throttle.recordFailure(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    expect(throttle.retryAfterSeconds('198.51.100.1')).toBeGreaterThan(0);
  });

  it('slows guesses at the account from many addresses, doubling the wait up to a cap', () => {
    now = 20_000_000;
    const throttle = limiter();
    for (let i = 0; i < ACCOUNT_FREE_FAILURES; i++) throttle.begin({ client: `203.0.113.${i}`, account: 'admin' }).failed();
    let refused: unknown;
    try {
      throttle.begin({ client: '203.0.113.99', account: 'admin' });
    } catch (error) {
      refused = error;
    }
    expect(refused).toMatchObject({ errorCode: 'rate_limited', headers: { 'Retry-After': '1' } });
    now += 1_000;
    throttle.begin({ client: '203.0.113.99', account: 'admin' }).failed();
    now += 1_000;
    expect(() => throttle.begin({ client: '203.0.113.98', account: 'admin' })).toThrow(expect.objectContaining({ errorCode: 'rate_limited' }));
    now += 1_000;
    throttle.begin({ client: '203.0.113.98', account: 'admin' }).failed();
    for (let i = 0; i < 20; i++) {
      now += ACCOUNT_MAX_DELAY_MS;
      throttle.begin({ client: `198.18.0.${i}`, account: 'admin' }).failed();
    }
    now += ACCOUNT_MAX_DELAY_MS - 1_000;
    expect(() => throttle.begin({ client: '198.18.1.1', account: 'admin' })).toThrow(expect.objectContaining({ errorCode: 'rate_limited' }));
    // Other user names are not slowed (only the real account is ever passed as `account`).
    expect(throttle.begin({ client: '198.18.1.1' })).toBeDefined();
  });

  it('never blocks a known device because of failures elsewhere, but gives it a budget of its own', () => {
    now = 30_000_000;
    const throttle = limiter();
    const proxy = '192.0.2.10';
    fail(throttle, { client: proxy, account: 'admin' }, ACCOUNT_FREE_FAILURES);
    now += 1_000_000;
    for (let i = 0; i < LOGIN_FAILURE_LIMIT; i++) {
      now += ACCOUNT_MAX_DELAY_MS;
      throttle.recordFailure(proxy);
    }
    expect(() => throttle.begin({ client: proxy, account: 'admin' })).toThrow(expect.objectContaining({ errorCode: 'rate_limited' }));
    const owner = throttle.begin({ client: proxy, account: 'admin', knownDevice: 'device-1' });
    owner.succeeded();
    fail(throttle, { client: proxy, account: 'admin', knownDevice: 'device-2' }, LOGIN_FAILURE_LIMIT);
    expect(() => throttle.begin({ client: proxy, account: 'admin', knownDevice: 'device-2' })).toThrow(expect.objectContaining({ errorCode: 'rate_limited' }));
  });
});
