import { MonitorError } from './monitor-error';

/** The parts of a Fastify request that say where it was sent. */
export interface RequestTarget {
  /** `https` when the socket is TLS or a trusted proxy said so in X-Forwarded-Proto. */
  protocol: string;
  /** The Host header, or X-Forwarded-Host when the peer is a trusted proxy (Fastify decides). */
  host: string;
}

// A host name or IPv4 address, or a bracketed IPv6 address, with an optional port: nothing a
// client could use to smuggle text into a header or a URL.
const HOST_PATTERN = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/** Whether a Host value is a plain host[:port], safe to put into a URL or a header. */
export function isPlainHost(host: string | undefined): host is string {
  return typeof host === 'string' && HOST_PATTERN.test(host);
}

/**
 * `scheme://host[:port]` the request was sent to. Only `http` and `https` are taken from
 * X-Forwarded-Proto; a Host that is not a plain host[:port] is a 400, never copied into an answer.
 */
export function requestOrigin(request: RequestTarget): string {
  const protocol = request.protocol === 'https' ? 'https' : 'http';
  if (!isPlainHost(request.host)) throw new MonitorError('validation_failed', 'the Host header is not a valid host name');
  return new URL(`${protocol}://${request.host}`).origin;
}

/** A value for a quoted-string parameter of an HTTP header (RFC 9110 §5.6.4): `\` and `"` escaped. */
export function quotedString(value: string): string {
  // Control characters cannot appear in a header at all; drop them rather than fail the answer.
  const printable = [...value].filter((char) => char >= ' ' && char !== '\u007f').join('');
  return `"${printable.replace(/[\\"]/g, (char) => `\\${char}`)}"`;
}
