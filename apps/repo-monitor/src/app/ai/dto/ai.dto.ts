import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDuration } from '@shared/config';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Max, MaxLength, Min, MinLength } from 'class-validator';
import { ListPageDto, PageQueryDto, MAX_ROW_ID, QueryInteger } from '../../common/list-page';
import { DIGEST_PERIODS, DigestEntity, DigestPeriod } from '../digest.entity';
import { OptionalNotNull } from '../../common/optional-not-null';
import { MERGE_RISKS } from '../pr-review.entity';
import { AI_TEST_FAILURE_KINDS, AiTestFailureKind } from '../ai-test-failure';
import { ParsesAsHttpUrl } from '../../common/http-url';

/** Unsaved form values for the connectivity test; a field set by environment may not be given (ai_field_locked). */
export class AiTestDto {
  @ApiPropertyOptional({ description: 'Unsaved API key to try; never stored' })
  @OptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  api_key?: string;

  @ApiPropertyOptional({ example: 'http://127.0.0.1:11434/v1' })
  @OptionalNotNull()
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false }, { message: 'base_url must be an http(s) URL' })
  @ParsesAsHttpUrl('base_url')
  @MaxLength(2048)
  base_url?: string;

  @ApiPropertyOptional({ example: 'gpt-4o-mini' }) @OptionalNotNull() @IsString() @MinLength(1) @MaxLength(200) model?: string;
  @ApiPropertyOptional({ example: '30s' }) @OptionalNotNull() @IsDuration() timeout?: string;
  @ApiPropertyOptional({ example: 800 }) @OptionalNotNull() @IsInt() @Min(16) @Max(32000) max_tokens?: number;
  @ApiPropertyOptional({ example: 1 }) @OptionalNotNull() @IsInt() @Min(0) @Max(5) retries?: number;
}

export class AiTestResultDto {
  @ApiProperty() ok!: boolean;
  @ApiProperty({ description: 'Milliseconds until the answer or the failure' }) elapsed_ms!: number;
  @ApiProperty() base_url!: string;
  @ApiProperty() model!: string;
  @ApiPropertyOptional({ description: 'The model reply (first 200 characters) when ok' }) reply?: string;
  @ApiPropertyOptional({ enum: ['not_configured', 'timeout', 'server_error', 'rate_limited', 'auth_failed', 'bad_request', 'connection_failed', 'malformed_response', 'empty_response'] })
  error_code?: string;
  @ApiPropertyOptional({ enum: AI_TEST_FAILURE_KINDS, description: 'When the call failed: what kind of failure (not set for not_configured, which sends nothing)' })
  kind?: AiTestFailureKind;
  @ApiPropertyOptional({ type: Number, nullable: true, description: 'When the call failed: the HTTP status the endpoint answered, null when it did not answer' })
  upstream_status?: number | null;
  @ApiPropertyOptional({ description: 'Why the test failed, in our own words (never the endpoint\u2019s answer)' }) message?: string;
}

export class PrReviewDto {
  @ApiProperty() id!: number;
  @ApiProperty({ example: 'acme/api' }) repository!: string;
  @ApiProperty() pr_number!: number;
  @ApiProperty() title!: string;
  @ApiProperty() html_url!: string;
  @ApiProperty() head_sha!: string;
  @ApiProperty({ enum: ['pending', 'running', 'completed', 'failed'] }) status!: string;
  @ApiProperty({ nullable: true, type: String }) summary!: string | null;
  @ApiProperty({ nullable: true, type: Number, minimum: 0, maximum: 100 }) score!: number | null;
  @ApiProperty({ nullable: true, enum: MERGE_RISKS }) merge_risk!: string | null;
  @ApiProperty({ type: [String] }) security_risks!: string[];
  @ApiProperty({ type: [String] }) breaking_risks!: string[];
  @ApiProperty({ type: [String] }) suggestions!: string[];
  @ApiProperty({ type: [String] }) missing_tests!: string[];
  @ApiProperty({ description: 'true when the diff was cut at 12,000 characters' }) diff_truncated!: boolean;
  @ApiProperty() diff_chars!: number;
  @ApiProperty({ description: 'An alert went out (security risks or score under 60)' }) alerted!: boolean;
  @ApiProperty({ nullable: true, type: Number }) comment_id!: number | null;
  @ApiProperty({ nullable: true, type: String }) model!: string | null;
  @ApiProperty({ nullable: true, type: String }) error_code!: string | null;
  @ApiProperty({ nullable: true, type: String }) error_message!: string | null;
  @ApiProperty() created_at!: string;
  @ApiProperty({ nullable: true, type: String }) completed_at!: string | null;
}

export class PrReviewListDto extends ListPageDto {
  @ApiProperty({ type: [PrReviewDto] }) items!: PrReviewDto[];
}

export class PrReviewQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ example: 'acme/api' }) @IsOptional() @IsString() @MaxLength(255) repository?: string;
  @QueryInteger({ min: 1, max: MAX_ROW_ID }) pr_number?: number;
  @ApiPropertyOptional({ enum: ['pending', 'running', 'completed', 'failed'] }) @IsOptional() @IsIn(['pending', 'running', 'completed', 'failed']) status?: string;
}

export class ReviewSettingsDto {
  @ApiProperty({ description: 'Keep one AI review comment on each reviewed PR, edited in place on new commits' }) post_comment!: boolean;
}

export class UpdateReviewSettingsDto {
  @ApiProperty() @IsBoolean() post_comment!: boolean;
}

export class DigestDto {
  @ApiProperty() id!: number;
  @ApiProperty({ enum: DIGEST_PERIODS }) period!: string;
  @ApiProperty() period_start!: string;
  @ApiProperty() period_end!: string;
  @ApiProperty({ enum: ['ai', 'template'] }) source!: string;
  @ApiProperty({ nullable: true, type: String, description: 'Why the template was used (disabled, timeout, server_error…)' }) fallback_reason!: string | null;
  @ApiProperty() title!: string;
  @ApiProperty() body!: string;
  @ApiProperty() created_at!: string;
}

export class DigestListDto extends ListPageDto {
  @ApiProperty({ type: [DigestDto] }) items!: DigestDto[];
}

export class DigestQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: DIGEST_PERIODS }) @IsOptional() @IsIn(DIGEST_PERIODS) period?: DigestPeriod;
}

export class ProduceDigestDto {
  @ApiProperty({ enum: DIGEST_PERIODS }) @IsIn(DIGEST_PERIODS) period!: DigestPeriod;
}

/** A stored digest as the console and the agents read it. */
export function digestDto(row: DigestEntity): DigestDto {
  return {
    id: row.id,
    period: row.period,
    period_start: row.periodStart.toISOString(),
    period_end: row.periodEnd.toISOString(),
    source: row.source,
    fallback_reason: row.fallbackReason,
    title: row.title,
    body: row.body,
    created_at: row.createdAt.toISOString(),
  };
}
