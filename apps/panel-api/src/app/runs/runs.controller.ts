import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Req } from '@nestjs/common';
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
import { assertTaskName, SignTasksService } from '../sign-tasks/sign-tasks.service';
import { ActiveRunDto, ActiveRunListDto, CancelResultDto, HistoryListDto, HistoryQueryDto, RunStartedDto, RunStatusDto, RunTaskDto, TaskRunStatusDto } from './dto/run.dto';
import { RunHistoryService } from './run-history.service';
import { RunRecord, RunRegistry } from './run-registry';
import { RUN_TIMINGS, RunTimings } from './run-timings';
import { TaskRunner } from './task-runner.service';
import { ClusterService } from '../cluster/cluster.service';
import { ReplicaFailureDto } from '../cluster/cluster.dto';
import { answerJson, errorOfAnswer, FORWARDED_BY_HEADER, forwardToReplica, ReplicaAddress } from '../cluster/owner-forwarding';
import { errorParts, RunStarter } from './run-starter';
import { phaseDetailFields, RunMessageCode, runMessageFields } from '../common/run-outcomes';

/** A run that claims to be running but has not moved for longer than a whole run may take. */
const STALE_MARGIN_MS = 60_000;

@ApiTags('sign-tasks')
@ApiBearerAuth(BEARER_SCHEME)
@ApiUnauthorizedResponse({ description: 'Missing or invalid access token' })
@ApiBadRequestResponse({ description: 'A task name that is not path-safe or bad input' })
@Controller('api/sign-tasks')
export class RunsController {
  constructor(
    private readonly tasks: SignTasksService,
    private readonly runner: TaskRunner,
    private readonly registry: RunRegistry,
    private readonly history: RunHistoryService,
    @Inject(RUN_TIMINGS) private readonly timings: RunTimings,
    private readonly cluster: ClusterService,
    private readonly starter: RunStarter,
  ) {}

  @Get('runs/active')
  @ApiOperation({ summary: 'Runs in progress (phase, account, task) on every replica' })
  @ApiOkResponse({ type: ActiveRunListDto })
  async active(@Req() request: FastifyRequest): Promise<ActiveRunListDto> {
    const runs: ActiveRunDto[] = this.registry.active().map((run) => ({
      run_id: run.run_id,
      task_name: run.task_name,
      account_name: run.account_name,
      phase: run.phase ?? 'finalizing',
      phase_detail: run.phase_detail,
      ...phaseDetailFields(run.phase_detail),
      started_at: run.started_at,
      wait_seconds: run.wait_seconds,
      replica_id: this.cluster.replicaId,
    }));
    const failures: ReplicaFailureDto[] = [];
    if (this.cluster.active && !request.headers[FORWARDED_BY_HEADER]) {
      // Replicas: each keeps its runs in memory; every live replica is asked for its own (a forwarded request is never forwarded again).
      const replicas = await this.cluster.otherReplicas();
      const outcomes = await Promise.allSettled(
        replicas.map(async (replica) => {
          const answer = await this.forward(replica, 'GET', '/api/sign-tasks/runs/active', request);
          if (answer.status !== 200) throw errorOfAnswer(answer, `the runs of replica ${replica.id}`);
          return answerJson<ActiveRunListDto>(answer)?.runs ?? [];
        }),
      );
      const known = new Set(runs.map((run) => run.run_id));
      outcomes.forEach((outcome, index) => {
        if (outcome.status === 'rejected') {
          failures.push({ replica_id: replicas[index].id, ...errorParts(outcome.reason) });
          return;
        }
        for (const run of outcome.value) {
          if (known.has(run.run_id)) continue;
          known.add(run.run_id);
          runs.push(run);
        }
      });
      runs.sort((a, b) => a.started_at.localeCompare(b.started_at) || a.run_id.localeCompare(b.run_id));
    }
    return { runs, total: runs.length, failures };
  }

  @Post(':name/run')
  @HttpCode(202)
  @ApiOperation({ summary: 'Run a task now for its accounts (or one of them); follow it with run/status' })
  @ApiAcceptedResponse({ type: RunStartedDto })
  @ApiNotFoundResponse()
  @ApiConflictResponse({ description: 'The task is already running' })
  async run(@Param('name') name: string, @Body() body: RunTaskDto, @Req() request: FastifyRequest): Promise<RunStartedDto> {
    assertTaskName(name);
    return this.starter.start(name, body.account_name, RunStarter.triggerOf(request, 'manual'), request);
  }

  @Get(':name/run/status')
  @ApiOperation({ summary: 'In-memory status of the task\'s run: state, phase, failure_category and the flow log' })
  @ApiOkResponse({ type: TaskRunStatusDto })
  @ApiNotFoundResponse()
  async status(@Param('name') name: string, @Req() request: FastifyRequest): Promise<TaskRunStatusDto> {
    assertTaskName(name);
    const runs = this.registry.ofTask(name);
    if (runs.length === 0 || this.cluster.active) {
      await this.tasks.fresh();
      this.tasks.require(name);
    }
    const views = runs.map((run) => this.view(run));
    // Replicas: the runs of the task's accounts that other replicas own are in their memory.
    for (const owner of await this.otherOwnersOfTask(name, request)) {
      const answer = await this.forward(owner, 'GET', `/api/sign-tasks/${encodeURIComponent(name)}/run/status`, request);
      if (answer.status !== 200) throw errorOfAnswer(answer, `task ${name}`);
      const known = new Set(views.map((view) => view.run_id));
      views.push(...(answerJson<TaskRunStatusDto>(answer)?.runs ?? []).filter((view) => !known.has(view.run_id)));
    }
    const primary = views.find((run) => run.state === 'running') ?? views[0];
    return { ...(primary ?? idleStatus(name, Math.round(this.timings.runTimeoutMs / 1000))), runs: views };
  }

