import { StringSession } from 'telegram/sessions';

/** The parts of a GramJS session: the data center and the 256-byte authorization key. */
export interface SessionParts {
  dcId: number;
  serverAddress: string;
  port: number;
  authKey: Buffer;
}

const AUTH_KEY_BYTES = 256;

/**
 * Decodes a GramJS (or Telethon) string session without contacting Telegram; null when the text is
 * not one. GramJS's own parser does the decoding so both sides agree on the format.
 */
export function parseSessionString(text: string): SessionParts | null {
  const trimmed = text.trim();
  if (!/^1[A-Za-z0-9+/=_-]{300,}$/.test(trimmed)) return null;
  try {
    const session = new StringSession(trimmed);
    const authKey = session._key;
    if (!authKey || authKey.length !== AUTH_KEY_BYTES) return null;
    if (!session.dcId || session.dcId < 1 || !session.serverAddress || !session.port || session.port <= 0) return null;
    return { dcId: session.dcId, serverAddress: session.serverAddress, port: session.port, authKey };
  } catch {
    return null;
  }
}

/** Encodes session parts in GramJS's string format (version "1", the same bytes StringSession.save writes). */
export function encodeSessionString(parts: SessionParts): string {
  const address = Buffer.from(parts.serverAddress);
  const addressLength = Buffer.alloc(2);
  addressLength.writeInt16BE(address.length, 0);
  const port = Buffer.alloc(2);
  port.writeInt16BE(parts.port, 0);
  return `1${Buffer.concat([Buffer.from([parts.dcId]), addressLength, address, port, parts.authKey]).toString('base64')}`;
}
