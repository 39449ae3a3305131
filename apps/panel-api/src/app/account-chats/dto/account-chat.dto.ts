import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export const ACCOUNT_CHAT_KINDS = ['user', 'group', 'channel', 'forum'] as const;

export class AccountChatsQueryDto {
  @ApiPropertyOptional({ description: 'Only chats whose title or username contains this (case-insensitive)', maxLength: 64, example: 'check-in' })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @MaxLength(64)
  q?: string;

  @ApiPropertyOptional({ description: 'At most this many chats in the answer', minimum: 1, maximum: 100, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;
}

export class AccountChatDto {
  @ApiProperty({ description: 'The chat id a task uses: a user id, "-…" for a basic group, "-100…" for a channel or supergroup', example: '-1001234567890' })
  id!: string;
  @ApiProperty({ example: 'Daily check-in' }) title!: string;
  @ApiProperty({ enum: ACCOUNT_CHAT_KINDS, description: 'forum: a supergroup with topics (a task may name a topic id)' })
  kind!: (typeof ACCOUNT_CHAT_KINDS)[number];
  @ApiPropertyOptional({ description: 'Public @username, without the @' }) username?: string;
}

export class AccountChatListDto {
  @ApiProperty() account_name!: string;
  @ApiProperty({ type: [AccountChatDto], description: "Newest dialogs first, from the account's most recent dialogs only" })
  chats!: AccountChatDto[];
  @ApiProperty({ description: 'More chats matched than the answer holds, or the dialog list was cut at its bound: narrow the search' })
  truncated!: boolean;
}
