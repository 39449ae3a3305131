import { ApiErrorResponses } from '@shared/http-service';
import { Body, Controller, Get, Logger, Post } from '@nestjs/common';
import { ApiCookieAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { MonitorError } from '../common/monitor-error';
import { COOKIE_SCHEME, CSRF_SCHEME, AGENT_SCHEME } from '../openapi';
import { AddExternalRepositoryDto, ExternalRepositoryAccessDto, RepositoryDto } from '../repositories/dto/repository.dto';
import { GitHubCallError } from './github-client';
import { GitHubSyncService, MAX_EXTERNAL_REPOSITORIES } from './github-sync.service';

/** The reasons an external repository could not be added, in `details.reason` of the error. */
export const EXTERNAL_REPOSITORY_FAILURES = ['no_token', 'not_found', 'limit', 'unreachable', 'rate_limited', 'token_rejected', 'github_error'] as const;

/**
 * Watching a public repository outside the App's installations: GitHub is asked for it (through
 * MONITOR_EXTERNAL_PAT) and then polled like the others. The rest of /api/v1/repositories reads and
 * edits the stored records (repositories/).
 */
@ApiTags('repositories')
@ApiCookieAuth(COOKIE_SCHEME)
@ApiSecurity(AGENT_SCHEME)
@Controller('api/v1/repositories')
export class ExternalRepositoriesController {
  private readonly logger = new Logger('ExternalRepositories');

  constructor(private readonly sync: GitHubSyncService) {}

  @Get('external')
  @ApiOperation({ summary: 'Whether external repositories can be added: MONITOR_EXTERNAL_PAT set, how many are watched, the limit' })
  @ApiOkResponse({ type: ExternalRepositoryAccessDto })
  async externalAccess(): Promise<ExternalRepositoryAccessDto> {
    return { token_configured: this.sync.externalTokenConfigured(), count: await this.sync.externalCount(), limit: MAX_EXTERNAL_REPOSITORIES };
  }

  @Post()
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({
    summary: `Watch an external public repository through MONITOR_EXTERNAL_PAT (at most ${MAX_EXTERNAL_REPOSITORIES})`,
    description: `Every refusal names its reason in details.reason: ${EXTERNAL_REPOSITORY_FAILURES.join(', ')}.`,
  })
  @ApiErrorResponses({
    404: 'not_found (reason not_found): no public repository with that name',
    409: 'conflict: reason limit (the limit of external repositories is reached), no_token (MONITOR_EXTERNAL_PAT is not set) or token_rejected (GitHub refused it)',
    429: 'rate_limited (reason rate_limited): GitHub\u2019s rate limit is reached; Retry-After when GitHub said when it resets',
    503: 'service_unavailable: reason unreachable (GitHub could not be reached) or github_error (GitHub answered with an error)',
  })
  @ApiCreatedResponse({ type: RepositoryDto })
  async addExternal(@Body() body: AddExternalRepositoryDto): Promise<RepositoryDto> {
    let result: Awaited<ReturnType<GitHubSyncService['addExternalRepository']>>;
    try {
      result = await this.sync.addExternalRepository(body.full_name);
    } catch (error) {
      if (error instanceof GitHubCallError) throw this.refusal(error, body.full_name);
      throw error;
    }
    if (result === 'no_token') {
      throw new MonitorError('conflict', 'external repositories need MONITOR_EXTERNAL_PAT: set it to a GitHub token and restart', { reason: 'no_token' });
    }
    if (result === 'not_found') throw new MonitorError('not_found', 'no public repository with that name', { reason: 'not_found' });
    if (result === 'limit') throw new MonitorError('conflict', `at most ${MAX_EXTERNAL_REPOSITORIES} external repositories`, { reason: 'limit' });
    return RepositoryDto.of(result);
  }

  /** The error a person sees for a failed call to GitHub; the cause goes to the log. */
  private refusal(error: GitHubCallError, fullName: string): MonitorError {
    const cause = describeCause(error.cause);
    this.logger.warn({ reason: error.reason, status: error.status, cause, repository: fullName }, `adding an external repository failed: ${error.message}`);
    switch (error.reason) {
      case 'unreachable':
        return new MonitorError('service_unavailable', 'GitHub could not be reached; check the network or HTTPS_PROXY and try again', { reason: 'unreachable' });
      case 'rate_limited': {
        const details: Record<string, unknown> = { reason: 'rate_limited' };
        if (error.retryAfterSeconds !== undefined) details['retry_after_seconds'] = error.retryAfterSeconds;
        const headers = error.retryAfterSeconds !== undefined ? { 'Retry-After': String(error.retryAfterSeconds) } : undefined;
        return new MonitorError('rate_limited', 'GitHub\u2019s rate limit for MONITOR_EXTERNAL_PAT is reached; try again later', details, headers);
      }
      case 'token_rejected':
        return new MonitorError('conflict', 'GitHub refused MONITOR_EXTERNAL_PAT: it may be expired or revoked', { reason: 'token_rejected', github_status: error.status });
      case 'github_error':
        return new MonitorError('service_unavailable', `GitHub answered with an error (HTTP ${error.status}); try again later`, { reason: 'github_error', github_status: error.status });
    }
  }
}

/**
 * The messages and errno codes along an error's cause chain (bounded), for the log: "fetch failed:
 * connect ECONNREFUSED 127.0.0.1:9 (ECONNREFUSED)". Duck-typed, since the error may come from another realm.
 */
export function describeCause(cause: unknown): string {
  const parts: string[] = [];
  let current: unknown = cause;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const { message, code } = current as { message?: unknown; code?: unknown };
    const text = typeof message === 'string' && message !== 'Unknown Error' ? message : '';
    const part = [text, typeof code === 'string' ? `(${code})` : ''].filter(Boolean).join(' ');
    if (part && !parts.includes(part)) parts.push(part);
    current = (current as { cause?: unknown }).cause;
  }
  return parts.join(': ').slice(0, 500) || 'no further cause';
}
