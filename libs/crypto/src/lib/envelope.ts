import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const ENVELOPE_VERSION = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export class EnvelopeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EnvelopeError';
  }
}

/** First 12 hex characters of SHA-256(key): names a key without revealing it. */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 12);
}

export interface ParsedEnvelope {
  version: string;
  keyId: string;
  payload: Buffer;
}

export function parseEnvelope(envelope: string): ParsedEnvelope {
  const parts = envelope.split('.');
  if (parts.length !== 3 || parts[0] !== ENVELOPE_VERSION || !/^[0-9a-f]{12}$/.test(parts[1])) {
    throw new EnvelopeError('not a v1 envelope');
  }
  const payload = Buffer.from(parts[2], 'base64url');
  if (payload.length < NONCE_BYTES + TAG_BYTES) throw new EnvelopeError('envelope payload too short');
  return { version: parts[0], keyId: parts[1], payload };
}

/**
 * AES-256-GCM envelopes `v1.<key id>.<base64url(nonce || ciphertext || tag)>`.
 * Encrypts under the current key; decrypts with whichever of current or previous key the id names.
 * `associatedData` binds a ciphertext to its place (for example a settings key) so it cannot be moved.
 */
export class EnvelopeCipher {
  private readonly currentId: string;
  private readonly keys = new Map<string, Buffer>();

  constructor(current: Buffer, previous?: Buffer | null) {
    for (const key of [current, previous]) {
      if (key && key.length !== 32) throw new EnvelopeError('keys must be 32 bytes');
    }
    this.currentId = keyIdOf(current);
    this.keys.set(this.currentId, current);
    if (previous) {
      const previousId = keyIdOf(previous);
      if (!this.keys.has(previousId)) this.keys.set(previousId, previous);
    }
  }

  get currentKeyId(): string {
    return this.currentId;
  }

  encrypt(plaintext: string | Buffer, associatedData?: string): string {
    const key = this.keys.get(this.currentId) as Buffer;
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, nonce);
    if (associatedData !== undefined) cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    const payload = Buffer.concat([nonce, body, cipher.getAuthTag()]);
    return `${ENVELOPE_VERSION}.${this.currentId}.${payload.toString('base64url')}`;
  }

  decrypt(envelope: string, associatedData?: string): Buffer {
    const { keyId, payload } = parseEnvelope(envelope);
    const key = this.keys.get(keyId);
    if (!key) throw new EnvelopeError('envelope was sealed with an unknown key');
    const nonce = payload.subarray(0, NONCE_BYTES);
    const tag = payload.subarray(payload.length - TAG_BYTES);
    const body = payload.subarray(NONCE_BYTES, payload.length - TAG_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', key, nonce);
    if (associatedData !== undefined) decipher.setAAD(Buffer.from(associatedData, 'utf8'));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(body), decipher.final()]);
    } catch {
      throw new EnvelopeError('envelope failed authentication');
    }
  }

  decryptString(envelope: string, associatedData?: string): string {
    return this.decrypt(envelope, associatedData).toString('utf8');
  }

  /** True when the envelope is not under the current key and should be re-encrypted. */
  needsRotation(envelope: string): boolean {
    return parseEnvelope(envelope).keyId !== this.currentId;
  }

  /** Decrypts with whatever key fits and seals again under the current key. */
  reencrypt(envelope: string, associatedData?: string): string {
    return this.encrypt(this.decrypt(envelope, associatedData), associatedData);
  }
}
