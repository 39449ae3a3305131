import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { PUSH_CHANNELS } from '../../sign-tasks/sign-task.types';

export const HIT_GROUP_KEYS = ['task', 'account', 'chat'] as const;
export type HitGroupKey = (typeof HIT_GROUP_KEYS)[number];

/** The filters every keyword-hits route shares (list, groups, export, delete). */
export class KeywordHitFilterDto {
  @ApiPropertyOptional({ description: 'Account name (exact)' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  account?: string;

  @ApiPropertyOptional({ description: 'Task name (exact)' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  task?: string;

  @ApiPropertyOptional({ description: 'Chat id (exact), e.g. -1001234567890' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  chat?: string;

  @ApiPropertyOptional({ description: 'Hits at or after this time (ISO 8601)', example: '2025-01-01T00:00:00Z' })
  @IsOptional()
  @IsISO8601({ strict: true })
  since?: string;

  @ApiPropertyOptional({ description: 'Hits before this time (ISO 8601)', example: '2025-02-01T00:00:00Z' })
  @IsOptional()
  @IsISO8601({ strict: true })
  until?: string;

  @ApiPropertyOptional({ description: 'Text search in the message, matched keyword, sender and chat title' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  q?: string;
}

export class KeywordHitListQueryDto extends KeywordHitFilterDto {
  @ApiPropertyOptional({ default: 50, minimum: 1, maximum: 500 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(500)
  limit?: number;

  @ApiPropertyOptional({ default: 0, minimum: 0, maximum: 100_000_000, description: 'Offset paging, kept for older clients; prefer `cursor` (not both)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(100_000_000)
  offset?: number;

  @ApiPropertyOptional({ description: 'Keyset paging: `next_cursor` of the previous page; the page starts right after its last hit', maxLength: 64 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  cursor?: string;
}

export class KeywordHitGroupQueryDto extends KeywordHitFilterDto {
  @ApiProperty({ enum: HIT_GROUP_KEYS })
  @IsIn(HIT_GROUP_KEYS, { message: `group_by must be one of ${HIT_GROUP_KEYS.join(', ')}` })
  group_by!: HitGroupKey;

  @ApiPropertyOptional({ default: 100, minimum: 1, maximum: 1000, description: 'Groups per page' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;

  @ApiPropertyOptional({ description: '`next_cursor` of the previous page of groups; the page starts right after its last group', maxLength: 64 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  cursor?: string;
}

export class KeywordHitDto {
  @ApiProperty() id!: number;
  @ApiProperty() account_name!: string;
  @ApiProperty() task_name!: string;
  @ApiProperty() chat_id!: string;
  @ApiProperty({ nullable: true, type: String }) chat_title!: string | null;
  @ApiProperty({ nullable: true, type: Number }) message_thread_id!: number | null;
  @ApiProperty({ nullable: true, type: String }) sender_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) sender_name!: string | null;
  @ApiProperty({ nullable: true, type: String }) sender_username!: string | null;
  @ApiProperty() message_id!: number;
  @ApiProperty() text!: string;
  @ApiProperty() matched_keyword!: string;
  @ApiProperty({ nullable: true, type: String }) url!: string | null;
  @ApiProperty({ description: 'When the message was sent (UTC, ISO 8601)' }) hit_at!: string;
  @ApiProperty({ enum: PUSH_CHANNELS }) push_channel!: string;
  @ApiProperty({ enum: ['pending', 'sent', 'failed', 'skipped'] }) push_status!: string;
  @ApiProperty({ nullable: true, type: String }) push_error!: string | null;
  @ApiProperty() created_at!: string;
}

export class KeywordHitPageDto {
  @ApiProperty({ type: [KeywordHitDto], description: 'Newest first (hit_at, then id)' }) items!: KeywordHitDto[];
  @ApiProperty({
    description:
      'Hits matching the filters: exact up to 10,000, with `q` up to 1,000; when `total_capped` is true at least this many match (show "10,000+" or "1,000+"): 10,000, with `q` 1,000, or, for a `q` of one or two characters, the matches among the newest 20,000 hits of the other filters',
    maximum: 10_000,
  })
  total!: number;
  @ApiProperty({ description: 'True when `total` is a lower bound: more than 10,000 hits match (with `q`: more than 1,000), or a one- or two-character `q` was counted over the newest 20,000 hits only' }) total_capped!: boolean;
  @ApiProperty() limit!: number;
  @ApiProperty({ description: 'The offset asked for (0 with a cursor)' }) offset!: number;
  @ApiProperty({ nullable: true, type: String, description: 'Pass as `cursor` for the next page; null on the last page' }) next_cursor!: string | null;
}

export class KeywordHitGroupDto {
  @ApiProperty({ description: 'The task name, account name or chat id' }) key!: string;
  @ApiProperty({ nullable: true, type: String, description: 'Chat title (group_by=chat)' }) title!: string | null;
  @ApiProperty() count!: number;
  @ApiProperty({ type: KeywordHitDto }) latest_hit!: KeywordHitDto;
}

export class KeywordHitGroupsDto {
  @ApiProperty({ enum: HIT_GROUP_KEYS }) group_by!: HitGroupKey;
  @ApiProperty({ type: [KeywordHitGroupDto], description: 'One page of groups, the one with the latest hit first (by that hit\'s hit_at, then id)' }) groups!: KeywordHitGroupDto[];
  @ApiProperty({ description: 'How many groups match the filters (exact; the same on every page)' }) total!: number;
  @ApiProperty({ type: Number, description: 'The page size used' }) limit!: number;
  @ApiProperty({ nullable: true, type: String, description: 'Pass as `cursor` for the next page of groups; null on the last page' }) next_cursor!: string | null;
}

export class KeywordHitDeleteResultDto {
  @ApiProperty() deleted!: number;
}