  @Post(':name/run/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Ask the task\'s active runs to stop (checked between steps and during every wait)' })
  @ApiOkResponse({ type: CancelResultDto })
  @ApiNotFoundResponse()
  async cancel(@Param('name') name: string, @Req() request: FastifyRequest): Promise<CancelResultDto> {
    assertTaskName(name);
    let cancelled = this.registry.cancel(name);
    // Replicas: every owner is asked; one that fails is answered in `failures`, the others' runs still stop.
    const owners = await this.otherOwnersOfTask(name, request);
    const outcomes = await Promise.allSettled(
      owners.map(async (owner) => {
        const answer = await this.forward(owner, 'POST', `/api/sign-tasks/${encodeURIComponent(name)}/run/cancel`, request);
        if (answer.status !== 200) throw errorOfAnswer(answer, `task ${name}`);
        return answerJson<CancelResultDto>(answer)?.cancelled ?? 0;
      }),
    );
    const failures: ReplicaFailureDto[] = [];
    outcomes.forEach((outcome, index) => {
      if (outcome.status === 'fulfilled') cancelled += outcome.value;
      else failures.push({ replica_id: owners[index].id, ...errorParts(outcome.reason) });
    });
    if (cancelled === 0) {
      // Nothing stopped and no owner could be asked: the error, not "nothing was running".
      if (failures.length && failures.length === owners.length) throw (outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult).reason;
      await this.tasks.fresh();
      this.tasks.require(name);
    }
    return { task_name: name, cancelled, failures };
  }

  @Get(':name/history')
  @ApiOperation({ summary: 'Finished runs of the task with their flow logs (persistent), newest first' })
  @ApiOkResponse({ type: HistoryListDto })
  @ApiNotFoundResponse()
  async taskHistory(@Param('name') name: string, @Query() query: HistoryQueryDto): Promise<HistoryListDto> {
    assertTaskName(name);
    await this.tasks.fresh();
    this.tasks.require(name);
    return { task_name: name, history: await this.history.list(name, { limit: query.limit ?? 50, accountName: query.account }) };
  }

  /** Of the accounts, those another replica owns, with their owner; none for a request another replica forwarded here. */
  private async remoteOwners(accounts: string[], request: FastifyRequest): Promise<Map<string, ReplicaAddress>> {
    if (!this.cluster.active || request.headers[FORWARDED_BY_HEADER]) return new Map();
    return this.cluster.remoteOwners(accounts);
  }

  /** The other replicas that own accounts of the task (each once). */
  private async otherOwnersOfTask(name: string, request: FastifyRequest): Promise<ReplicaAddress[]> {
    const task = this.tasks.get(name);
    if (!task) return [];
    const owners = new Map<string, ReplicaAddress>();
    for (const owner of (await this.remoteOwners(this.tasks.accountsOf(task), request)).values()) owners.set(owner.id, owner);
    return [...owners.values()];
  }

  private forward(owner: ReplicaAddress, method: string, url: string, request: FastifyRequest, body?: unknown) {
    return forwardToReplica(this.cluster, owner, { method, url, headers: { authorization: request.headers['authorization'], 'x-request-id': request.id }, body }, owner.id);
  }

  private view(run: RunRecord): RunStatusDto {
    const stale = run.state === 'running' && Date.now() - Date.parse(run.updated_at) > this.timings.runTimeoutMs + STALE_MARGIN_MS;
    return {
      run_id: run.run_id,
      task_name: run.task_name,
      account_name: run.account_name,
      state: stale ? 'stale' : run.state,
      phase: run.phase,
      phase_detail: run.phase_detail,
      ...phaseDetailFields(run.phase_detail),
      success: run.success,
      error: run.error,
      ...errorFields(run),
      failure_category: run.failure_category,
      output: run.output,
      verdict: run.verdict,
      verdict_text: run.verdict_text,
      started_at: run.started_at,
      finished_at: run.finished_at,
      wait_seconds: run.wait_seconds,
      timeout_seconds: run.timeout_seconds,
      trigger: run.trigger,
      attempts: run.attempts,
      logs: [...run.logs],
    };
  }
}

function idleStatus(taskName: string, timeoutSeconds: number): RunStatusDto {
  return {
    run_id: null,
    task_name: taskName,
    account_name: null,
    state: 'idle',
    phase: null,
    phase_detail: null,
    phase_detail_code: null,
    phase_detail_params: {},
    success: null,
    error: null,
    error_code: null,
    error_params: {},
    failure_category: 'none',
    output: null,
    verdict: null,
    verdict_text: null,
    started_at: null,
    finished_at: null,
    wait_seconds: null,
    timeout_seconds: timeoutSeconds,
    trigger: null,
    attempts: 0,
    logs: [],
  };
}

/** A finished run's error (its English text) as the catalogue's code and parameters, when it is one of its sentences. */
function errorFields(run: RunRecord): { error_code: RunMessageCode | null; error_params: Record<string, string> } {
  if (!run.error) return { error_code: null, error_params: {} };
  const fields = runMessageFields({ message: run.error, success: false, failure_category: run.failure_category });
  return { error_code: fields.message_code, error_params: fields.message_params };
}
