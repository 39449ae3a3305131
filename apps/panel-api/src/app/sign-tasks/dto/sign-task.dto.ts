import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  registerDecorator,
  ValidateNested,
  ValidationArguments,
} from 'class-validator';
import {
  ActionNumber,
  ChatId,
  ExecutionMode,
  MATCH_MODES,
  MatchMode,
  PUSH_CHANNELS,
  PushChannel,
  TASK_LIMITS,
} from '../sign-task.types';
import { VERDICT_LIMITS, VERDICT_PATTERN_MODES, VerdictPatternMode } from '../../common/verdict';

/** A numeric id, an @username, or `me` (the account's Saved Messages, as tg-signer writes it). */
const CHAT_ID_PATTERN = /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,31}|me)$/;
const DELAY_RANGE_PATTERN = /^(\d+(?:\.\d+)?)\s*-\s*(\d+(?:\.\d+)?)$/;

export function isChatId(value: unknown): value is ChatId {
  if (typeof value === 'number') return Number.isSafeInteger(value);
  return typeof value === 'string' && CHAT_ID_PATTERN.test(value.trim());
}

/** A delay is seconds (0..3600) or a random range `"a-b"` with a <= b <= 3600. */
export function isDelay(value: unknown): value is number | string {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 && value <= TASK_LIMITS.delaySeconds.max;
  if (typeof value !== 'string') return false;
  const trimmed = value.trim();
  if (/^\d+(?:\.\d+)?$/.test(trimmed)) return Number(trimmed) <= TASK_LIMITS.delaySeconds.max;
  const range = DELAY_RANGE_PATTERN.exec(trimmed);
  if (!range) return false;
  const [low, high] = [Number(range[1]), Number(range[2])];
  return low <= high && high <= TASK_LIMITS.delaySeconds.max;
}

function IsChatIdValue(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isChatId',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown) => isChatId(value),
        defaultMessage: (args?: ValidationArguments) => `${args?.property} must be a numeric chat id or an @username`,
      },
    });
}

