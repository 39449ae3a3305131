import { ApiErrorResponses } from '@shared/http-service';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { BEARER_SCHEME } from '../openapi';
import { CloneTaskDto, SignTaskDto, SignTaskInputDto, SignTaskListDto, SignTaskListQueryDto } from './dto/sign-task.dto';
import { SignTask } from './sign-task.types';
import { assertTaskName, SignTasksService } from './sign-tasks.service';
import { BodyLimit, SIGN_TASK_BODY_LIMITS } from '../common/request-limits';

function view(task: SignTask): SignTaskDto {
  return task as unknown as SignTaskDto;
}

@ApiTags('sign-tasks')
@ApiBearerAuth(BEARER_SCHEME)
@ApiUnauthorizedResponse({ description: 'Missing or invalid access token' })
@ApiBadRequestResponse({ description: 'Invalid task (every problem is listed) or a name that is not path-safe' })
@Controller('api/sign-tasks')
export class SignTasksController {
  constructor(private readonly tasks: SignTasksService) {}

  @Get()
  @ApiOperation({ summary: 'List sign and listen tasks, filtered by account, enabled and execution mode' })
  @ApiOkResponse({ type: SignTaskListDto })
  async list(@Query() query: SignTaskListQueryDto): Promise<SignTaskListDto> {
    await this.tasks.fresh();
    const tasks = this.tasks.list({
      account: query.account,
      enabled: query.enabled === undefined ? undefined : query.enabled === 'true',
      execution_mode: query.execution_mode,
    });
    return { tasks: tasks.map(view), total: tasks.length };
  }

  @Post()
  @BodyLimit(SIGN_TASK_BODY_LIMITS)
  @ApiOperation({ summary: 'Create a task' })
  @ApiCreatedResponse({ type: SignTaskDto })
  @ApiConflictResponse({ description: 'A task with this name exists' })
  async create(@Body() body: SignTaskInputDto): Promise<SignTaskDto> {
    return view(await this.tasks.create(body));
  }

  @Get(':name')
  @ApiOperation({ summary: 'Read a task' })
  @ApiOkResponse({ type: SignTaskDto })
  @ApiNotFoundResponse()
  async get(@Param('name') name: string): Promise<SignTaskDto> {
    assertTaskName(name);
    await this.tasks.fresh();
    return view(this.tasks.require(name));
  }

  @Put(':name')
  @BodyLimit(SIGN_TASK_BODY_LIMITS)
  @ApiOperation({ summary: 'Replace a task (the whole document; last_run is kept)' })
  @ApiOkResponse({ type: SignTaskDto })
  @ApiNotFoundResponse()
  async replace(@Param('name') name: string, @Body() body: SignTaskInputDto): Promise<SignTaskDto> {
    assertTaskName(name);
    return view(await this.tasks.replace(name, body));
  }

  @Delete(':name')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a task (its jobs are removed; its history stays)' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse()
  async remove(@Param('name') name: string): Promise<void> {
    await this.tasks.remove(name);
  }

  @Post(':name/clone')
  @ApiOperation({ summary: 'Copy a task under a new name (without its last run)' })
  @ApiCreatedResponse({ type: SignTaskDto })
  @ApiConflictResponse({ description: 'new_name exists' })
  async clone(@Param('name') name: string, @Body() body: CloneTaskDto): Promise<SignTaskDto> {
    return view(await this.tasks.clone(name, body.new_name));
  }

  @Post(':name/enable')
  @HttpCode(200)
  @ApiOperation({ summary: 'Enable a task (its jobs are registered)' })
  @ApiErrorResponses({ 404: 'No task of that name' })
  @ApiOkResponse({ type: SignTaskDto })
  async enable(@Param('name') name: string): Promise<SignTaskDto> {
    return view(await this.tasks.setEnabled(name, true));
  }

  @Post(':name/disable')
  @HttpCode(200)
  @ApiOperation({ summary: 'Disable a task (its jobs are removed)' })
  @ApiErrorResponses({ 404: 'No task of that name' })
  @ApiOkResponse({ type: SignTaskDto })
  async disable(@Param('name') name: string): Promise<SignTaskDto> {
    return view(await this.tasks.setEnabled(name, false));
  }
}
