import { Injectable, Logger } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ClusterService } from '../cluster/cluster.service';
import { answerJson, errorOfAnswer, FORWARDED_BY_HEADER, forwardToReplica, ReplicaAddress, RUN_TRIGGER_HEADER } from '../cluster/owner-forwarding';
import { PanelError, TaskBusy, ValidationFailed } from '../common/panel-error';
import { SignTasksService } from '../sign-tasks/sign-tasks.service';
import { RunFailureDto, RunStartedDto } from './dto/run.dto';
import { RunTrigger } from './run-registry';
import { StartedRun, TaskRunner } from './task-runner.service';

const logger = new Logger('RunStarter');

/** The triggers a forwarded start may name (a person's start on another replica: "run now" or a batch). */
const FORWARDED_TRIGGERS: readonly RunTrigger[] = ['manual', 'batch'];

/**
 * Starts a task now for its accounts (or one), each at the replica that owns it: "run now" and the
 * batch run both come here. On one instance (and for a request another replica forwarded here)
 * every run starts locally. With replicas each account owned elsewhere is forwarded to its owner,
 * naming the trigger, so the owner records a batch run as `batch`; an owner that fails does not undo
 * the runs others started and is answered in `failures`.
 */
@Injectable()
export class RunStarter {
  constructor(
    private readonly tasks: SignTasksService,
    private readonly runner: TaskRunner,
    private readonly cluster: ClusterService,
  ) {}

  /** The trigger of a start: what a verified forward names (FORWARDED_BY_HEADER survives only when verified), else `fallback`. */
  static triggerOf(request: FastifyRequest, fallback: RunTrigger): RunTrigger {
    const named = request.headers[RUN_TRIGGER_HEADER];
    if (!request.headers[FORWARDED_BY_HEADER] || typeof named !== 'string') return fallback;
    return (FORWARDED_TRIGGERS as readonly string[]).includes(named) ? (named as RunTrigger) : fallback;
  }

  async start(name: string, accountName: string | undefined, trigger: RunTrigger, request: FastifyRequest): Promise<RunStartedDto> {
    await this.tasks.fresh();
    const task = this.tasks.require(name);
    if (accountName !== undefined && !this.tasks.accountsOf(task).includes(accountName)) {
      throw new ValidationFailed(`Account ${accountName} is not one of the task's accounts`);
    }
    const accounts = accountName !== undefined ? [accountName] : this.tasks.accountsOf(task);
    const remote = task.execution_mode === 'listen' || !this.cluster.active || request.headers[FORWARDED_BY_HEADER] ? new Map<string, ReplicaAddress>() : await this.cluster.remoteOwners(accounts);
    if (remote.size === 0) return { task_name: name, runs: this.runner.start(name, trigger, accountName), failures: [] };
    // Each account runs at its owner; an account already running this task is skipped as on one instance.
    const outcomes = await Promise.allSettled(
      accounts.map(async (account): Promise<StartedRun[]> => {
        const owner = remote.get(account);
        if (!owner) return this.runner.start(name, trigger, account);
        const answer = await forwardToReplica(
          this.cluster,
          owner,
          {
            method: 'POST',
            url: `/api/sign-tasks/${encodeURIComponent(name)}/run`,
            headers: { authorization: request.headers['authorization'], 'x-request-id': request.id, [RUN_TRIGGER_HEADER]: trigger },
            body: { account_name: account },
          },
          owner.id,
        );
        if (answer.status === 202) return answerJson<RunStartedDto>(answer)?.runs ?? [];
        if (answer.status === 409 && answerJson<{ code?: string }>(answer)?.code === 'task_busy') throw new TaskBusy(name);
        throw errorOfAnswer(answer, account);
      }),
    );
    const runs: StartedRun[] = [];
    const failures: RunFailureDto[] = [];
    const errors: unknown[] = [];
    let busy: TaskBusy | undefined;
    outcomes.forEach((outcome, index) => {
      if (outcome.status === 'fulfilled') runs.push(...outcome.value);
      else if (outcome.reason instanceof TaskBusy) busy = outcome.reason;
      else {
        errors.push(outcome.reason);
        failures.push({ account_name: accounts[index], ...errorParts(outcome.reason) });
      }
    });
    if (runs.length === 0) throw errors[0] ?? busy ?? new TaskBusy(name);
    return { task_name: name, runs, failures };
  }
}

/** A failure as an answer names it: its error code and message (an unexpected error is logged, its text kept out). */
export function errorParts(error: unknown): { code: string; message: string } {
  if (error instanceof PanelError) return { code: error.code, message: error.message };
  logger.error({ err: error }, 'A part of a run or cancel request failed');
  return { code: 'internal_error', message: 'Internal server error' };
}
