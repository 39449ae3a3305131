import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiBadRequestResponse, ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { BEARER_SCHEME } from '../openapi';
import { BatchItemResultDto, BatchResultDto, BatchTasksDto } from '../sign-tasks/dto/sign-task.dto';
import { SignTasksService } from '../sign-tasks/sign-tasks.service';
import { isTaskName } from '../sign-tasks/task-validation';
import { RunStarter } from './run-starter';
import { TaskBusy } from '../common/panel-error';

@ApiTags('sign-tasks')
@ApiBearerAuth(BEARER_SCHEME)
@ApiUnauthorizedResponse({ description: 'Missing or invalid access token' })
@Controller('api/batch')
export class BatchController {
  constructor(
    private readonly tasks: SignTasksService,
    private readonly starter: RunStarter,
  ) {}

  @Post('sign-tasks')
  @HttpCode(200)
  @ApiOperation({ summary: 'Enable, disable, delete or run up to 100 tasks; a result per name (unknown names reported, the rest done)' })
  @ApiOkResponse({ type: BatchResultDto })
  @ApiBadRequestResponse({ description: 'Unknown action, no names or more than 100' })
  async apply(@Body() body: BatchTasksDto, @Req() request: FastifyRequest): Promise<BatchResultDto> {
    await this.tasks.fresh();
    const results: BatchItemResultDto[] = [];
    for (const name of new Set(body.names)) results.push(await this.applyOne(body.action, name, request));
    const succeeded = results.filter((result) => result.ok).length;
    return { action: body.action, results, succeeded, failed: results.length - succeeded };
  }

  private async applyOne(action: BatchTasksDto['action'], name: string, request: FastifyRequest): Promise<BatchItemResultDto> {
    if (!isTaskName(name)) return { name, ok: false, result: 'invalid', message: 'not a valid task name' };
    if (!this.tasks.get(name)) return { name, ok: false, result: 'not_found' };
    try {
      if (action === 'enable' || action === 'disable') await this.tasks.setEnabled(name, action === 'enable');
      else if (action === 'delete') await this.tasks.remove(name);
      else {
        // Each account at its owner (replicas), as "run now" does.
        const started = await this.starter.start(name, undefined, 'batch', request);
        const failed = started.failures.map((failure) => `${failure.account_name}: ${failure.message}`);
        return { name, ok: true, result: 'done', message: `started ${started.runs.length} run(s)${failed.length ? `; not started for ${failed.join('; ')}` : ''}` };
      }
      return { name, ok: true, result: 'done' };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { name, ok: false, result: error instanceof TaskBusy ? 'already_running' : 'failed', message };
    }
  }
}
