import { ApiErrorResponses } from '@shared/http-service';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { listPage, ListPage, pageWindow, RowIdPipe } from '../common/list-page';
import { MonitorError } from '../common/monitor-error';
import { COOKIE_SCHEME, CSRF_SCHEME, AGENT_SCHEME } from '../openapi';
import { RepositoryDto, RepositoryListDto, RepositoryListQueryDto, UpdateRepositoryTogglesDto } from './dto/repository.dto';
import { RepositoryEntity, RepositoryStatus } from './repository.entity';
import { RepositoryRepository } from './repository.repository';

@ApiTags('repositories')
@ApiCookieAuth(COOKIE_SCHEME)
@ApiSecurity(AGENT_SCHEME)
@Controller('api/v1/repositories')
export class RepositoriesController {
  constructor(private readonly repositories: RepositoryRepository) {}

  @Get()
  @ApiOperation({ summary: 'Watched repositories by name, filtered by status, source and text' })
  @ApiOkResponse({ type: RepositoryListDto })
  async list(@Query() query: RepositoryListQueryDto): Promise<ListPage<RepositoryDto>> {
    const window = pageWindow(query);
    const found = await this.repositories.find({ status: query.status, source: query.source, text: query.q }, window);
    return listPage(found.rows.map(RepositoryDto.of), found.total, window);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One repository' })
  @ApiErrorResponses({ 404: 'not_found: no such repository' })
  @ApiOkResponse({ type: RepositoryDto })
  async get(@Param('id', new RowIdPipe()) id: number): Promise<RepositoryDto> {
    return RepositoryDto.of(await this.find(id));
  }

  @Patch(':id')
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({ summary: 'Turn notifications per kind of event on or off' })
  @ApiErrorResponses({ 404: 'not_found: no such repository' })
  @ApiOkResponse({ type: RepositoryDto })
  async updateToggles(@Param('id', new RowIdPipe()) id: number, @Body() body: UpdateRepositoryTogglesDto): Promise<RepositoryDto> {
    const row = await this.find(id);
    const fields: Array<[keyof UpdateRepositoryTogglesDto, keyof RepositoryEntity]> = [
      ['issues', 'notifyIssues'],
      ['pull_requests', 'notifyPullRequests'],
      ['workflow_runs', 'notifyWorkflowRuns'],
      ['security_alerts', 'notifySecurityAlerts'],
      ['releases', 'notifyReleases'],
      ['stars', 'notifyStars'],
    ];
    for (const [field, column] of fields) {
      const value = body[field];
      if (value !== undefined) Object.assign(row, { [column]: value });
    }
    row.updatedAt = new Date();
    await this.repositories.save(row);
    return RepositoryDto.of(row);
  }

  @Post(':id/activate')
  @HttpCode(200)
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({ summary: 'Watch the repository again (notifications on)' })
  @ApiErrorResponses({ 404: 'not_found: no such repository' })
  @ApiOkResponse({ type: RepositoryDto })
  activate(@Param('id', new RowIdPipe()) id: number): Promise<RepositoryDto> {
    return this.setStatus(id, 'active');
  }

  @Post(':id/archive')
  @HttpCode(200)
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({ summary: 'Keep the records but send no notifications' })
  @ApiErrorResponses({ 404: 'not_found: no such repository' })
  @ApiOkResponse({ type: RepositoryDto })
  archive(@Param('id', new RowIdPipe()) id: number): Promise<RepositoryDto> {
    return this.setStatus(id, 'archived');
  }

  @Delete(':id')
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({ summary: 'Stop watching: marked removed, history kept, no notifications' })
  @ApiErrorResponses({ 404: 'not_found: no such repository' })
  @ApiOkResponse({ type: RepositoryDto })
  remove(@Param('id', new RowIdPipe()) id: number): Promise<RepositoryDto> {
    return this.setStatus(id, 'removed');
  }

  private async setStatus(id: number, status: RepositoryStatus): Promise<RepositoryDto> {
    const row = await this.find(id);
    row.status = status;
    row.updatedAt = new Date();
    await this.repositories.save(row);
    return RepositoryDto.of(row);
  }

  private async find(id: number): Promise<RepositoryEntity> {
    const row = await this.repositories.findById(id);
    if (!row) throw new MonitorError('not_found', 'no such repository');
    return row;
  }
}
