import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { BEARER_SCHEME } from '../openapi';
import { SettingsService } from '../settings/settings.service';
import { SignTask, TASK_LIMITS } from '../sign-tasks/sign-task.types';
import { scheduleRuleProblems } from '../sign-tasks/task-validation';
import { InvalidTaskException } from '../sign-tasks/sign-tasks.service';
import { scheduleOf, upcomingRuns } from './sign-scheduler.service';
import { ValidationFailed } from '../common/panel-error';

export const SCHEDULE_PREVIEW_LIMITS = { count: { min: 1, max: 20, default: 5 } } as const;

/** The schedule fields of a task (as in SignTaskInputDto), for POST /api/sign-tasks/schedule-preview. */
export class SchedulePreviewRequestDto {
  @ApiProperty({ enum: ['fixed', 'range'], description: 'listen tasks have no schedule' })
  @IsIn(['fixed', 'range'], { message: 'execution_mode must be fixed or range (listen tasks have no schedule)' })
  execution_mode!: 'fixed' | 'range';

  @ApiPropertyOptional({ example: '0 8 * * *', description: 'fixed mode: 5- or 6-field cron, or HH:MM[:SS]' })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  sign_at?: string;

  @ApiPropertyOptional({ example: '08:00', description: 'range mode: HH:MM[:SS]' }) @IsOptional() @IsString() @MaxLength(8) range_start?: string;
  @ApiPropertyOptional({ example: '09:30', description: 'range mode: HH:MM[:SS]' }) @IsOptional() @IsString() @MaxLength(8) range_end?: string;

  @ApiPropertyOptional({ default: 0, minimum: 0, maximum: TASK_LIMITS.randomSeconds.max })
  @IsOptional()
  @IsInt()
  @Min(TASK_LIMITS.randomSeconds.min)
  @Max(TASK_LIMITS.randomSeconds.max)
  random_seconds?: number;

  @ApiPropertyOptional({ default: SCHEDULE_PREVIEW_LIMITS.count.default, minimum: SCHEDULE_PREVIEW_LIMITS.count.min, maximum: SCHEDULE_PREVIEW_LIMITS.count.max })
  @IsOptional()
  @IsInt()
  @Min(SCHEDULE_PREVIEW_LIMITS.count.min)
  @Max(SCHEDULE_PREVIEW_LIMITS.count.max)
  count?: number;
}

export class UpcomingRunDto {
  @ApiProperty({ format: 'date-time', description: 'When the job fires (UTC)' }) fires_at!: string;
  @ApiProperty({ format: 'date-time', description: 'The latest the run may start after its random wait (random_seconds, or up to range_end); equals fires_at without one' })
  latest_start!: string;
}

export class SchedulePreviewDto {
  @ApiProperty({ example: 'Asia/Shanghai', description: 'The configured time zone the schedule is read in' }) time_zone!: string;
  @ApiProperty({ example: '0 0 8 * * *', description: 'The 6-field cron expression the scheduler registers' }) cron!: string;
  @ApiProperty({ type: [UpcomingRunDto] }) runs!: UpcomingRunDto[];
}

@ApiTags('sign-tasks')
@ApiBearerAuth(BEARER_SCHEME)
@ApiUnauthorizedResponse({ description: 'Missing or invalid access token' })
@Controller('api/sign-tasks')
export class SchedulePreviewController {
  constructor(private readonly settings: SettingsService) {}

  @Post('schedule-preview')
  @HttpCode(200)
  @ApiOperation({
    summary: 'The next run times of a schedule (unsaved), in the configured time zone',
    description: 'Computed with the scheduler\'s own code, and refused with the same 400 a task save gives for the same schedule fields.',
  })
  @ApiOkResponse({ type: SchedulePreviewDto })
  @ApiBadRequestResponse({ description: 'A schedule a task save would refuse (every problem is listed)' })
  preview(@Body() body: SchedulePreviewRequestDto): SchedulePreviewDto {
    const problems = scheduleRuleProblems(body);
    if (problems.length) throw new InvalidTaskException(problems);
    const timeZone = this.settings.getGlobal().timezone;
    const task = { ...body, random_seconds: body.random_seconds ?? 0 };
    const cron = scheduleOf(task as SignTask);
    // scheduleRuleProblems refuses every schedule scheduleOf cannot read; this guards the types.
    if (!cron) throw new ValidationFailed('the schedule has no run times');
    return { time_zone: timeZone, cron, runs: upcomingRuns(task, timeZone, body.count ?? SCHEDULE_PREVIEW_LIMITS.count.default) };
  }
}
