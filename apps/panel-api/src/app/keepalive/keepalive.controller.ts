import { Body, Controller, HttpCode, Logger, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiBadRequestResponse, ApiBearerAuth, ApiConflictResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';
import { BEARER_SCHEME } from '../openapi';
import { KeepaliveRun, KeepaliveService } from './keepalive.service';
import { ClusterService } from '../cluster/cluster.service';
import { ReplicaFailureDto } from '../cluster/cluster.dto';
import { PanelError } from '../common/panel-error';
import { answerJson, errorOfAnswer, FORWARDED_BY_HEADER, forwardToReplica } from '../cluster/owner-forwarding';

const logger = new Logger('KeepaliveController');

/** A replica's failure as the answer names it (an unexpected error is logged, its text kept out). */
function errorParts(error: unknown): { code: string; message: string } {
  if (error instanceof PanelError) return { code: error.code, message: error.message };
  logger.error({ err: error }, 'Asking a replica for its keep-alive run failed');
  return { code: 'internal_error', message: 'Internal server error' };
}

/** One run made of the runs of several replicas, each over the accounts it owns. */
function mergeRuns(runs: KeepaliveRun[]): KeepaliveRun {
  return {
    trigger: runs[0].trigger,
    started_at: runs.map((run) => run.started_at).sort()[0],
    finished_at: runs.map((run) => run.finished_at).sort().at(-1) ?? runs[0].finished_at,
    woken: runs.reduce((sum, run) => sum + run.woken, 0),
    failed: runs.reduce((sum, run) => sum + run.failed, 0),
    skipped: runs.reduce((sum, run) => sum + run.skipped, 0),
    results: runs.flatMap((run) => run.results).sort((a, b) => a.account_name.localeCompare(b.account_name)),
  };
}

export class KeepaliveRunDto {
  @ApiPropertyOptional({ default: false, description: 'Wake every account, not only those whose last keep-alive is older than the interval' })
  @IsOptional()
  @IsBoolean()
  force?: boolean;
}

export class KeepaliveAccountResultDto {
  @ApiProperty() account_name!: string;
  @ApiProperty({ enum: ['woken', 'skipped_not_due', 'skipped_needs_relogin', 'failed'] }) outcome!: string;
  @ApiProperty({ nullable: true, type: String, example: 'OK' }) code!: string | null;
  @ApiProperty() message!: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) last_keepalive_at!: string | null;
}

export class KeepaliveRunResultDto {
  @ApiProperty({ enum: ['schedule', 'manual'] }) trigger!: string;
  @ApiProperty({ format: 'date-time' }) started_at!: string;
  @ApiProperty({ format: 'date-time' }) finished_at!: string;
  @ApiProperty() woken!: number;
  @ApiProperty() failed!: number;
  @ApiProperty() skipped!: number;
  @ApiProperty({ type: [KeepaliveAccountResultDto] }) results!: KeepaliveAccountResultDto[];
  @ApiProperty({ type: [ReplicaFailureDto], description: 'Replicas: those that failed or did not answer; their accounts are not in results (empty on one instance)' })
  failures!: ReplicaFailureDto[];
}

@ApiTags('settings')
@ApiBearerAuth(BEARER_SCHEME)
@ApiUnauthorizedResponse({ description: 'Missing or invalid access token' })
@Controller('api/config/settings/device-keepalive')
export class KeepaliveController {
  constructor(
    private readonly keepalive: KeepaliveService,
    private readonly cluster: ClusterService,
  ) {}

  @Post('run')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Run device keep-alive now and return per-account results',
    description: 'Wakes accounts whose last keep-alive is older than device_keepalive_interval_days (every account with force). Runs even when the daily job is disabled.',
  })
  @ApiOkResponse({ type: KeepaliveRunResultDto })
  @ApiBadRequestResponse({ description: 'Invalid body' })
  @ApiConflictResponse({ description: 'A keep-alive run is already in progress' })
  async run(@Body() body: KeepaliveRunDto, @Req() request: FastifyRequest): Promise<KeepaliveRunResultDto> {
    const options = { trigger: 'manual' as const, force: body.force ?? false };
    if (!this.cluster.active || request.headers[FORWARDED_BY_HEADER]) return { ...(await this.keepalive.run(options)), failures: [] };
    // Replicas: every replica wakes the accounts it owns; the answer covers them all, as on one instance.
    // A replica that fails or does not answer is named in `failures`; the others' results still count.
    const replicas = await this.cluster.otherReplicas();
    const own = this.keepalive.run(options);
    const others = replicas.map(async (replica) => {
      const answer = await forwardToReplica(
        this.cluster,
        replica,
        { method: 'POST', url: '/api/config/settings/device-keepalive/run', headers: { authorization: request.headers['authorization'], 'x-request-id': request.id }, body },
        `the accounts of replica ${replica.id}`,
      );
      if (answer.status !== 200) throw errorOfAnswer(answer, `the accounts of replica ${replica.id}`);
      const run = answerJson<KeepaliveRun>(answer);
      if (!run) throw errorOfAnswer(answer, `the accounts of replica ${replica.id}`);
      return run;
    });
    const [ownRun, outcomes] = await Promise.all([own, Promise.allSettled(others)]);
    const failures: ReplicaFailureDto[] = [];
    const runs = [ownRun];
    outcomes.forEach((outcome, index) => {
      if (outcome.status === 'fulfilled') runs.push(outcome.value);
      else failures.push({ replica_id: replicas[index].id, ...errorParts(outcome.reason) });
    });
    return { ...mergeRuns(runs), failures };
  }
}
