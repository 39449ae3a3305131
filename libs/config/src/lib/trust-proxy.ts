import { isIP } from 'node:net';
import { ValidateBy, ValidationOptions, buildMessage } from 'class-validator';

/**
 * Which peers may set X-Forwarded-For, in the shapes Fastify's `trustProxy` accepts: `false`
 * (none), a hop count (trust that many proxies nearest to the service) or a list of proxy
 * IPs/CIDRs. Fastify then walks X-Forwarded-For from the right and takes the first address that is
 * not a trusted proxy, so a client cannot choose its address by writing the header itself.
 * Fastify's "trust every hop" (`true`) is never produced: it takes the left-most, client-written
 * entry.
 */
export type TrustProxySetting = false | number | string[];

export const TRUST_PROXY_FORMS = '`true`, `false`, a hop count (0-32) or a comma-separated list of proxy IP addresses/CIDR ranges';

const MAX_HOPS = 32;

function isAddressOrCidr(item: string): boolean {
  const slash = item.indexOf('/');
  if (slash < 0) return isIP(item) !== 0;
  const address = item.slice(0, slash);
  const prefix = item.slice(slash + 1);
  const family = isIP(address);
  if (family === 0 || !/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * `true` / `false`, a hop count, or comma-separated IPs/CIDRs; undefined when the text is none of
 * these. A number is always a hop count (`1` trusts the one proxy in front, not every hop); `0` is
 * the same as `false`. `true` means one proxy (`1`): the address that proxy appended, never one a
 * client wrote further left.
 */
export function parseTrustProxy(text: string): TrustProxySetting | undefined {
  const trimmed = text.trim();
  const word = trimmed.toLowerCase();
  if (word === 'true') return 1;
  if (word === 'false' || word === '') return false;
  if (/^\d+$/.test(trimmed)) {
    const hops = Number(trimmed);
    if (hops > MAX_HOPS) return undefined;
    return hops === 0 ? false : hops;
  }
  const items = trimmed.split(',').map((item) => item.trim());
  if (items.some((item) => item === '' || !isAddressOrCidr(item))) return undefined;
  return items;
}

/** Validates a trust-proxy value as `parseTrustProxy` reads it. */
export function IsTrustProxy(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isTrustProxy',
      validator: {
        validate: (value) => typeof value === 'string' && parseTrustProxy(value) !== undefined,
        defaultMessage: buildMessage((each) => `${each}$property must be ${TRUST_PROXY_FORMS.replace(/`/g, '')}`, options),
      },
    },
    options,
  );
}
