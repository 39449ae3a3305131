import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export class PageQueryDto {
  @ApiPropertyOptional({ default: 1, minimum: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  page?: number;

  @ApiPropertyOptional({ default: 20, minimum: 1, maximum: 100 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  per_page?: number;
}

export class AuditLogItemDto {
  @ApiProperty() id!: number;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty() actor!: string;
  @ApiProperty() action!: string;
  @ApiProperty({ nullable: true, type: String }) target!: string | null;
  @ApiProperty({ nullable: true, type: Object }) details!: Record<string, unknown> | null;
  @ApiProperty({ nullable: true, type: String }) client_ip!: string | null;
}

export class AuditLogPageDto {
  @ApiProperty({ type: [AuditLogItemDto] }) items!: AuditLogItemDto[];
  @ApiProperty() page!: number;
  @ApiProperty() per_page!: number;
  @ApiProperty() total!: number;
}
