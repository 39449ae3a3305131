import { connect as connectTcp, isIP, type Socket } from 'node:net';
import { connect as connectTls, type TLSSocket } from 'node:tls';
import { Agent } from 'undici';

/** HTTPS_PROXY / NO_PROXY as the caller's configuration gives them. */
export interface OutboundProxy {
  /** `http://[user:password@]host:port` (or `https://` for a TLS connection to the proxy itself). */
  url: string;
  /** Comma- or space-separated: `host`, `.domain` / `*.domain` (suffix), `host:port`, or `*` for all. */
  noProxy?: string;
}

function defaultPort(protocol: string): number {
  return protocol === 'https:' ? 443 : 80;
}

/**
 * Whether a request to `target` goes through the proxy: not when NO_PROXY names its host (exactly,
 * or by a `.domain` / `*.domain` suffix, with the port when one is given) or is `*`. The same
 * rules as undici's EnvHttpProxyAgent, so webhooks and every other outbound call agree.
 */
export function proxyApplies(proxy: OutboundProxy | undefined, target: URL): boolean {
  if (!proxy?.url.trim()) return false;
  const hostname = target.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  const port = Number(target.port || defaultPort(target.protocol));
  for (const raw of (proxy.noProxy ?? '').split(/[,\s]+/)) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return false;
    const portMatch = /^(.*?)(?::(\d+))?$/.exec(entry.replace(/^\[(.*)\](:\d+)?$/, '$1$2'));
    const entryHost = portMatch?.[1] ?? entry;
    const entryPort = portMatch?.[2] ? Number(portMatch[2]) : undefined;
    if (entryPort !== undefined && entryPort !== port) continue;
    if (/^[.*]/.test(entryHost)) {
      if (hostname.endsWith(entryHost.replace(/^\*/, ''))) return false;
    } else if (hostname === entryHost) {
      return false;
    }
  }
  return true;
}

/** `host:port` as a CONNECT request names it (IPv6 in brackets). */
export function connectAuthority(host: string, port: number): string {
  return isIP(host) === 6 || host.includes(':') ? `[${host.replace(/^\[(.*)\]$/, '$1')}]:${port}` : `${host}:${port}`;
}

/** An `http://` proxy URL from its parts (credentials as given, not yet percent-encoded). */
export function httpProxyUrl(proxy: { host: string; port: number; username?: string; password?: string }): URL {
  const url = new URL(`http://${connectAuthority(proxy.host, proxy.port)}`);
  if (proxy.username !== undefined) url.username = encodeURIComponent(proxy.username);
  if (proxy.password !== undefined) url.password = encodeURIComponent(proxy.password);
  return url;
}

/** Percent-decoded proxy credentials; a malformed escape (`%zz`) is sent as written rather than throwing. */
function decodedOrRaw(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Opens a CONNECT tunnel through `proxy` to `target` (`host:port`, see connectAuthority); resolves
 * with the raw tunnel socket once the proxy answered 2xx. Any 2xx counts: RFC 9110 §9.3.6 says a
 * 2xx answer to CONNECT means the tunnel is established (proxies do send e.g. `HTTP/1.0 200` or
 * other 2xx codes, not only `HTTP/1.1 200 Connection established`).
 */
export function openProxyTunnel(proxy: URL, target: string, timeoutMs: number, proxyCa?: string | string[]): Promise<Socket> {
  return new Promise<Socket>((resolve, reject) => {
    const port = Number(proxy.port || defaultPort(proxy.protocol));
    const host = proxy.hostname.replace(/^\[(.*)\]$/, '$1');
    const socket: Socket =
      proxy.protocol === 'https:'
        ? connectTls({ host, port, servername: isIP(host) ? undefined : host, ...(proxyCa ? { ca: proxyCa } : {}) })
        : connectTcp({ host, port });
    const fail = (error: Error): void => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    const timer = setTimeout(() => fail(Object.assign(new Error('proxy CONNECT timed out'), { code: 'UND_ERR_CONNECT_TIMEOUT' })), timeoutMs);
    socket.once('error', fail);
    const lines = [`CONNECT ${target} HTTP/1.1`, `Host: ${target}`];
    if (proxy.username || proxy.password) {
      const credentials = `${decodedOrRaw(proxy.username)}:${decodedOrRaw(proxy.password)}`;
      lines.push(`Proxy-Authorization: Basic ${Buffer.from(credentials).toString('base64')}`);
    }
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    let received = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) {
        if (received.length > 16 * 1024) fail(new Error('proxy answered CONNECT with an oversized header'));
        return;
      }
      socket.off('data', onData);
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(received.subarray(0, end).toString('latin1'))?.[1] ?? 0);
      if (status < 200 || status > 299) {
        fail(Object.assign(new Error(`proxy refused CONNECT to ${target} (HTTP ${status || 'malformed'})`), { code: 'ECONNREFUSED' }));
        return;
      }
      clearTimeout(timer);
      socket.off('error', fail);
      const rest = received.subarray(end + 4);
      if (rest.length > 0) socket.unshift(rest);
      resolve(socket);
    };
    socket.on('data', onData);
  });
}

export interface TunnelledAgentOptions {
  /** The host name of the URL: TLS SNI and certificate name (the Host header comes from the URL). */
  servername: string;
  connectTimeoutMs?: number;
  /** Extra CA certificates for the target (and an https proxy). */
  trustedCa?: string | string[];
}

/**
 * An undici dispatcher for one vetted target behind a proxy: every connection is a CONNECT tunnel
 * to `address` (the IP the caller resolved and checked, never a name the proxy would resolve again),
 * then TLS with the URL's host name as SNI and certificate name for https.
 */
export function proxyTunnelAgent(proxy: URL, address: { address: string }, options: TunnelledAgentOptions): Agent {
  const timeoutMs = options.connectTimeoutMs ?? 10_000;
  return new Agent({
    connect: (connectOptions, callback) => {
      const port = Number(connectOptions.port || defaultPort(connectOptions.protocol));
      openProxyTunnel(proxy, connectAuthority(address.address, port), timeoutMs, options.trustedCa).then(
        (tunnel) => {
          if (connectOptions.protocol !== 'https:') {
            callback(null, tunnel);
            return;
          }
          const secure: TLSSocket = connectTls({
            socket: tunnel,
            host: options.servername,
            ...(isIP(options.servername) ? {} : { servername: options.servername }),
            ALPNProtocols: ['http/1.1'],
            ...(options.trustedCa ? { ca: options.trustedCa } : {}),
          });
          const onError = (error: Error): void => {
            secure.destroy();
            callback(error, null);
          };
          secure.once('error', onError);
          secure.once('secureConnect', () => {
            secure.off('error', onError);
            callback(null, secure);
          });
        },
        (error: Error) => callback(error, null),
      );
    },
  });
}
