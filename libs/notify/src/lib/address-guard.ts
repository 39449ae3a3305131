import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Why an address is not a public internet address. */
export type AddressClass =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'cgnat'
  | 'link_local'
  | 'metadata'
  | 'unique_local'
  | 'multicast'
  | 'reserved'
  | 'documentation';

interface Range {
  network: string;
  prefix: number;
  type: 'ipv4' | 'ipv6';
  kind: Exclude<AddressClass, 'public'>;
}

// Order matters: the first matching range names the class (metadata before link-local and ULA).
const RANGES: Range[] = [
  { network: '169.254.169.254', prefix: 32, type: 'ipv4', kind: 'metadata' },
  { network: '100.100.100.200', prefix: 32, type: 'ipv4', kind: 'metadata' },
  { network: '0.0.0.0', prefix: 8, type: 'ipv4', kind: 'unspecified' },
  { network: '127.0.0.0', prefix: 8, type: 'ipv4', kind: 'loopback' },
  { network: '10.0.0.0', prefix: 8, type: 'ipv4', kind: 'private' },
  { network: '172.16.0.0', prefix: 12, type: 'ipv4', kind: 'private' },
  { network: '192.168.0.0', prefix: 16, type: 'ipv4', kind: 'private' },
  { network: '100.64.0.0', prefix: 10, type: 'ipv4', kind: 'cgnat' },
  { network: '169.254.0.0', prefix: 16, type: 'ipv4', kind: 'link_local' },
  { network: '192.0.0.0', prefix: 24, type: 'ipv4', kind: 'reserved' },
  { network: '192.0.2.0', prefix: 24, type: 'ipv4', kind: 'documentation' },
  { network: '198.18.0.0', prefix: 15, type: 'ipv4', kind: 'reserved' },
  { network: '198.51.100.0', prefix: 24, type: 'ipv4', kind: 'documentation' },
  { network: '203.0.113.0', prefix: 24, type: 'ipv4', kind: 'documentation' },
  { network: '224.0.0.0', prefix: 4, type: 'ipv4', kind: 'multicast' },
  { network: '240.0.0.0', prefix: 4, type: 'ipv4', kind: 'reserved' },
  { network: 'fd00:ec2::254', prefix: 128, type: 'ipv6', kind: 'metadata' },
  { network: '::', prefix: 128, type: 'ipv6', kind: 'unspecified' },
  { network: '::1', prefix: 128, type: 'ipv6', kind: 'loopback' },
  { network: 'fc00::', prefix: 7, type: 'ipv6', kind: 'unique_local' },
  { network: 'fe80::', prefix: 10, type: 'ipv6', kind: 'link_local' },
  { network: 'fec0::', prefix: 10, type: 'ipv6', kind: 'reserved' },
  { network: 'ff00::', prefix: 8, type: 'ipv6', kind: 'multicast' },
  { network: '2001:db8::', prefix: 32, type: 'ipv6', kind: 'documentation' },
  { network: '100::', prefix: 64, type: 'ipv6', kind: 'reserved' },
];

const LISTS = RANGES.map((range) => {
  const list = new BlockList();
  list.addSubnet(range.network, range.prefix, range.type);
  return { list, range };
});

/** The IPv4 address an IPv6 address carries (mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`). */
function embeddedIpv4(address: string): string | undefined {
  const groups = expandIpv6(address);
  if (!groups) return undefined;
  const toV4 = (high: number, low: number): string => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  const zeros = (from: number, to: number): boolean => groups.slice(from, to).every((group) => group === 0);
  if (zeros(0, 5) && groups[5] === 0xffff) return toV4(groups[6] as number, groups[7] as number);
  if (zeros(0, 6) && (groups[6] !== 0 || (groups[7] as number) > 1)) return toV4(groups[6] as number, groups[7] as number); // deprecated IPv4-compatible
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6)) return toV4(groups[6] as number, groups[7] as number);
  if (groups[0] === 0x2002) return toV4(groups[1] as number, groups[2] as number);
  return undefined;
}

