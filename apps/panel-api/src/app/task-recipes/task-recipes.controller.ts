import { Body, Controller, Get, Param, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBearerAuth, ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { BodyLimit, SIGN_TASK_BODY_LIMITS } from '../common/request-limits';
import { BEARER_SCHEME } from '../openapi';
import { SignTaskDto } from '../sign-tasks/dto/sign-task.dto';
import { assertTaskName, InvalidTaskException, SignTasksService } from '../sign-tasks/sign-tasks.service';
import { parseTaskInput } from '../sign-tasks/task-validation';
import { ImportRecipeDto, RecipeDocumentDto, TaskRecipeListDto } from './dto/task-recipe.dto';
import { RECIPE_CATALOG, recipeOfTask } from './recipe-catalog';

@ApiTags('sign-tasks')
@ApiBearerAuth(BEARER_SCHEME)
@ApiUnauthorizedResponse({ description: 'Missing or invalid access token' })
@Controller('api')
export class TaskRecipesController {
  constructor(private readonly tasks: SignTasksService) {}

  @Get('task-recipes')
  @ApiOperation({ summary: 'The built-in recipes for common check-in bots, each a task body with its success / already-done / failure patterns' })
  @ApiOkResponse({ type: TaskRecipeListDto })
  catalog(): TaskRecipeListDto {
    return { recipes: RECIPE_CATALOG.map((recipe) => ({ ...recipe, task: recipe.task as unknown as Record<string, unknown> })) };
  }

  @Get('sign-tasks/:name/recipe')
  @ApiOperation({ summary: 'A task as a single shareable recipe JSON document (no name, accounts, state or times)' })
  @ApiOkResponse({ type: RecipeDocumentDto })
  @ApiBadRequestResponse({ description: 'A task name that is not path-safe' })
  @ApiNotFoundResponse()
  async export(@Param('name') name: string): Promise<RecipeDocumentDto> {
    assertTaskName(name);
    await this.tasks.fresh();
    const document = recipeOfTask(this.tasks.require(name));
    return { ...document, task: document.task as unknown as Record<string, unknown> };
  }

  @Post('task-recipes/import')
  @BodyLimit(SIGN_TASK_BODY_LIMITS)
  @ApiOperation({ summary: 'Create a task from a recipe document, with a name and accounts of this panel' })
  @ApiCreatedResponse({ type: SignTaskDto })
  @ApiBadRequestResponse({ description: 'Not a recipe document, or the task it holds is invalid (every problem is listed)' })
  @ApiConflictResponse({ description: 'A task with this name exists' })
  async import(@Body() body: ImportRecipeDto): Promise<SignTaskDto> {
    const source = { ...body.recipe.task };
    for (const key of ['name', 'account_name', 'account_names', 'last_run', 'created_at', 'updated_at']) delete source[key];
    const parsed = parseTaskInput({ ...source, name: body.name, account_name: body.account_name, account_names: body.account_names }, { strict: true });
    if (!parsed.ok) throw new InvalidTaskException(parsed.problems.map((problem) => `recipe.task: ${problem}`));
    return (await this.tasks.create(parsed.task)) as unknown as SignTaskDto;
  }
}
