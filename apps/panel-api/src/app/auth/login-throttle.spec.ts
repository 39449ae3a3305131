import { loadPanelConfig } from '../config/panel-config';
import { Clock } from './clock';
import { LoginThrottle } from './login-throttle';

class ManualClock extends Clock {
  constructor(private time = 1_700_000_000_000) {
    super();
  }
  now(): number {
    return this.time;
  }
  advance(seconds: number): void {
    this.time += seconds * 1000;
  }
}

describe('LoginThrottle with the documented limits', () => {
  const limits = { maxFailures: 5, windowSeconds: 300, blockSeconds: 900 };
  let clock: ManualClock;
  let throttle: LoginThrottle;

  beforeEach(() => {
    clock = new ManualClock();
    throttle = new LoginThrottle(limits, clock);
  });

  it('blocks for 900 s after the fifth failure within 300 s', async () => {
    for (let i = 0; i < 4; i++) await throttle.recordFailure('a');
    expect(await throttle.retryAfterSeconds('a')).toBe(0);
    await throttle.recordFailure('a');
    expect(await throttle.retryAfterSeconds('a')).toBe(900);
    clock.advance(899.5);
    expect(await throttle.retryAfterSeconds('a')).toBe(1);
    clock.advance(0.5);
    expect(await throttle.retryAfterSeconds('a')).toBe(0);
  });

  it('forgets failures older than the window', async () => {
    for (let i = 0; i < 4; i++) await throttle.recordFailure('a');
    clock.advance(301);
    await throttle.recordFailure('a');
    expect(await throttle.retryAfterSeconds('a')).toBe(0);
  });

  it('counts per client and clears a client on success', async () => {
    for (let i = 0; i < 4; i++) await throttle.recordFailure('a');
    await throttle.recordSuccess('a');
    await throttle.recordFailure('a');
    for (let i = 0; i < 5; i++) await throttle.recordFailure('b');
    expect(await throttle.retryAfterSeconds('a')).toBe(0);
    expect(await throttle.retryAfterSeconds('b')).toBe(900);
  });

  it('counts every address of an IPv6 /64 as one client', async () => {
    for (let i = 1; i <= 5; i++) await throttle.recordFailure(`2001:db8:5:5::${i}`);
    expect(await throttle.retryAfterSeconds('2001:db8:5:5:ffff::77')).toBe(900);
    expect(await throttle.retryAfterSeconds('2001:db8:5:6::1')).toBe(0);
    expect(await throttle.retryAfterSeconds('203.0.113.1')).toBe(0);
  });
});

describe('login throttle configuration', () => {
  it('defaults to 5 failures in 300 s blocking for 900 s', () => {
    expect(loadPanelConfig({}).auth.loginThrottle).toEqual({ maxFailures: 5, windowSeconds: 300, blockSeconds: 900 });
  });
});
