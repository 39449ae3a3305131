/** One field of an imported item that has no equivalent here, and what happens to it. */
export interface UnmappedField {
  field: string;
  note: string;
}

/**
 * What happened to the fields of one imported item, so nothing is dropped in silence: every field
 * taken (with its new name or form), every default filled in, every field without an equivalent.
 */
export class ItemReport {
  readonly mapped: string[] = [];
  readonly defaults: string[] = [];
  readonly unmapped: UnmappedField[] = [];
  readonly warnings: string[] = [];
  readonly problems: string[] = [];

  map(from: string, to?: string): void {
    this.mapped.push(to === undefined || to === from ? from : `${from} → ${to}`);
  }

  fill(field: string, value: unknown, why: string): void {
    this.defaults.push(`${field} = ${JSON.stringify(value)} (${why})`);
  }

  drop(field: string, note: string): void {
    this.unmapped.push({ field, note });
  }

  warn(message: string): void {
    this.warnings.push(message);
  }

  problem(message: string): void {
    this.problems.push(message);
  }

  /** Everything of `other` under this report (a merged or split item). */
  absorb(other: ItemReport, prefix = ''): void {
    const at = (text: string) => (prefix ? `${prefix}${text}` : text);
    this.mapped.push(...other.mapped.map(at));
    this.defaults.push(...other.defaults.map(at));
    this.unmapped.push(...other.unmapped.map((entry) => ({ field: at(entry.field), note: entry.note })));
    this.warnings.push(...other.warnings.map(at));
    this.problems.push(...other.problems.map(at));
  }
}

export type Json = Record<string, unknown>;

export function isJsonObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A whole number given as a number or as the string the panel users migrate from writes (`"5"`). */
export function wholeNumber(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) {
    const parsed = Number(value.trim());
    return Number.isSafeInteger(parsed) ? parsed : undefined;
  }
  return undefined;
}

/**
 * A chat reference in the form this panel stores: numeric ids (also given as strings) as numbers,
 * `@name` and `me` as they are, a bare username (tg-signer matches it against the chat's username)
 * with its `@`. Undefined when it is none of these.
 */
export function chatRef(value: unknown): number | string | undefined {
  const number = wholeNumber(value);
  if (number !== undefined) return number;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (text === 'me' || text === 'self') return 'me';
  if (/^@[A-Za-z][A-Za-z0-9_]{3,31}$/.test(text)) return text;
  if (/^[A-Za-z][A-Za-z0-9_]{3,31}$/.test(text)) return `@${text}`;
  return undefined;
}
