import { Body, Controller, Get, HttpCode, Param, Post, Put, Query, Req } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiCookieAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { parseDuration } from '@shared/config';
import { ApiErrorResponses } from '@shared/http-service';
import type { FastifyRequest } from 'fastify';
import { AuditLogService } from '../admin/audit-log.service';
import { actorOf, clientAddress } from '../admin/principal';
import { AiSettingsService, sameAiEndpoint } from '../ai-settings/ai-settings.service';
import { ListPage, listPage, pageWindow, RowIdPipe } from '../common/list-page';
import { MonitorError } from '../common/monitor-error';
import { AGENT_SCHEME, COOKIE_SCHEME, CSRF_SCHEME } from '../openapi';
import { AiClient } from './ai-client';
import { CONNECTIVITY_TEST_MESSAGES } from './ai-prompts';
import { classifyAiTestFailure } from './ai-test-failure';
import { DigestRepository } from './digest.repository';
import { DigestService } from './digest.service';
import {
  AiTestDto,
  AiTestResultDto,
  DigestDto,
  digestDto,
  DigestListDto,
  DigestQueryDto,
  PrReviewDto,
  PrReviewListDto,
  PrReviewQueryDto,
  ProduceDigestDto,
  ReviewSettingsDto,
  UpdateReviewSettingsDto,
} from './dto/ai.dto';
import { PrReviewEntity, PrReviewStatus } from './pr-review.entity';
import { PrReviewRepository } from './pr-review.repository';
import { PrReviewService } from './pr-review.service';

const TESTABLE_FIELDS = ['api_key', 'base_url', 'model', 'timeout', 'max_tokens', 'retries'] as const;

function list(text: string): string[] {
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return [];
  }
}

export function prReviewDto(row: PrReviewEntity): PrReviewDto {
  return {
    id: row.id,
    repository: row.repositoryFullName,
    pr_number: row.prNumber,
    title: row.title,
    html_url: row.htmlUrl,
    head_sha: row.headSha,
    status: row.status,
    summary: row.summary,
    score: row.score,
    merge_risk: row.mergeRisk,
    security_risks: list(row.securityRisks),
    breaking_risks: list(row.breakingRisks),
    suggestions: list(row.suggestions),
    missing_tests: list(row.missingTests),
    diff_truncated: row.diffTruncated,
    diff_chars: row.diffChars,
    alerted: row.alerted,
    comment_id: row.commentId === null ? null : Number(row.commentId),
    model: row.model,
    error_code: row.errorCode,
    error_message: row.errorMessage,
    created_at: row.createdAt.toISOString(),
    completed_at: row.completedAt ? row.completedAt.toISOString() : null,
  };
}

@ApiTags('ai')
@ApiCookieAuth(COOKIE_SCHEME)
@Controller('api/v1/ai')
export class AiController {
  constructor(
    private readonly ai: AiClient,
    private readonly aiSettings: AiSettingsService,
    private readonly reviews: PrReviewService,
    private readonly reviewRecords: PrReviewRepository,
    private readonly audit: AuditLogService,
  ) {}

  @Post('test')
  @HttpCode(200)
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({
    summary: 'Connectivity test: one fixed minimal message (no repository data) to the effective endpoint',
    description:
      'Unlocked fields may carry unsaved form values; a base_url other than the effective one needs an api_key in the request ' +
      '(400 otherwise), so a stored key never goes to an unsaved address. Writes nothing and changes no runtime state. A failure is ok: false with ' +
      'kind (unreachable, unauthorized, rate_limited, bad_response, timeout), upstream_status (the HTTP status the endpoint answered, if any), ' +
      'the finer error_code, and a message of our own: the endpoint\u2019s answer body is never echoed.',
  })
  @ApiOkResponse({ type: AiTestResultDto })
  @ApiConflictResponse({ description: 'ai_field_locked (details.field): a value was given for a field set by environment' })
  @ApiBadRequestResponse({ description: 'validation_failed: bad input, or an unsaved base_url without an api_key' })
  async test(@Body() body: AiTestDto): Promise<AiTestResultDto> {
    const locked = this.aiSettings.lockedFields();
    for (const field of TESTABLE_FIELDS) {
      if (body[field] !== undefined && locked.includes(field)) {
        throw new MonitorError('ai_field_locked', `${field} is set by environment and cannot be overridden`, { field });
      }
    }
    const current = await this.ai.settings();
    const baseUrl = body.base_url ? body.base_url.replace(/\/+$/, '') : current.baseUrl;
    // The stored (or environment) key belongs to the saved endpoint: an unsaved address must bring its own.
    if (!sameAiEndpoint(baseUrl, current.baseUrl) && body.api_key === undefined) {
      throw new MonitorError('validation_failed', 'api_key is required to test a base_url other than the saved one; the stored key is never sent to an unsaved address', {
        field: 'api_key',
      });
    }
    const settings = {
      ...current,
      apiKey: body.api_key ?? current.apiKey,
      baseUrl,
      model: body.model?.trim() ?? current.model,
      timeoutMs: body.timeout ? (parseDuration(body.timeout) as number) : current.timeoutMs,
      maxTokens: body.max_tokens ?? current.maxTokens,
      retries: body.retries ?? current.retries,
    };
    const base = { base_url: settings.baseUrl, model: settings.model };
    if (!settings.apiKey) return { ok: false, elapsed_ms: 0, ...base, error_code: 'not_configured', message: 'no API key: set one (any placeholder for a local gateway)' };
    const outcome = await this.ai.complete(settings, CONNECTIVITY_TEST_MESSAGES, { record: false });
    if (outcome.ok) return { ok: true, elapsed_ms: outcome.elapsedMs, ...base, model: outcome.model, reply: outcome.text.slice(0, 200) };
    return { ok: false, elapsed_ms: outcome.elapsedMs, ...base, error_code: outcome.code, ...classifyAiTestFailure(outcome.code, outcome.upstreamStatus, settings.timeoutMs) };
  }

