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
 * not one. Reads the layout exactly as GramJS's StringSession does (session-string.spec.ts checks
 * the two agree) without loading GramJS, which builds its whole TL schema just to be required:
 * version "1", then base64 of dc id (1 byte), address, port (int16 BE) and the authorization key.
 * The address is 4 bytes of IPv4 in Telethon's 352-character form, else an int16 BE length and the
 * text, or 16 bytes of IPv6 when that length reads over 100.
 */
export function parseSessionString(text: string): SessionParts | null {
  const trimmed = text.trim();
  if (!/^1[A-Za-z0-9+/=_-]{300,}$/.test(trimmed)) return null;
  const body = trimmed.slice(1);
  const bytes = Buffer.from(body, 'base64');
  let offset = 0;
  const read = (length: number): Buffer => {
    if (offset + length > bytes.length) throw new RangeError('session string is too short');
    const part = bytes.subarray(offset, offset + length);
    offset += length;
    return part;
  };
  try {
    const dcId = read(1).readUInt8(0);
    let serverAddress: string;
    if (body.length === 352) {
      serverAddress = [...read(4)].join('.');
    } else {
      const addressLength = bytes.readInt16BE(offset);
      if (addressLength > 100) {
        serverAddress = ipv6Text(read(16));
      } else {
        offset += 2;
        serverAddress = read(addressLength).toString();
      }
    }
    const port = read(2).readInt16BE(0);
    const authKey = Buffer.from(bytes.subarray(offset));
    if (authKey.length !== AUTH_KEY_BYTES) return null;
    if (!dcId || !serverAddress || port <= 0) return null;
    return { dcId, serverAddress, port, authKey };
  } catch {
    return null;
  }
}

/** An IPv6 address as GramJS writes it (groups without leading zeros, runs of zero groups folded). */
function ipv6Text(address: Buffer): string {
  return (address.toString('hex').match(/.{1,4}/g) ?? [])
    .map((group) => group.replace(/^0+/, ''))
    .join(':')
    .replace(/0000:/g, ':')
    .replace(/:{2,}/g, '::');
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