function expandIpv6(address: string): number[] | undefined {
  let text = address.toLowerCase().split('%')[0] as string;
  const v4Tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4Tail) {
    const octets = (v4Tail[1] as string).split('.').map(Number);
    text = text.slice(0, -(v4Tail[1] as string).length) + `${(((octets[0] as number) << 8) | (octets[1] as number)).toString(16)}:${(((octets[2] as number) << 8) | (octets[3] as number)).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const fill = tail === undefined ? 0 : 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...Array<string>(Math.max(0, fill)).fill('0'), ...tailGroups].map((group) => parseInt(group || '0', 16));
  return groups.length === 8 && groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : undefined;
}

/** Classifies an IP address literal; anything that is not `public` is refused as a webhook target. */
export function classifyAddress(address: string): AddressClass {
  const family = isIP(address.split('%')[0] as string);
  if (family === 0) throw new TypeError(`not an IP address: ${address}`);
  if (family === 6) {
    const embedded = embeddedIpv4(address);
    if (embedded) return classifyAddress(embedded);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const plain = address.split('%')[0] as string;
  for (const { list, range } of LISTS) {
    if (range.type === type && list.check(plain, type)) return range.kind;
  }
  return 'public';
}

export function isPublicAddress(address: string): boolean {
  return classifyAddress(address) === 'public';
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (the default resolver of {@link resolveTarget}). */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = async (hostname) => {
  const results = await lookup(hostname, { all: true, verbatim: true });
  return results.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
};

export type TargetCheck =
  | { ok: true; url: URL; hostname: string; address: ResolvedAddress }
  | { ok: false; reason: 'invalid_url' | 'private_target_refused' | 'dns_failed'; message: string };

/**
 * Validates a webhook URL and resolves its host once. Every resolved address must be public
 * (unless `allowPrivate`); the vetted address is returned so the caller connects to exactly it.
 */
/**
 * What a plain `http:` URL may reach: `allow` anything the address rules allow (the default),
 * `private_only` only private, loopback or link-local receivers (a local receiver on a trusted
 * network), `refuse` nothing (HTTPS only, like `requireHttps`).
 */
export type PlainHttpRule = 'allow' | 'private_only' | 'refuse';

export async function resolveTarget(
  rawUrl: string,
  options: { allowPrivate?: boolean; resolver?: HostResolver; requireHttps?: boolean; plainHttp?: PlainHttpRule } = {},
): Promise<TargetCheck> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return { ok: false, reason: 'invalid_url', message: 'the URL cannot be parsed' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: 'invalid_url', message: `unsupported scheme ${url.protocol}` };
  const plainHttp: PlainHttpRule = options.requireHttps ? 'refuse' : (options.plainHttp ?? 'allow');
  if (plainHttp === 'refuse' && url.protocol !== 'https:') return { ok: false, reason: 'invalid_url', message: 'the URL must use https' };
  if (url.username || url.password) return { ok: false, reason: 'invalid_url', message: 'credentials in the URL are not allowed' };
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: ResolvedAddress[];
  if (isIP(hostname)) addresses = [{ address: hostname, family: isIP(hostname) === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await (options.resolver ?? systemResolver)(hostname);
    } catch (error) {
      const code = error && typeof error === 'object' && 'code' in error ? String(error.code) : 'lookup failed';
      return { ok: false, reason: 'dns_failed', message: `host could not be resolved (${code})` };
    }
    if (addresses.length === 0) return { ok: false, reason: 'dns_failed', message: 'host resolved to no address' };
  }
  if (!options.allowPrivate) {
    for (const entry of addresses) {
      const kind = classifyAddress(entry.address);
      if (kind !== 'public') return { ok: false, reason: 'private_target_refused', message: `target resolves to a ${kind.replace('_', '-')} address` };
    }
  }
  if (plainHttp === 'private_only' && url.protocol === 'http:' && addresses.some((entry) => classifyAddress(entry.address) === 'public')) {
    return { ok: false, reason: 'invalid_url', message: 'plain http is allowed only to a private or loopback receiver; use https' };
  }
  return { ok: true, url, hostname, address: addresses[0] as ResolvedAddress };
}
