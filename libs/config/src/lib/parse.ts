const DURATION_UNITS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/** Parses Go-style durations (`30s`, `1h30m`, `500ms`, `7d`) to milliseconds; undefined when invalid. */
export function parseDuration(text: string): number | undefined {
  const value = text.trim();
  if (!/^(\d+(\.\d+)?(ms|s|m|h|d))+$/.test(value)) return undefined;
  let total = 0;
  for (const match of value.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)) {
    total += Number(match[1]) * DURATION_UNITS[match[2]];
  }
  return Math.round(total);
}

const TRUE_WORDS = new Set(['1', 'true', 'yes', 'on']);
const FALSE_WORDS = new Set(['0', 'false', 'no', 'off']);

/** Parses the usual spellings of a boolean flag; undefined when the text is none of them. */
export function parseBooleanFlag(text: string | boolean | undefined): boolean | undefined {
  if (typeof text === 'boolean') return text;
  if (text === undefined) return undefined;
  const word = text.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return undefined;
}

/** Splits `host:port` (IPv6 in brackets); undefined when the shape or the port is wrong. */
export function parseHostPort(text: string): { host: string; port: number } | undefined {
  // The host is required (":8080" is refused): the spec wants the listen address spelled out.
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(text.trim());
  if (!match) return undefined;
  const port = Number(match[2]);
  if (port < 0 || port > 65535) return undefined;
  return { host: match[1].replace(/^\[|\]$/g, ''), port };
}
