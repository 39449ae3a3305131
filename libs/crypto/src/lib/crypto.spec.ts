import {
  EnvelopeCipher,
  EnvelopeError,
  constantTimeEqual,
  deriveKey,
  hmacSha256Hex,
  keyIdOf,
  parseMasterKey,
  randomPassword,
  randomToken,
  signSha256Header,
  verifySha256Header,
} from '../index';

describe('HMAC-SHA256', () => {
  it('matches RFC 4231 test case 2', () => {
    expect(hmacSha256Hex('Jefe', 'what do ya want for nothing?')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('matches the GitHub webhook documentation example', () => {
    // https://docs.github.com/webhooks/using-webhooks/validating-webhook-deliveries
    expect(signSha256Header("It's a Secret to Everybody", 'Hello, World!')).toBe(
      'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17',
    );
  });

  it('verifies against the current or the previous secret and refuses anything else', () => {
    const body = Buffer.from('{"a":1}');
    const header = signSha256Header('old', body);
    expect(verifySha256Header(['new', 'old'], body, header)).toBe(true);
    expect(verifySha256Header(['new'], body, header)).toBe(false);
    expect(verifySha256Header(['new', undefined, ''], body, header)).toBe(false);
    expect(verifySha256Header(['old'], body, header.toUpperCase().replace('SHA256=', 'sha256='))).toBe(true);
    expect(verifySha256Header(['old'], body, 'sha1=abc')).toBe(false);
    expect(verifySha256Header(['old'], body, undefined)).toBe(false);
    expect(verifySha256Header(['old'], Buffer.from('{"a":2}'), header)).toBe(false);
  });

  it('compares in constant time regardless of length', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
  });
});

describe('parseMasterKey', () => {
  const raw = Buffer.alloc(32, 7);

  it('accepts 64 hex characters, base64 and base64url', () => {
    expect(parseMasterKey(raw.toString('hex'))).toEqual(raw);
    expect(parseMasterKey(raw.toString('base64'))).toEqual(raw);
    const other = Buffer.from(Array.from({ length: 32 }, (_, i) => 250 - i));
    expect(parseMasterKey(other.toString('base64url'))).toEqual(other);
  });

  it.each([
    ['empty', ''],
    ['16 bytes hex', Buffer.alloc(16).toString('hex')],
    ['31 bytes base64', Buffer.alloc(31, 1).toString('base64')],
    ['33 bytes base64', Buffer.alloc(33, 1).toString('base64')],
    ['not an encoding', 'this is not a key at all!'],
  ])('refuses %s without echoing the value', (_name, value) => {
    expect(() => parseMasterKey(value)).toThrow(/32 bytes|empty/);
    try {
      parseMasterKey(value);
    } catch (error) {
      if (value) expect((error as Error).message).not.toContain(value);
    }
  });
});

describe('EnvelopeCipher', () => {
  const key = Buffer.alloc(32, 1);
  const previous = Buffer.alloc(32, 2);

  it('decrypts the NIST GCM test case 14 vector (zero key, zero nonce)', () => {
    const zeroKey = Buffer.alloc(32);
    const payload = Buffer.concat([
      Buffer.alloc(12),
      Buffer.from('cea7403d4d606b6e074ec5d3baf39d18', 'hex'),
      Buffer.from('d0d1c8a799996bf0265b98b5d48ab919', 'hex'),
    ]);
    const envelope = `v1.${keyIdOf(zeroKey)}.${payload.toString('base64url')}`;
    expect(new EnvelopeCipher(zeroKey).decrypt(envelope)).toEqual(Buffer.alloc(16));
  });

  it('names keys by the first 12 hex characters of their SHA-256', () => {
    expect(keyIdOf(Buffer.alloc(32))).toBe('66687aadf862');
  });

  it('round-trips and uses a fresh nonce every time', () => {
    const cipher = new EnvelopeCipher(key);
    const a = cipher.encrypt('secret');
    const b = cipher.encrypt('secret');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1\.[0-9a-f]{12}\.[A-Za-z0-9_-]+$/);
    expect(cipher.decryptString(a)).toBe('secret');
  });

  it('decrypts with the previous key and re-encrypts under the current one', () => {
    const old = new EnvelopeCipher(previous).encrypt('token');
    const rotating = new EnvelopeCipher(key, previous);
    expect(rotating.needsRotation(old)).toBe(true);
    const fresh = rotating.reencrypt(old);
    expect(rotating.needsRotation(fresh)).toBe(false);
    expect(new EnvelopeCipher(key).decryptString(fresh)).toBe('token');
    expect(() => new EnvelopeCipher(key).decrypt(old)).toThrow(EnvelopeError);
  });

  it('refuses tampered envelopes and moved ciphertexts', () => {
    const cipher = new EnvelopeCipher(key);
    const sealed = cipher.encrypt('value', 'settings:ai.api_key');
    expect(cipher.decryptString(sealed, 'settings:ai.api_key')).toBe('value');
    expect(() => cipher.decrypt(sealed, 'settings:other')).toThrow('failed authentication');
    // The second-to-last character changed, always to another one (the nonce is random: a character
    // picked without looking at the one there was that character one run in 64); all its bits count.
    const at = sealed.length - 2;
    const flipped = sealed.slice(0, at) + (sealed[at] === 'A' ? 'B' : 'A') + sealed.slice(at + 1);
    expect(() => cipher.decrypt(flipped, 'settings:ai.api_key')).toThrow(EnvelopeError);
    expect(() => cipher.decrypt('v2.abc.def')).toThrow('not a v1 envelope');
  });
});

describe('deriveKey (HKDF-SHA256)', () => {
  it('matches RFC 5869 test case 1', () => {
    const okm = deriveKey(
      Buffer.alloc(22, 0x0b),
      Buffer.from('f0f1f2f3f4f5f6f7f8f9', 'hex'),
      42,
      Buffer.from('000102030405060708090a0b0c', 'hex'),
    );
    expect(okm.toString('hex')).toBe(
      '3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865',
    );
  });

  it('gives different keys for different purposes', () => {
    const master = Buffer.alloc(32, 9);
    expect(deriveKey(master, 'oauth-token')).not.toEqual(deriveKey(master, 'session'));
  });
});

describe('random tokens and passwords', () => {
  it('makes URL-safe tokens with the requested entropy', () => {
    const token = randomToken(32);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomToken()).not.toBe(token);
  });

  it('makes passwords of the requested length from an unambiguous alphabet', () => {
    const password = randomPassword(20);
    expect(password).toHaveLength(20);
    expect(password).not.toMatch(/[0O1lI]/);
  });
});
