import type { HttpServerLimits, TrustProxySetting } from '@shared/config';
import type { Server } from 'node:http';
import { BlockList, isIP, type Socket } from 'node:net';

/** How often Node checks open connections against the header and request times. */
export const CONNECTION_CHECK_INTERVAL_MS = 1000;

/** Counts of what the limits turned away since start (for logs and tests). */
export interface ConnectionLimitStats {
  /** Open connections now. */
  open: number;
  /** Connections closed on accept because their address already held its share. */
  refusedPerAddress: number;
}

/** Addresses a per-address cap does not apply to: the trusted proxies (everyone's traffic arrives from them). */
function exemptPeers(trustProxy: TrustProxySetting): ((address: string) => boolean) | 'all' {
  // A hop count trusts whatever peer connects: every peer is taken to be the proxy (docs/reverse-proxy.md),
  // so counting per peer would cap the proxy, not a client. The proxy caps its clients instead.
  if (typeof trustProxy === 'number') return 'all';
  if (trustProxy === false) return () => false;
  const list = new BlockList();
  for (const item of trustProxy) {
    const [address, prefix] = item.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return (address) => {
    const plain = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
    return list.check(plain, isIP(plain) === 6 ? 'ipv6' : 'ipv4');
  };
}

/**
 * Bounds a server's request times and its connections. Excess connections (over the total, or over
 * one address's share) are closed as they are accepted, before a byte of them is parsed; the total
 * is Node's own `maxConnections`, which closes the handle without making a socket object.
 * Event streams are not affected: their request is complete once its headers are in, and the
 * stream's own keep-alive and expiry rules bound it.
 */
export function applyConnectionLimits(server: Server, limits: HttpServerLimits, trustProxy: TrustProxySetting): () => ConnectionLimitStats {
  server.requestTimeout = limits.requestTimeoutMs;
  server.headersTimeout = limits.headersTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.maxConnections = limits.maxConnections;
  const stats: ConnectionLimitStats = { open: 0, refusedPerAddress: 0 };
  const perAddress = new Map<string, number>();
  const exempt = limits.maxConnectionsPerAddress > 0 ? exemptPeers(trustProxy) : 'all';
  server.on('connection', (socket: Socket) => {
    stats.open += 1;
    socket.once('close', () => (stats.open -= 1));
    const address = socket.remoteAddress;
    if (exempt === 'all' || address === undefined || exempt(address)) return;
    const held = perAddress.get(address) ?? 0;
    if (held >= limits.maxConnectionsPerAddress) {
      stats.refusedPerAddress += 1;
      socket.destroy();
      return;
    }
    perAddress.set(address, held + 1);
    socket.once('close', () => {
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    });
  });
  return () => ({ ...stats });
}
