import { isIP } from 'node:net';

/** Expands an IPv6 address to its eight 16-bit groups, or undefined when it is not one. */
function ipv6Groups(address: string): number[] | undefined {
  let text = address;
  const tail: number[] = [];
  // An embedded IPv4 tail (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) becomes two groups.
  const dotted = /^(.*:)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (dotted) {
    const octets = dotted[2].split('.').map(Number);
    tail.push((octets[0] << 8) | octets[1], (octets[2] << 8) | octets[3]);
    text = `${dotted[1]}0`;
  }
  const [head, rest] = text.split('::');
  const parse = (part: string | undefined): number[] => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const left = parse(head);
  const right = parse(rest);
  if (tail.length > 0) right.splice(right.length - 1, 1, ...tail);
  const missing = 8 - left.length - right.length;
  if (rest === undefined ? missing !== 0 : missing < 0) return undefined;
  return [...left, ...new Array<number>(rest === undefined ? 0 : missing).fill(0), ...right];
}

/**
 * The key a per-address limit counts under: an IPv4 address as it is (IPv4-mapped IPv6 included),
 * an IPv6 address by its /64 network, since one subscriber is usually given a whole /64 and could
 * otherwise take a fresh address (and a fresh budget) for every attempt.
 */
export function addressGroup(address: string): string {
  const plain = address.trim().replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(plain);
  if (mapped) return mapped[1];
  if (isIP(plain) !== 6) return plain;
  const groups = ipv6Groups(plain.toLowerCase());
  if (!groups) return plain;
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
