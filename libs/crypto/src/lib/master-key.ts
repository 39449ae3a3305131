export const MASTER_KEY_BYTES = 32;

export class MasterKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MasterKeyError';
  }
}

/**
 * Decodes a master key written as hex (64 characters) or base64 / base64url (44 or 43 characters)
 * and insists on exactly 32 bytes. Error messages describe the rule, never the value.
 */
export function parseMasterKey(encoded: string): Buffer {
  const text = encoded.trim();
  if (text.length === 0) throw new MasterKeyError('must not be empty');
  if (/^[0-9a-fA-F]+$/.test(text) && text.length === MASTER_KEY_BYTES * 2) {
    return Buffer.from(text, 'hex');
  }
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) {
    const normalized = text.replace(/-/g, '+').replace(/_/g, '/');
    const decoded = Buffer.from(normalized, 'base64');
    // Buffer.from silently drops bad characters; re-encoding proves the input was canonical base64.
    const canonical = decoded.toString('base64').replace(/=+$/, '');
    if (canonical === normalized.replace(/=+$/, '') && decoded.length === MASTER_KEY_BYTES) {
      return decoded;
    }
  }
  throw new MasterKeyError(`must decode to exactly ${MASTER_KEY_BYTES} bytes (64 hex characters or base64)`);
}
