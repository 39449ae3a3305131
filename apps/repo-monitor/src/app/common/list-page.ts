import { applyDecorators, ParseIntPipe, PipeTransform } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { MonitorError } from './monitor-error';

/** The largest row id both drivers store (PostgreSQL `integer`). */
export const MAX_ROW_ID = 2_147_483_647;
/** The last page a list may ask for (with 100 a page, ten million rows in). */
export const MAX_PAGE = 100_000;
export const MAX_PER_PAGE = 100;

/**
 * A whole number from the query string: only plain decimal digits are read (no `1e3`, `0x10`,
 * signs or blanks), anything else becomes NaN and fails IsInt. Bounded, so no value reaches SQL
 * that the database cannot hold.
 */
export function QueryInteger(options: { min: number; max: number; description?: string; default?: number }): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: 'integer', minimum: options.min, maximum: options.max, description: options.description, default: options.default }),
    IsOptional(),
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : typeof value === 'number' ? value : NaN)),
    IsInt(),
    Min(options.min),
    Max(options.max),
  );
}

/** `?page=&per_page=` of every console list: per_page default 20, at most 100; page at most MAX_PAGE. */
export class PageQueryDto {
  @QueryInteger({ min: 1, max: MAX_PAGE, default: 1 })
  page?: number;

  @QueryInteger({ min: 1, max: MAX_PER_PAGE, default: 20 })
  per_page?: number;
}

/**
 * A row id in a path: a whole number from 1 to MAX_ROW_ID, else 400 validation_failed. (The global
 * ValidationPipe may already have turned the text into a number.)
 */
export class RowIdPipe implements PipeTransform<string | number, Promise<number>> {
  private readonly integer = new ParseIntPipe({ exceptionFactory: () => RowIdPipe.invalid() });

  async transform(raw: string | number): Promise<number> {
    const value = String(raw);
    if (!/^\d{1,10}$/.test(value)) throw RowIdPipe.invalid();
    const id = await this.integer.transform(value, { type: 'param' });
    if (id < 1 || id > MAX_ROW_ID) throw RowIdPipe.invalid();
    return id;
  }

  private static invalid(): MonitorError {
    return new MonitorError('validation_failed', `id must be a whole number from 1 to ${MAX_ROW_ID}`, { field: 'id' });
  }
}

export interface ListPage<T> {
  items: T[];
  page: number;
  per_page: number;
  total: number;
}

/** Which rows of a list a request wants. */
export interface PageWindow {
  page: number;
  perPage: number;
  skip: number;
}

/** What a repository answers for a page: its rows and how many match in all. */
export interface FoundRows<T> {
  rows: T[];
  total: number;
}

export function pageWindow(query: PageQueryDto): PageWindow {
  const page = query.page ?? 1;
  const perPage = query.per_page ?? 20;
  return { page, perPage, skip: (page - 1) * perPage };
}

export function listPage<T>(items: T[], total: number, window: { page: number; perPage: number }): ListPage<T> {
  return { items, page: window.page, per_page: window.perPage, total };
}

/** Swagger shape of a list answer; subclasses narrow `items`. */
export class ListPageDto {
  @ApiProperty() page!: number;
  @ApiProperty() per_page!: number;
  @ApiProperty() total!: number;
}
