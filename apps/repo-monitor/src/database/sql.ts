/**
 * Raw SQL written once for both drivers. Values are never spliced into the text: each `${value}` of
 * the `sql` tag becomes a parameter, numbered the way the driver wants (`?` on SQLite, `$n` on
 * PostgreSQL) only when the statement runs (DatabaseWork), so fragments compose freely.
 */
export type SqlParameter = string | number | boolean | Date | null;
export type SqlValue = SqlParameter | Sql | readonly SqlParameter[];
export type SqlDialect = 'sqlite' | 'postgres';

export class Sql {
  constructor(
    readonly strings: readonly string[],
    readonly values: readonly SqlValue[],
  ) {}
}

/** `sql\`... WHERE "id" = ${id}\``: a statement or a fragment. An array becomes a list of parameters (for IN). */
export function sql(strings: TemplateStringsArray, ...values: SqlValue[]): Sql {
  return new Sql([...strings], values);
}

/** Text taken as it is: keywords and identifiers chosen by the code, never input. */
export function rawSql(text: string): Sql {
  return new Sql([text], []);
}

/** Fragments one after another with `separator` (code, not input) between them, as in a multi-row VALUES. */
export function joinSql(parts: readonly Sql[], separator: string): Sql {
  if (parts.length === 0) throw new Error('nothing to join');
  return new Sql(['', ...parts.slice(1).map(() => separator), ''], parts);
}

/**
 * The text and parameters for `dialect`. A Date is passed as the UTC text TypeORM stores on that
 * driver, a boolean as 1/0 on SQLite (which has no boolean type).
 */
export function renderSql(statement: Sql, dialect: SqlDialect): { text: string; parameters: unknown[] } {
  const parameters: unknown[] = [];
  const bind = (value: SqlParameter): string => {
    parameters.push(parameterFor(value, dialect));
    return dialect === 'sqlite' ? '?' : `$${parameters.length}`;
  };
  const render = (part: Sql): string =>
    part.strings.reduce((text, piece, index) => {
      if (index === 0) return piece;
      const value = part.values[index - 1];
      if (value instanceof Sql) return text + render(value) + piece;
      if (Array.isArray(value)) {
        if (value.length === 0) throw new Error('an empty list cannot be rendered as SQL parameters');
        return text + value.map(bind).join(', ') + piece;
      }
      return text + bind(value as SqlParameter) + piece;
    }, '');
  return { text: render(statement), parameters };
}

function parameterFor(value: SqlParameter, dialect: SqlDialect): unknown {
  if (value instanceof Date) {
    const iso = value.toISOString();
    return dialect === 'sqlite' ? iso.replace('T', ' ').replace('Z', '') : iso;
  }
  if (typeof value === 'boolean' && dialect === 'sqlite') return value ? 1 : 0;
  return value;
}

/** A time as a raw query answers it (the inverse of parameterFor): a Date on PostgreSQL, UTC text without a zone on SQLite. */
export function storedTime(value: string | Date | null | undefined): Date | undefined {
  if (!value) return undefined;
  if (value instanceof Date) return value;
  const date = new Date(value.includes('T') || value.endsWith('Z') ? value : `${value.replace(' ', 'T')}Z`);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** A boolean as a raw query answers it: true/false on PostgreSQL, 1/0 on SQLite. */
export function storedBoolean(value: boolean | number | string | null | undefined): boolean {
  return value === true || value === 1 || value === '1' || value === 't';
}
