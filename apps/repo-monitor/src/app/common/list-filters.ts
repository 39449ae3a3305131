import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsISO8601, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';

/** The longest text search a list accepts. */
export const MAX_SEARCH_LENGTH = 200;

/**
 * `?q=`: a case-insensitive substring search, trimmed, 1 to MAX_SEARCH_LENGTH characters. `%`, `_`
 * and `\` are matched literally (see containsPattern).
 */
export function SearchText(description: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ description, minLength: 1, maxLength: MAX_SEARCH_LENGTH }),
    IsOptional(),
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value)),
    IsString(),
    MinLength(1, { message: 'q must not be blank' }),
    MaxLength(MAX_SEARCH_LENGTH),
  );
}

/** `?since=` / `?until=`: an ISO 8601 date-time with its offset (`2026-11-20T00:00:00Z`). */
export function QueryDateTime(description: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ description, type: String, format: 'date-time' }),
    IsOptional(),
    IsString(),
    MaxLength(40),
    Matches(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/, {
      message: '$property must be an ISO 8601 date-time with an offset, like 2026-11-20T00:00:00Z',
    }),
    IsISO8601({ strict: true }, { message: '$property is not a real date and time' }),
  );
}

/** A LIKE pattern matching `text` anywhere, with the wildcard characters escaped (use with ESCAPE '\'). */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/**
 * Narrows `query` to rows where any of `columns` (SQL expressions of the query's alias) contains
 * `text`, ignoring case. The same SQL on SQLite and PostgreSQL; SQLite's LOWER folds ASCII only.
 */
export function whereContains<T extends ObjectLiteral>(query: SelectQueryBuilder<T>, columns: string[], text: string | undefined): SelectQueryBuilder<T> {
  if (!text) return query;
  const condition = columns.map((column) => `LOWER(${column}) LIKE :search ESCAPE '\\'`).join(' OR ');
  return query.andWhere(`(${condition})`, { search: containsPattern(text) });
}