  @Get('reviews')
  @ApiSecurity(AGENT_SCHEME)
  @ApiOperation({ summary: 'AI pull-request reviews and security audits, newest first' })
  @ApiOkResponse({ type: PrReviewListDto })
  async listReviews(@Query() query: PrReviewQueryDto): Promise<ListPage<PrReviewDto>> {
    const window = pageWindow(query);
    const found = await this.reviewRecords.find(
      { repositoryFullName: query.repository, prNumber: query.pr_number, status: query.status as PrReviewStatus | undefined },
      window,
    );
    return listPage(found.rows.map(prReviewDto), found.total, window);
  }

  @Get('reviews/:id')
  @ApiSecurity(AGENT_SCHEME)
  @ApiOperation({ summary: 'One AI pull-request review' })
  @ApiErrorResponses({ 404: 'not_found: no such review' })
  @ApiOkResponse({ type: PrReviewDto })
  async getReview(@Param('id', new RowIdPipe()) id: number): Promise<PrReviewDto> {
    const row = await this.reviewRecords.findById(id);
    if (!row) throw new MonitorError('not_found', 'no such review');
    return prReviewDto(row);
  }

  @Get('review-settings')
  @ApiSecurity(AGENT_SCHEME)
  @ApiOperation({ summary: 'Whether reviews keep a comment on the pull request' })
  @ApiOkResponse({ type: ReviewSettingsDto })
  reviewSettings(): Promise<ReviewSettingsDto> {
    return this.reviews.reviewSettings();
  }

  @Put('review-settings')
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({ summary: 'Turn the single, updated-in-place PR review comment on or off (default off)' })
  @ApiOkResponse({ type: ReviewSettingsDto })
  async updateReviewSettings(@Body() body: UpdateReviewSettingsDto, @Req() request: FastifyRequest): Promise<ReviewSettingsDto> {
    const next = await this.reviews.updateReviewSettings(body);
    await this.audit.record({ actor: actorOf(request.principal), action: 'ai_review_settings.updated', details: { post_comment: next.post_comment }, clientIp: clientAddress(request) });
    return next;
  }
}

@ApiTags('ai')
@ApiCookieAuth(COOKIE_SCHEME)
@Controller('api/v1/digests')
export class DigestsController {
  constructor(
    private readonly digests: DigestService,
    private readonly digestRecords: DigestRepository,
    private readonly audit: AuditLogService,
  ) {}

  @Get()
  @ApiSecurity(AGENT_SCHEME)
  @ApiOperation({ summary: 'Produced digests and reports, newest first' })
  @ApiOkResponse({ type: DigestListDto })
  async list(@Query() query: DigestQueryDto): Promise<ListPage<DigestDto>> {
    const window = pageWindow(query);
    const found = await this.digestRecords.find(query.period, window);
    return listPage(found.rows.map(digestDto), found.total, window);
  }

  @Post()
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({ summary: 'Produce a digest for the period ending now and send it (AI when available, else the template)' })
  @ApiErrorResponses({ 409: 'conflict: the digest was produced concurrently' })
  @ApiCreatedResponse({ type: DigestDto })
  async produce(@Body() body: ProduceDigestDto, @Req() request: FastifyRequest): Promise<DigestDto> {
    const row = await this.digests.produce(body.period, new Date());
    if (!row) throw new MonitorError('conflict', 'the digest was produced concurrently');
    await this.audit.record({ actor: actorOf(request.principal), action: 'digest.sent', details: { period: body.period, digest_id: row.id }, clientIp: clientAddress(request) });
    return digestDto(row);
  }
}
