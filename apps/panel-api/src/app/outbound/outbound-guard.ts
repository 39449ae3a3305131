import { classifyAddress } from '@shared/notify';
import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { Agent as HttpAgent, AgentOptions } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { isIP, Socket } from 'node:net';

/** Why an outbound request was not made; the message names what to change. */
export class OutboundRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundRefusedError';
  }
}

/** The refusal for an address that is not public, or undefined when it may be reached. */
export function privateAddressRefusal(host: string, address: string, allowPrivate: boolean): string | undefined {
  if (allowPrivate) return undefined;
  const kind = classifyAddress(address);
  if (kind === 'public') return undefined;
  return `${host} is a ${kind.replace('_', '-')} address (${address}); outbound requests to non-public addresses are off: set APP_OUTBOUND_ALLOW_PRIVATE=1 if this server is yours`;
}

type CreateConnection = (options: object, callback: (error: Error | null, socket?: Socket) => void) => Socket | undefined;

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup that fails when any address of the host is not public (unless allowed), checked on the address connected to. */
function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      for (const entry of addresses) {
        const refusal = privateAddressRefusal(hostname, entry.address, allowPrivate);
        if (refusal) return callback(Object.assign(new OutboundRefusedError(refusal), { code: 'EPRIVATE' }), []);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}

function defaultPort(protocol: string): string {
  return protocol === 'https:' ? '443' : '80';
}

/**
 * HTTP(S) agents for a client that sends credentials to `saved` (the WebDAV client): they connect
 * only to the saved origin — a redirect elsewhere (another host, another port, https to http)
 * fails with a clear error instead of carrying the password there — and only to public addresses
 * unless `allowPrivate`.
 */
export function originBoundAgents(saved: string, allowPrivate: boolean): { httpAgent: HttpAgent; httpsAgent: HttpsAgent } {
  const origin = new URL(saved);
  const savedHost = origin.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  const savedPort = origin.port || defaultPort(origin.protocol);
  const lookup = guardedLookup(allowPrivate);
  const check = (protocol: string, options: { host?: string | null; hostname?: string | null; port?: number | string | null }): Error | undefined => {
    const host = String(options.hostname ?? options.host ?? '').replace(/^\[(.*)\]$/, '$1').toLowerCase();
    const port = String(options.port ?? defaultPort(protocol));
    if (protocol !== origin.protocol || host !== savedHost || port !== savedPort) {
      return new OutboundRefusedError(
        `the server redirected to ${protocol}//${host.includes(':') ? `[${host}]` : host}:${port}, another server than the saved ${origin.origin}; ` +
          'the credentials are not sent there: save the final URL instead',
      );
    }
    if (isIP(host)) {
      const refusal = privateAddressRefusal(host, host, allowPrivate);
      if (refusal) return new OutboundRefusedError(refusal);
    }
    return undefined;
  };
  const bound = <T extends typeof HttpAgent | typeof HttpsAgent>(Base: T, protocol: string): InstanceType<T> => {
    const agentOptions = { keepAlive: false, lookup } as AgentOptions;
    const agent = new (Base as typeof HttpAgent)(agentOptions);
    const connectable = agent as unknown as { createConnection: CreateConnection };
    const create = connectable.createConnection.bind(agent);
    connectable.createConnection = (options, callback) => {
      const refused = check(protocol, options as { host?: string; port?: number });
      if (refused) {
        process.nextTick(() => callback(refused));
        return undefined;
      }
      return create(options, callback);
    };
    return agent as InstanceType<T>;
  };
  return { httpAgent: bound(HttpAgent, 'http:'), httpsAgent: bound(HttpsAgent, 'https:') };
}
