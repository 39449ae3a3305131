import { ForwardingSignature } from './owner-forwarding';

describe('ForwardingSignature (the header one replica sends another)', () => {
  const key = Buffer.alloc(32, 7);
  const signature = new ForwardingSignature(key);
  const now = 1_800_000_000_000;

  it('verifies what it signed and names the replica, dots in its id included', () => {
    const value = signature.sign('panel-api-7f.default.svc', 'POST', '/api/sign-tasks/a/run?x=1', now);
    expect(signature.verify(value, 'post', '/api/sign-tasks/a/run?x=1', now + 1_000)).toBe('panel-api-7f.default.svc');
  });

  it('refuses another method, URL, replica id, key, a changed MAC and a value outside five minutes', () => {
    const value = signature.sign('one', 'POST', '/api/sign-tasks/a/run', now);
    expect(signature.verify(value, 'GET', '/api/sign-tasks/a/run', now)).toBeUndefined();
    expect(signature.verify(value, 'POST', '/api/sign-tasks/b/run', now)).toBeUndefined();
    expect(signature.verify(value.replace(/^one/, 'two'), 'POST', '/api/sign-tasks/a/run', now)).toBeUndefined();
    expect(new ForwardingSignature(Buffer.alloc(32, 8)).verify(value, 'POST', '/api/sign-tasks/a/run', now)).toBeUndefined();
    expect(signature.verify(`${value.slice(0, -2)}AA`, 'POST', '/api/sign-tasks/a/run', now)).toBeUndefined();
    expect(signature.verify(value, 'POST', '/api/sign-tasks/a/run', now + 5 * 60_000 + 1)).toBeUndefined();
    expect(signature.verify(value, 'POST', '/api/sign-tasks/a/run', now - 5 * 60_000 - 1)).toBeUndefined();
  });

  it('refuses values of the wrong shape without throwing', () => {
    for (const value of ['', 'one', 'one.2', '.1.abc', 'one.notatime.abc', `${'x'.repeat(600)}.1.abc`]) {
      expect(signature.verify(value, 'GET', '/', now)).toBeUndefined();
    }
  });
});
