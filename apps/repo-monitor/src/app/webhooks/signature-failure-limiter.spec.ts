import { SIGNATURE_FAILURE_LIMIT, SIGNATURE_FAILURE_WINDOW_MS, SignatureFailureLimiter, signatureFailureKey } from './signature-failure-limiter';

describe('SignatureFailureLimiter', () => {
  let now = 1_000_000;
  const limiter = () => new SignatureFailureLimiter(() => now);

  it('answers 0 up to the limit, then the seconds left in the window', () => {
    const failures = limiter();
    for (let i = 0; i < SIGNATURE_FAILURE_LIMIT; i++) expect(failures.fail('203.0.113.9')).toBe(0);
    now += 15_000;
    expect(failures.fail('203.0.113.9')).toBe((SIGNATURE_FAILURE_WINDOW_MS - 15_000) / 1000);
    expect(failures.fail('203.0.113.10')).toBe(0);
    now += SIGNATURE_FAILURE_WINDOW_MS;
    expect(failures.fail('203.0.113.9')).toBe(0);
  });

  it('counts an IPv6 /64 as one address', () => {
    const failures = limiter();
    for (let i = 0; i < SIGNATURE_FAILURE_LIMIT; i++) expect(failures.fail(`2001:db8:1:2::${i.toString(16)}`)).toBe(0);
    expect(failures.fail('2001:db8:1:2:ffff:1:2:3')).toBeGreaterThan(0);
    expect(failures.fail('2001:db8:1:3::1')).toBe(0);
  });

  it.each([
    ['198.51.100.7', '198.51.100.7'],
    ['2001:db8:0:1::5', '2001:db8:0:1::/64'],
    ['2001:0db8:0000:0001:aaaa::', '2001:db8:0:1::/64'],
    ['::1', '0:0:0:0::/64'],
  ])('keys %s as %s', (address, key) => {
    expect(signatureFailureKey(address)).toBe(key);
  });
});