function IsDelayValue(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isDelay',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown) => isDelay(value),
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property} must be seconds (0-${TASK_LIMITS.delaySeconds.max}) or a range "a-b" with a <= b`,
      },
    });
}

function IsUserIdList(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isUserIdList',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown) =>
          Array.isArray(value) && value.every((id) => (typeof id === 'number' && Number.isSafeInteger(id)) || (typeof id === 'string' && /^-?\d{1,20}$/.test(id.trim()))),
        defaultMessage: (args?: ValidationArguments) => `${args?.property} must be a list of numeric user ids`,
      },
    });
}

export class VerdictPatternDto {
  @ApiProperty({ enum: VERDICT_PATTERN_MODES, description: 'contains: the answer contains the text (any case); regex: an RE2 expression (any case)' })
  @IsIn(VERDICT_PATTERN_MODES)
  mode!: VerdictPatternMode;

  @ApiProperty({ example: '签到成功' })
  @IsString()
  @MinLength(1)
  @MaxLength(VERDICT_LIMITS.patternLength)
  pattern!: string;
}

export class ChatVerdictDto {
  @ApiPropertyOptional({ type: [VerdictPatternDto], example: [{ mode: 'contains', pattern: '签到成功' }] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(VERDICT_LIMITS.patterns)
  @ValidateNested({ each: true })
  @Type(() => VerdictPatternDto)
  success?: VerdictPatternDto[];

  @ApiPropertyOptional({ type: [VerdictPatternDto], example: [{ mode: 'contains', pattern: '今日已签' }] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(VERDICT_LIMITS.patterns)
  @ValidateNested({ each: true })
  @Type(() => VerdictPatternDto)
  already_done?: VerdictPatternDto[];

  @ApiPropertyOptional({ type: [VerdictPatternDto], example: [{ mode: 'regex', pattern: '失败|error' }] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(VERDICT_LIMITS.patterns)
  @ValidateNested({ each: true })
  @Type(() => VerdictPatternDto)
  failure?: VerdictPatternDto[];

  @ApiPropertyOptional({ default: VERDICT_LIMITS.timeoutSeconds.default, minimum: VERDICT_LIMITS.timeoutSeconds.min, maximum: VERDICT_LIMITS.timeoutSeconds.max })
  @IsOptional()
  @IsInt()
  @Min(VERDICT_LIMITS.timeoutSeconds.min)
  @Max(VERDICT_LIMITS.timeoutSeconds.max)
  timeout_seconds?: number;

  @ApiPropertyOptional({ example: '@checkin_bot', description: 'In a group: whose messages count besides replies to ours (a user id or @username)' })
  @IsOptional()
  @IsString()
  @Matches(/^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,31})$/, { message: 'from must be a numeric user id or an @username' })
  from?: string;

  @ApiPropertyOptional({ description: 'Ask the configured model to classify an answer no pattern matched' })
  @IsOptional()
  @IsBoolean()
  ai_fallback?: boolean;

  @ApiPropertyOptional({ default: true, description: 'An answer that names a wait runs the task once more after it (at most once a day)' })
  @IsOptional()
  @IsBoolean()
  rerun_after_wait?: boolean;
}

const chatIdSchema = { oneOf: [{ type: 'integer' }, { type: 'string', example: '@checkin_bot' }] };

export class TaskActionDto {
  @ApiProperty({ enum: [1, 2, 3, 4, 5, 6, 7, 8, 9], description: '1 text, 2 dice, 3 click button, 4-7 AI, 8 keyword listen, 9 follow deep link (listen follow-up)' })
  @IsInt()
  @IsIn([1, 2, 3, 4, 5, 6, 7, 8, 9], { message: 'action must be one of 1-9' })
  action!: ActionNumber;

  @ApiPropertyOptional({ oneOf: [{ type: 'number' }, { type: 'string', example: '3-10' }], description: 'Seconds before the step, or a random range "a-b"' })
  @IsOptional()
  @IsDelayValue()
  delay?: number | string;

  @ApiPropertyOptional({ description: 'Action 1: text to send; action 3: button text to click' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(TASK_LIMITS.textLength)
  text?: string;

  @ApiPropertyOptional({ description: 'Action 1 as a listen follow-up: send the first capture group of this expression in the hit message (else text)' })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  send_text_search_regex?: string;

  @ApiPropertyOptional({ description: "Action 1 as a listen follow-up: send the model's reply to the hit message (ai_prompt = its instructions)" })
  @IsOptional()
  @IsBoolean()
  ai_reply?: boolean;

  @ApiPropertyOptional({ example: '🎲' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(16)
  dice?: string;

  @ApiPropertyOptional({ description: 'Actions 4-7: extra instructions for the model' })
  @IsOptional()
  @IsString()
  @MaxLength(TASK_LIMITS.textLength)
  ai_prompt?: string;

  @ApiPropertyOptional({ description: "Actions 3 and 7: press the button on the bot's reply to the chat's previous action (reply-to mode)" })
  @IsOptional()
  @IsBoolean()
  from_reply?: boolean;

  @ApiPropertyOptional({ minimum: 0, maximum: TASK_LIMITS.ruleCooldown.max, description: 'Action 8: seconds after a hit during which the rule ignores further hits' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(TASK_LIMITS.ruleCooldown.max)
  cooldown?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: 1, description: 'Action 8: chance that a hit is acted on (1 = always)' })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1)
  probability?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: TASK_LIMITS.maxDaily.max, description: 'Action 8: at most this many hits acted on per day' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(TASK_LIMITS.maxDaily.max)
  max_daily?: number;

  @ApiPropertyOptional({ type: [String], description: 'Action 8: user ids whose messages never trigger the rule' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(TASK_LIMITS.excludeUserIds)
  @IsUserIdList()
  exclude_user_ids?: Array<number | string>;

  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(TASK_LIMITS.keywords)
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @MaxLength(512, { each: true })
  keywords?: string[];

  @ApiPropertyOptional({ enum: MATCH_MODES })
  @IsOptional()
  @IsIn(MATCH_MODES)
  match_mode?: MatchMode;

  @ApiPropertyOptional({ default: true }) @IsOptional() @IsBoolean() ignore_case?: boolean;
  @ApiPropertyOptional({ default: true }) @IsOptional() @IsBoolean() ignore_self?: boolean;

  @ApiPropertyOptional({ description: 'Only these senders (ids, @usernames, names, or me for the account itself; comma separated)' })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  sender_filter?: string;

  @ApiPropertyOptional({ example: '08:00' }) @IsOptional() @IsString() active_time_start?: string;
  @ApiPropertyOptional({ example: '23:30' }) @IsOptional() @IsString() active_time_end?: string;

  @ApiPropertyOptional({ enum: PUSH_CHANNELS })
  @IsOptional()
  @IsIn(PUSH_CHANNELS)
  push_channel?: PushChannel;

  @ApiPropertyOptional(chatIdSchema) @IsOptional() @IsChatIdValue() forward_chat_id?: ChatId;
  @ApiPropertyOptional() @IsOptional() @IsInt() @Min(1) forward_message_thread_id?: number;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(2048) bark_url?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(2048) custom_url?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(256) server_chan_key?: string;
  @ApiPropertyOptional(chatIdSchema) @IsOptional() @IsChatIdValue() continue_chat_id?: ChatId;
  @ApiPropertyOptional() @IsOptional() @IsInt() @Min(1) continue_message_thread_id?: number;

  @ApiPropertyOptional({ type: 'array', items: { $ref: '#/components/schemas/TaskActionDto' }, description: 'push_channel continue: actions run in continue_chat_id' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(TASK_LIMITS.actionsPerChat)
  @ValidateNested({ each: true })
  @Type(() => TaskActionDto)
  continue_actions?: TaskActionDto[];

  @ApiPropertyOptional({ description: 'Seconds after which messages sent by the follow-ups are deleted (0 = at once)' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(TASK_LIMITS.deleteAfter.max)
  continue_delete_after?: number;

  @ApiPropertyOptional({ example: 'RedPacketBot', description: 'Action 9: the bot to start (default: the bot of a deep link in the message)' })
  @IsOptional()
  @IsString()
  @Matches(/^@?[A-Za-z][A-Za-z0-9_]{3,31}$/, { message: 'bot_username must be a Telegram bot username' })
  bot_username?: string;

  @ApiPropertyOptional({ example: '/start', description: 'Action 9: the command sent to the bot' })
  @IsOptional()
  @IsString()
  @Matches(/^\/?[A-Za-z0-9_]{1,64}$/, { message: 'command_prefix must be a bot command such as /start' })
  command_prefix?: string;

  @ApiPropertyOptional({ example: '{keyword}', description: 'Action 9: start argument (template) when the message has no deep link' })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  start_param?: string;

  @ApiPropertyOptional({ default: TASK_LIMITS.maxBatch.default, description: 'Action 9: at most this many bots started per hit' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(TASK_LIMITS.maxBatch.max)
  max_batch?: number;
}

export class TaskChatDto {
  @ApiProperty(chatIdSchema) @IsChatIdValue() chat_id!: ChatId;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(256) name?: string;
  @ApiPropertyOptional({ description: 'Forum topic' }) @IsOptional() @IsInt() @Min(1) message_thread_id?: number;
  @ApiPropertyOptional({ description: 'Seconds between actions' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(TASK_LIMITS.actionInterval.max)
  action_interval?: number;
  @ApiPropertyOptional({ description: 'Seconds after which sent messages are deleted' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(TASK_LIMITS.deleteAfter.max)
  delete_after?: number;

  @ApiProperty({ type: [TaskActionDto] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(TASK_LIMITS.actionsPerChat)
  @ValidateNested({ each: true })
  @Type(() => TaskActionDto)
  actions!: TaskActionDto[];

  @ApiPropertyOptional({ type: ChatVerdictDto, description: "How to read the bot's answer to the chat's last action" })
  @IsOptional()
  @ValidateNested()
  @Type(() => ChatVerdictDto)
  verdict?: ChatVerdictDto;
}

/** Body of POST /api/sign-tasks and PUT /api/sign-tasks/{name}; the rules across fields are in task-validation.ts. */
export class SignTaskInputDto {
  @ApiProperty({ example: 'daily-checkin', description: 'Any display name (emoji and punctuation allowed): 1-64 characters, no control characters, no leading or trailing spaces' })
  @IsString()
  name!: string;

  @ApiPropertyOptional({ example: 'main' }) @IsOptional() @IsString() account_name?: string;

  @ApiPropertyOptional({ type: [String], description: 'Several accounts; ["*"] = every account' })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(TASK_LIMITS.accounts)
  @IsString({ each: true })
  account_names?: string[];

  @ApiPropertyOptional({ example: '0 8 * * *', description: '5- or 6-field cron, or HH:MM[:SS]; required in fixed mode' })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  sign_at?: string;

  @ApiPropertyOptional({ default: 0 })
  @IsOptional()
  @IsInt()
  @Min(TASK_LIMITS.randomSeconds.min)
  @Max(TASK_LIMITS.randomSeconds.max)
  random_seconds?: number;

  @ApiPropertyOptional({ description: 'Seconds between the chats of one run' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(TASK_LIMITS.signInterval.max)
  sign_interval?: number;

  @ApiProperty({ enum: ['fixed', 'range', 'listen'] })
  @IsIn(['fixed', 'range', 'listen'])
  execution_mode!: ExecutionMode;

  @ApiPropertyOptional({ example: '08:00' }) @IsOptional() @IsString() range_start?: string;
  @ApiPropertyOptional({ example: '09:30' }) @IsOptional() @IsString() range_end?: string;
  @ApiPropertyOptional({ default: true }) @IsOptional() @IsBoolean() enabled?: boolean;

  @ApiPropertyOptional({ default: TASK_LIMITS.retryCount.default, minimum: 0, maximum: 99 })
  @IsOptional()
  @IsInt()
  @Min(TASK_LIMITS.retryCount.min)
  @Max(TASK_LIMITS.retryCount.max)
  retry_count?: number;

  @ApiPropertyOptional({ default: true }) @IsOptional() @IsBoolean() notify_on_failure?: boolean;
  @ApiPropertyOptional({ default: false }) @IsOptional() @IsBoolean() notify_on_success?: boolean;

  @ApiProperty({ type: [TaskChatDto] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(TASK_LIMITS.chats)
  @ValidateNested({ each: true })
  @Type(() => TaskChatDto)
  chats!: TaskChatDto[];
}

export class TaskLastRunDto {
  @ApiProperty({ format: 'date-time' }) at!: string;
  @ApiProperty() account_name!: string;
  @ApiProperty() success!: boolean;
  @ApiProperty() message!: string;
  @ApiProperty() failure_category!: string;
}

export class SignTaskDto extends SignTaskInputDto {
  @ApiProperty() declare random_seconds: number;
  @ApiProperty() declare enabled: boolean;
  @ApiProperty() declare retry_count: number;
  @ApiProperty() declare notify_on_failure: boolean;
  @ApiProperty() declare notify_on_success: boolean;
  @ApiProperty({ nullable: true, type: TaskLastRunDto }) last_run!: TaskLastRunDto | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class SignTaskListDto {
  @ApiProperty({ type: [SignTaskDto] }) tasks!: SignTaskDto[];
  @ApiProperty() total!: number;
}

export class SignTaskListQueryDto {
  @ApiPropertyOptional({ description: 'Only tasks that run for this account (including "*" tasks)' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  account?: string;

  @ApiPropertyOptional({ enum: ['true', 'false'] })
  @IsOptional()
  @IsIn(['true', 'false'])
  enabled?: 'true' | 'false';

  @ApiPropertyOptional({ enum: ['fixed', 'range', 'listen'] })
  @IsOptional()
  @IsIn(['fixed', 'range', 'listen'])
  execution_mode?: ExecutionMode;
}

export class CloneTaskDto {
  @ApiProperty({ example: 'daily-checkin-copy' }) @IsString() new_name!: string;
}

export class BatchTasksDto {
  @ApiProperty({ enum: ['enable', 'disable', 'delete', 'run'] })
  @IsIn(['enable', 'disable', 'delete', 'run'])
  action!: 'enable' | 'disable' | 'delete' | 'run';

  @ApiProperty({ type: [String], maxItems: 100 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsString({ each: true })
  names!: string[];
}

export class BatchItemResultDto {
  @ApiProperty() name!: string;
  @ApiProperty() ok!: boolean;
  @ApiProperty({ enum: ['done', 'not_found', 'invalid', 'failed', 'already_running'] }) result!: string;
  @ApiPropertyOptional() message?: string;
}

export class BatchResultDto {
  @ApiProperty() action!: string;
  @ApiProperty({ type: [BatchItemResultDto] }) results!: BatchItemResultDto[];
  @ApiProperty() succeeded!: number;
  @ApiProperty() failed!: number;
}
