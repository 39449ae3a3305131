import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, ValidateNested } from 'class-validator';
import { OptionalNotNull } from '../../common/optional-not-null';

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export class WeeklyReportDto {
  @ApiProperty({ default: false }) @OptionalNotNull() @IsBoolean() enabled?: boolean;
  @ApiProperty({ enum: WEEKDAYS, default: 'monday' }) @OptionalNotNull() @IsIn(WEEKDAYS) weekday?: Weekday;
}

export class MonthlyReportDto {
  @ApiProperty({ default: false }) @OptionalNotNull() @IsBoolean() enabled?: boolean;
  @ApiProperty({ default: 1, minimum: 1, maximum: 28 }) @OptionalNotNull() @IsInt() @Min(1) @Max(28) day?: number;
}

export class RetentionDto {
  @ApiProperty({ default: 90, minimum: 1, maximum: 3650 }) @OptionalNotNull() @IsInt() @Min(1) @Max(3650) events_days?: number;
  @ApiProperty({ default: 30, minimum: 1, maximum: 3650 }) @OptionalNotNull() @IsInt() @Min(1) @Max(3650) outbox_days?: number;
  @ApiProperty({ default: 30, minimum: 1, maximum: 3650 }) @OptionalNotNull() @IsInt() @Min(1) @Max(3650) deliveries_days?: number;
}

export class AggregationDto {
  @ApiProperty({ default: 60, minimum: 0, maximum: 3600, description: 'Short merge window; 0 turns merging off' })
  @OptionalNotNull()
  @IsInt()
  @Min(0)
  @Max(3600)
  window_seconds?: number;

  @ApiProperty({ default: 15, minimum: 1, maximum: 10000 }) @OptionalNotNull() @IsInt() @Min(1) @Max(10000) burst_threshold?: number;

  @ApiProperty({ default: 300, minimum: 1, maximum: 86400 }) @OptionalNotNull() @IsInt() @Min(1) @Max(86400) burst_window_seconds?: number;
}

/** Partial update: fields and nested fields left out stay as they are; null is refused except for starred_username (null turns it off). */
export class UpdateSystemSettingsDto {
  @ApiPropertyOptional({ example: 'Europe/Berlin', description: 'IANA time zone' })
  @OptionalNotNull()
  @IsString()
  time_zone?: string;

  @ApiPropertyOptional({ example: '09:00', description: 'Local time of the daily digest (HH:MM)' })
  @OptionalNotNull()
  @Matches(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'digest_time must be HH:MM (00:00-23:59)' })
  digest_time?: string;

  @ApiPropertyOptional({ type: WeeklyReportDto }) @OptionalNotNull() @ValidateNested() @Type(() => WeeklyReportDto) weekly_report?: WeeklyReportDto;
  @ApiPropertyOptional({ type: MonthlyReportDto }) @OptionalNotNull() @ValidateNested() @Type(() => MonthlyReportDto) monthly_report?: MonthlyReportDto;
  @ApiPropertyOptional({ type: RetentionDto }) @OptionalNotNull() @ValidateNested() @Type(() => RetentionDto) retention?: RetentionDto;
  @ApiPropertyOptional({ type: AggregationDto }) @OptionalNotNull() @ValidateNested() @Type(() => AggregationDto) aggregation?: AggregationDto;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'octocat', description: 'GitHub user whose starred repositories get release summaries; null turns it off' })
  @IsOptional()
  @Matches(/^[A-Za-z0-9-]{1,39}$/, { message: 'starred_username must be a GitHub user name' })
  starred_username?: string | null;
}

export class SystemSettingsDto {
  @ApiProperty() time_zone!: string;
  @ApiProperty() digest_time!: string;
  @ApiProperty({ type: WeeklyReportDto }) weekly_report!: Required<WeeklyReportDto>;
  @ApiProperty({ type: MonthlyReportDto }) monthly_report!: Required<MonthlyReportDto>;
  @ApiProperty({ type: RetentionDto }) retention!: Required<RetentionDto>;
  @ApiProperty({ type: AggregationDto }) aggregation!: Required<AggregationDto>;
  @ApiProperty({ nullable: true, type: String }) starred_username!: string | null;
}
