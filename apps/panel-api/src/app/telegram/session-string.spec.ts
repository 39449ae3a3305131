import { randomBytes } from 'node:crypto';
import { StringSession } from 'telegram/sessions';
import { encodeSessionString, parseSessionString, SessionParts } from './session-string';

/** What GramJS itself reads from a string session (the reference the local decoder must match). */
function gramJsParse(text: string): SessionParts {
  const session = new StringSession(text);
  return { dcId: session.dcId, serverAddress: session.serverAddress, port: session.port, authKey: session._key as Buffer };
}

function raw(parts: Buffer[]): string {
  return `1${Buffer.concat(parts).toString('base64')}`;
}

function int16(value: number): Buffer {
  const buffer = Buffer.alloc(2);
  buffer.writeInt16BE(value, 0);
  return buffer;
}

describe('parseSessionString', () => {
  it('round-trips what encodeSessionString writes, exactly as GramJS reads it', () => {
    for (const [dcId, serverAddress, port] of [
      [2, '149.154.167.51', 443],
      [4, '149.154.167.91', 80],
      [5, 'dc5.example.test', 8443],
    ] as const) {
      const parts = { dcId, serverAddress, port, authKey: randomBytes(256) };
      const text = encodeSessionString(parts);
      expect(parseSessionString(text)).toEqual(parts);
      expect(parseSessionString(text)).toEqual(gramJsParse(text));
      expect(new StringSession(text).save()).toBe('');
    }
  });

  it('reads Telethon sessions with a 4-byte IPv4 address like GramJS', () => {
    const text = raw([Buffer.from([2]), Buffer.from([149, 154, 167, 51]), int16(443), randomBytes(256)]);
    expect(text.length - 1).toBe(352);
    expect(parseSessionString(text)).toEqual({ ...gramJsParse(text), serverAddress: '149.154.167.51' });
  });

  it('reads 16-byte IPv6 addresses like GramJS', () => {
    const address = Buffer.from('2001067c04e8f00400000000000000a', 'hex');
    const full = Buffer.concat([address, Buffer.alloc(16 - address.length)]);
    const text = raw([Buffer.from([1]), full, int16(443), randomBytes(256)]);
    const parsed = parseSessionString(text);
    expect(parsed).toEqual(gramJsParse(text));
    expect(parsed?.serverAddress).toContain(':');
  });

  it('accepts surrounding white space and refuses what is not a session', () => {
    const text = encodeSessionString({ dcId: 2, serverAddress: '149.154.167.51', port: 443, authKey: randomBytes(256) });
    expect(parseSessionString(`  ${text}\n`)?.dcId).toBe(2);
    expect(parseSessionString('')).toBeNull();
    expect(parseSessionString(`2${text.slice(1)}`)).toBeNull();
    expect(parseSessionString('1' + 'A'.repeat(400))).toBeNull();
    // A key that is not 256 bytes, a port of 0, a truncated body.
    expect(parseSessionString(raw([Buffer.from([2]), int16(14), Buffer.from('149.154.167.51'), int16(443), randomBytes(255)]))).toBeNull();
    expect(parseSessionString(raw([Buffer.from([2]), int16(14), Buffer.from('149.154.167.51'), int16(0), randomBytes(256)]))).toBeNull();
    expect(parseSessionString(raw([Buffer.from([2]), int16(900), randomBytes(300)]).slice(0, 340))).toBeNull();
  });
});
