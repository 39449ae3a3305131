import { isIP } from 'node:net';

/** 127.0.0.0/8, ::1 and IPv4-mapped loopback. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.replace(/^\[|\]$/g, '').replace(/^::ffff:/i, '');
  if (isIP(plain) === 4) return plain.startsWith('127.');
  return plain === '::1' || plain === '0:0:0:0:0:0:0:1';
}

/** Whether a Host header names this machine's loopback (`localhost`, 127.x, [::1]), with any port. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  let hostname: string;
  try {
    hostname = new URL(`http://${host}`).hostname;
  } catch {
    return false;
  }
  hostname = hostname.toLowerCase();
  return hostname === 'localhost' || hostname.endsWith('.localhost') || isLoopbackAddress(hostname);
}

/** The parts of a Fastify request the loopback client check reads. */
export interface ClientAddresses {
  /** Fastify's client address: from X-Forwarded-For only when the socket peer is a trusted proxy (MONITOR_HTTP_TRUST_PROXY). */
  ip: string;
  raw: { socket: { remoteAddress?: string } };
}

/**
 * Whether a request comes from this machine: the socket peer must be loopback, and when the peer is
 * a trusted proxy (Fastify then takes `ip` from X-Forwarded-For) the forwarded client must be
 * loopback too. A forged X-Forwarded-For from a remote peer never counts, whatever the trust setting.
 */
export function isLoopbackClient(request: ClientAddresses): boolean {
  const peer = request.raw.socket.remoteAddress;
  return isLoopbackAddress(peer) && isLoopbackAddress(request.ip || peer);
}
