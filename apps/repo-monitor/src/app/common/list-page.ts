import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** `?page=&per_page=` of every console list: per_page default 20, at most 100. */
export class PageQueryDto {
  @ApiPropertyOptional({ minimum: 1, default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  page?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  per_page?: number;
}

export interface ListPage<T> {
  items: T[];
  page: number;
  per_page: number;
  total: number;
}

export function pageWindow(query: PageQueryDto): { page: number; perPage: number; skip: number } {
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
