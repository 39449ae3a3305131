/** Typed reads from untyped webhook JSON: a wrong or missing field gives undefined, never a throw. */
export class PayloadReader {
  constructor(readonly value: unknown) {}

  static of(value: unknown): PayloadReader {
    return new PayloadReader(value);
  }

  get(key: string): PayloadReader {
    const value = this.value && typeof this.value === 'object' && !Array.isArray(this.value) ? (this.value as Record<string, unknown>)[key] : undefined;
    return new PayloadReader(value);
  }

  path(...keys: string[]): PayloadReader {
    return keys.reduce<PayloadReader>((reader, key) => reader.get(key), this);
  }

  get exists(): boolean {
    return this.value !== undefined && this.value !== null;
  }

  string(): string | undefined {
    return typeof this.value === 'string' ? this.value : undefined;
  }

  number(): number | undefined {
    return typeof this.value === 'number' && Number.isFinite(this.value) ? this.value : undefined;
  }

  boolean(): boolean | undefined {
    return typeof this.value === 'boolean' ? this.value : undefined;
  }

  date(): Date | undefined {
    const text = this.string();
    if (!text) return undefined;
    const date = new Date(text);
    return Number.isNaN(date.getTime()) ? undefined : date;
  }

  list(): PayloadReader[] {
    return Array.isArray(this.value) ? this.value.map((item) => new PayloadReader(item)) : [];
  }
}

/** Cuts text to a column's length. */
export function clip(text: string | undefined | null, length: number): string {
  if (!text) return '';
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}
