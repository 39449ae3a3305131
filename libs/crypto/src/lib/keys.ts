import { hkdfSync, randomBytes } from 'node:crypto';

/** HKDF-SHA256 (RFC 5869): derives a purpose-bound key so one master key never signs two kinds of thing. */
export function deriveKey(inputKey: Buffer, info: string | Buffer, length = 32, salt: Buffer | string = ''): Buffer {
  return Buffer.from(hkdfSync('sha256', inputKey, salt, info, length));
}

/** A URL-safe random token carrying `bytes` of entropy. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** A random password from an unambiguous alphabet, without modulo bias. */
export function randomPassword(length = 24): string {
  const out: string[] = [];
  const limit = 256 - (256 % PASSWORD_ALPHABET.length);
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit && out.length < length) out.push(PASSWORD_ALPHABET[byte % PASSWORD_ALPHABET.length]);
    }
  }
  return out.join('');
}
