import { All, Controller } from '@nestjs/common';
import { ApiBearerAuth, ApiExcludeController, ApiGoneResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { BEARER_SCHEME } from '../openapi';
import { PanelError } from '../common/panel-error';

export const LEGACY_TASKS_MESSAGE = 'The /api/tasks API has been removed; use /api/sign-tasks instead';

/**
 * The removed /api/tasks API: every method on it and below it answers 410 Gone naming the replacement.
 * Left out of the OpenAPI document: a catch-all of every method is not an operation a client can call.
 */
@ApiExcludeController()
@ApiTags('legacy')
@ApiBearerAuth(BEARER_SCHEME)
@ApiUnauthorizedResponse({ description: 'Missing or invalid access token' })
@Controller('api/tasks')
export class LegacyTasksController {
  @All()
  @ApiOperation({ summary: 'Removed: use /api/sign-tasks', deprecated: true })
  @ApiGoneResponse({ description: LEGACY_TASKS_MESSAGE })
  root(): never {
    throw new PanelError('gone', LEGACY_TASKS_MESSAGE);
  }

  @All('*')
  @ApiOperation({ summary: 'Removed: use /api/sign-tasks', deprecated: true })
  @ApiGoneResponse({ description: LEGACY_TASKS_MESSAGE })
  anything(): never {
    throw new PanelError('gone', LEGACY_TASKS_MESSAGE);
  }
}
