import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { FAILURE_CATEGORIES, RUN_MESSAGE_CODES } from '../../common/run-outcomes';
import { HistoryEntryDto } from '../../runs/dto/run.dto';
import { RUN_VERDICTS } from '../../common/verdict';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export class RunListQueryDto {
  @ApiPropertyOptional({ description: 'Account name' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  account?: string;

  @ApiPropertyOptional({ description: 'Task name' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  task?: string;

  @ApiPropertyOptional({ enum: ['success', 'failure'] })
  @IsOptional()
  @IsIn(['success', 'failure'])
  status?: 'success' | 'failure';

  @ApiPropertyOptional({ enum: FAILURE_CATEGORIES })
  @IsOptional()
  @IsIn(FAILURE_CATEGORIES)
  failure_category?: string;

  @ApiPropertyOptional({ enum: RUN_VERDICTS, description: "What the bot's answer said (runs of tasks with verdict patterns)" })
  @IsOptional()
  @IsIn(RUN_VERDICTS)
  verdict?: string;

  @ApiPropertyOptional({ description: 'First day (YYYY-MM-DD) in the configured time zone, inclusive', example: '2026-11-01' })
  @IsOptional()
  @Matches(DAY, { message: 'since must be a day (YYYY-MM-DD)' })
  since?: string;

  @ApiPropertyOptional({ description: 'Last day (YYYY-MM-DD) in the configured time zone, inclusive', example: '2026-11-23' })
  @IsOptional()
  @Matches(DAY, { message: 'until must be a day (YYYY-MM-DD)' })
  until?: string;

  @ApiPropertyOptional({ default: 50, minimum: 1, maximum: 200 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  limit?: number;

  @ApiPropertyOptional({ default: 0, minimum: 0, maximum: 100000 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(100000)
  offset?: number;
}

export class RunListItemDto {
  @ApiProperty() run_id!: string;
  @ApiProperty() task_name!: string;
  @ApiProperty() account_name!: string;
  @ApiProperty() trigger!: string;
  @ApiProperty({ enum: ['finished', 'cancelled', 'timeout'] }) state!: string;
  @ApiProperty() success!: boolean;
  @ApiProperty() failure_category!: string;
  @ApiProperty() message!: string;
  @ApiProperty({ nullable: true, enum: RUN_MESSAGE_CODES, description: 'The sentence of the catalogue (@shared/panel-texts runMessage) when the runner or a named error wrote the message: say it in the reader\'s language, with `message` as the detail; null for a bot\'s answer or an uncoded error text' })
  message_code!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, description: 'The values the sentence of `message_code` names (empty without a code)', example: { seconds: '37' } })
  message_params!: Record<string, string>;
  @ApiProperty() attempts!: number;
  @ApiProperty({ nullable: true, enum: RUN_VERDICTS, description: "What the bot's answer said (tasks with verdict patterns); null when the task declares none" }) verdict!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The answer that decided the verdict (one line, at most 500 characters)' }) verdict_text!: string | null;
  @ApiProperty({ format: 'date-time', description: 'When the run was recorded (its end)' }) created_at!: string;
}

export class RunListDto {
  @ApiProperty({ type: [RunListItemDto] }) items!: RunListItemDto[];
  @ApiProperty({ description: 'Runs matching the filter' }) total!: number;
  @ApiProperty() limit!: number;
  @ApiProperty() offset!: number;
  @ApiProperty({ description: 'The time zone the day filters were read in (settings.timezone)', example: 'Asia/Shanghai' }) time_zone!: string;
}

export class RunDetailDto extends HistoryEntryDto {}

export class DashboardQueryDto {
  @ApiPropertyOptional({ default: 14, minimum: 1, maximum: 90, description: 'Days in the per-day series, today included' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(90)
  days?: number;
}

export class DayCountDto {
  @ApiProperty({ example: '2026-11-23', description: 'Day in the configured time zone' }) day!: string;
  @ApiProperty() success!: number;
  @ApiProperty() failure!: number;
  @ApiProperty({ description: 'Of the successes: the bot said the check-in was already done' }) already_done!: number;
  @ApiProperty({ description: 'Of the failures: the bot did not confirm (no answer, or no pattern matched)' }) unconfirmed!: number;
  @ApiProperty() keyword_hits!: number;
}

export class CategoryCountDto {
  @ApiProperty({ enum: FAILURE_CATEGORIES }) category!: string;
  @ApiProperty() count!: number;
}

export class DashboardStatsDto {
  @ApiProperty({ example: 'Asia/Shanghai' }) time_zone!: string;
  @ApiProperty({ example: '2026-11-23', description: 'Today in the configured time zone' }) today!: string;
  @ApiProperty({ description: 'Successful runs today' }) today_success!: number;
  @ApiProperty({ description: 'Failed runs today' }) today_failure!: number;
  @ApiProperty({ description: 'Runs today the bot answered were already done (counted in today_success)' }) today_already_done!: number;
  @ApiProperty({ description: 'Runs today the bot did not confirm (counted in today_failure)' }) today_unconfirmed!: number;
  @ApiProperty({ description: 'Keyword hits today' }) today_keyword_hits!: number;
  @ApiProperty({ type: [DayCountDto], description: 'Oldest first, today last' }) days!: DayCountDto[];
  @ApiProperty({ type: [CategoryCountDto], description: 'Failed runs of the whole series by category, most first' }) failure_categories!: CategoryCountDto[];
}
