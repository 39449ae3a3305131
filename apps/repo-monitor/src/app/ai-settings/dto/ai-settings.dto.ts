import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDuration } from '@shared/config';
import { IsBoolean, IsInt, IsOptional, IsString, IsUrl, Max, MaxLength, Min, MinLength } from 'class-validator';
import { OptionalNotNull } from '../../common/optional-not-null';
import { ParsesAsHttpUrl } from '../../common/http-url';

export const AI_FIELDS = [
  'enabled',
  'api_key',
  'base_url',
  'model',
  'timeout',
  'max_tokens',
  'retries',
  'digest_enabled',
  'triage_enabled',
  'release_summary_enabled',
  'code_review_enabled',
  'failure_analysis_enabled',
] as const;
export type AiField = (typeof AI_FIELDS)[number];

/** Fields left out stay as they are; `api_key: null` removes the stored key, null anywhere else is refused. Env-set fields are locked. */
export class UpdateAiSettingsDto {
  @ApiPropertyOptional() @OptionalNotNull() @IsBoolean() enabled?: boolean;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Stored encrypted, never returned (see api_key_set)' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  api_key?: string | null;

  @ApiPropertyOptional({ example: 'https://api.openai.com/v1', description: 'Any http(s) chat-completion-compatible endpoint' })
  @OptionalNotNull()
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false }, { message: 'base_url must be an http(s) URL' })
  @ParsesAsHttpUrl('base_url')
  @MaxLength(2048)
  base_url?: string;

  @ApiPropertyOptional({ example: 'gpt-4o-mini' }) @OptionalNotNull() @IsString() @MinLength(1) @MaxLength(200) model?: string;

  @ApiPropertyOptional({ example: '30s', description: 'Per-request timeout as a duration' })
  @OptionalNotNull()
  @IsDuration()
  timeout?: string;

  @ApiPropertyOptional({ example: 800 }) @OptionalNotNull() @IsInt() @Min(16) @Max(32000) max_tokens?: number;
  @ApiPropertyOptional({ example: 1 }) @OptionalNotNull() @IsInt() @Min(0) @Max(5) retries?: number;
  @ApiPropertyOptional() @OptionalNotNull() @IsBoolean() digest_enabled?: boolean;
  @ApiPropertyOptional() @OptionalNotNull() @IsBoolean() triage_enabled?: boolean;
  @ApiPropertyOptional() @OptionalNotNull() @IsBoolean() release_summary_enabled?: boolean;
  @ApiPropertyOptional() @OptionalNotNull() @IsBoolean() code_review_enabled?: boolean;
  @ApiPropertyOptional() @OptionalNotNull() @IsBoolean() failure_analysis_enabled?: boolean;
}

export class AiSettingsDto {
  @ApiProperty() enabled!: boolean;
  @ApiProperty() api_key_set!: boolean;
  @ApiProperty() base_url!: string;
  @ApiProperty() model!: string;
  @ApiProperty({ example: '30s' }) timeout!: string;
  @ApiProperty() max_tokens!: number;
  @ApiProperty() retries!: number;
  @ApiProperty() digest_enabled!: boolean;
  @ApiProperty() triage_enabled!: boolean;
  @ApiProperty() release_summary_enabled!: boolean;
  @ApiProperty() code_review_enabled!: boolean;
  @ApiProperty() failure_analysis_enabled!: boolean;
  @ApiProperty({ enum: AI_FIELDS, isArray: true, description: 'Fields set by environment; writes to them are 409 ai_field_locked' })
  locked_fields!: AiField[];
}
