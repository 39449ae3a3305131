import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { BEARER_SCHEME } from '../openapi';
import { RunHistoryService } from '../runs/run-history.service';
import { DashboardQueryDto, DashboardStatsDto, RunDetailDto, RunListDto, RunListQueryDto } from './dto/dashboard.dto';
import { DashboardService } from './dashboard.service';
import { PanelError } from '../common/panel-error';

@ApiTags('history')
@ApiBearerAuth(BEARER_SCHEME)
@ApiUnauthorizedResponse({ description: 'Missing or invalid access token' })
@Controller('api')
export class DashboardController {
  constructor(
    private readonly dashboard: DashboardService,
    private readonly history: RunHistoryService,
  ) {}

  @Get('runs')
  @ApiOperation({
    summary: 'Finished runs of every task, newest first, filtered and paged by the server',
    description: 'Filters: account, task, status (success/failure), failure_category, since/until (days in the configured time zone, inclusive).',
  })
  @ApiOkResponse({ type: RunListDto })
  @ApiBadRequestResponse({ description: 'Unknown parameter, bad day, since after until, limit or offset out of range' })
  runs(@Query() query: RunListQueryDto): Promise<RunListDto> {
    return this.dashboard.runs(query);
  }

  @Get('runs/:run_id')
  @ApiOperation({ summary: 'One finished run with its step log' })
  @ApiOkResponse({ type: RunDetailDto })
  @ApiNotFoundResponse({ description: 'No run with this id was recorded' })
  async run(@Param('run_id') runId: string): Promise<RunDetailDto> {
    const entry = /^[0-9a-f-]{36}$/.test(runId) ? await this.history.find(runId) : undefined;
    if (!entry) throw new PanelError('run_not_found', `Run ${runId} not found`);
    return entry;
  }

  @Get('stats/dashboard')
  @ApiOperation({
    summary: "Today's successes and failures and the last days' runs and keyword hits per day, counted in the configured time zone",
  })
  @ApiOkResponse({ type: DashboardStatsDto })
  @ApiBadRequestResponse({ description: 'days out of range' })
  stats(@Query() query: DashboardQueryDto): Promise<DashboardStatsDto> {
    return this.dashboard.stats(query.days ?? 14);
  }
}
