import { Body, Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { BEARER_SCHEME } from '../openapi';
import { AccountCheckJobsService, CheckJob, isJobId } from './account-check-jobs.service';
import { AccountStatusService, DEFAULT_CHECK_TIMEOUT_SECONDS, summarize } from './account-status.service';
import { CheckJobDto, CheckJobStartedDto, CheckSummaryDto, StatusCheckDto } from './dto/status-check.dto';
import { ValidationFailed } from '../common/panel-error';
import { FORWARDED_BY_HEADER } from '../cluster/owner-forwarding';

/** The caller's access token to check another replica's accounts with; none on a request forwarded here (answered here). */
function forwardAuthorization(request: FastifyRequest): string | undefined {
  const authorization = request.headers['authorization'];
  return typeof authorization === 'string' && !request.headers[FORWARDED_BY_HEADER] ? authorization : undefined;
}

function assertJobId(value: string): string {
  if (!isJobId(value)) throw new ValidationFailed('job_id must be a job id (UUID)');
  return value;
}

function jobView(job: CheckJob): CheckJobDto {
  return { ...job, progress: { ...job.progress }, result: { ...job.result } };
}

@ApiTags('accounts')
@ApiBearerAuth(BEARER_SCHEME)
@ApiUnauthorizedResponse({ description: 'Missing or invalid access token' })
@Controller('api/accounts/status')
export class AccountStatusController {
  constructor(
    private readonly status: AccountStatusService,
    private readonly jobs: AccountCheckJobsService,
  ) {}

  @Post('check')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Check sessions now and wait for the result',
    description: 'At most 200 accounts, a few at a time, each within timeout_seconds (default 8). Prefer check-jobs for many accounts.',
  })
  @ApiOkResponse({ type: CheckSummaryDto })
  @ApiBadRequestResponse({ description: 'Invalid names, timeout out of 1..20, or more than 200 accounts' })
  async check(@Body() body: StatusCheckDto, @Req() request: FastifyRequest): Promise<CheckSummaryDto> {
    const names = this.status.targets(body.account_names);
    const results = await this.status.check(names, body.timeout_seconds ?? DEFAULT_CHECK_TIMEOUT_SECONDS, { forwardAuthorization: forwardAuthorization(request) });
    return summarize(results, names.length);
  }

  @Post('check-jobs')
  @HttpCode(202)
  @ApiOperation({ summary: 'Start a background check job (one at a time, at most 200 accounts)' })
  @ApiAcceptedResponse({ type: CheckJobStartedDto })
  @ApiBadRequestResponse({ description: 'Invalid names, timeout out of 1..20, or more than 200 accounts' })
  @ApiConflictResponse({ description: 'Another check job is running' })
  async startJob(@Body() body: StatusCheckDto, @Req() request: FastifyRequest): Promise<CheckJobStartedDto> {
    const job = await this.jobs.start(body.account_names, body.timeout_seconds ?? DEFAULT_CHECK_TIMEOUT_SECONDS, forwardAuthorization(request));
    return { job_id: job.job_id, status: job.status, total: job.progress.total };
  }

  @Get('check-jobs/:job_id')
  @ApiOperation({
    summary: 'Status, progress and (partial or final) result of a check job',
    description: 'Answered by any replica. A job whose replica stopped before it finished is `interrupted`.',
  })
  @ApiOkResponse({ type: CheckJobDto })
  @ApiBadRequestResponse({ description: 'job_id is not a UUID' })
  @ApiNotFoundResponse({ description: 'No such job' })
  async getJob(@Param('job_id') jobId: string): Promise<CheckJobDto> {
    return jobView(await this.jobs.get(assertJobId(jobId)));
  }

  @Post('check-jobs/:job_id/cancel')
  @HttpCode(202)
  @ApiOperation({ summary: 'Ask a running job to stop: accounts in progress finish, no new one starts (asked of any replica, it reaches the one that runs the job)' })
  @ApiAcceptedResponse({ type: CheckJobDto })
  @ApiNotFoundResponse({ description: 'No such job' })
  @ApiConflictResponse({ description: 'The job is not running' })
  async cancelJob(@Param('job_id') jobId: string): Promise<CheckJobDto> {
    return jobView(await this.jobs.cancel(assertJobId(jobId)));
  }
}
