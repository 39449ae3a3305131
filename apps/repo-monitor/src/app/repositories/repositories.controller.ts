import { ApiErrorResponses } from '@shared/config';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCookieAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { listPage, ListPage, pageWindow, RowIdPipe } from '../common/list-page';
import { whereContains } from '../common/list-filters';
import { MonitorError } from '../common/monitor-error';
import { GitHubSyncService, MAX_EXTERNAL_REPOSITORIES } from '../github/github-sync.service';
import { COOKIE_SCHEME, CSRF_SCHEME, AGENT_SCHEME } from '../openapi';
import { DatabaseWork } from '../processing/database-work';
import { AddExternalRepositoryDto, RepositoryDto, RepositoryListDto, RepositoryListQueryDto, UpdateRepositoryTogglesDto } from './dto/repository.dto';
import { RepositoryEntity, RepositoryStatus } from './repository.entity';

@ApiTags('repositories')
@ApiCookieAuth(COOKIE_SCHEME)
@ApiSecurity(AGENT_SCHEME)
@Controller('api/v1/repositories')
export class RepositoriesController {
  constructor(
    private readonly database: DatabaseWork,
    private readonly sync: GitHubSyncService,
  ) {}

  private get store() {
    return this.database.dataSource.getRepository(RepositoryEntity);
  }

  @Get()
  @ApiOperation({ summary: 'Watched repositories by name, filtered by status, source and text' })
  @ApiOkResponse({ type: RepositoryListDto })
  async list(@Query() query: RepositoryListQueryDto): Promise<ListPage<RepositoryDto>> {
    const window = pageWindow(query);
    const builder = this.store.createQueryBuilder('repository');
    if (query.status) builder.andWhere('repository.status = :status', { status: query.status });
    if (query.source) builder.andWhere('repository.source = :source', { source: query.source });
    whereContains(builder, ['repository.fullName'], query.q);
    const [rows, total] = await builder.orderBy('repository.fullName', 'ASC').skip(window.skip).take(window.perPage).getManyAndCount();
    return listPage(rows.map(RepositoryDto.of), total, window);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One repository' })
  @ApiErrorResponses({ 404: 'not_found: no such repository' })
  @ApiOkResponse({ type: RepositoryDto })
  async get(@Param('id', new RowIdPipe()) id: number): Promise<RepositoryDto> {
    return RepositoryDto.of(await this.find(id));
  }

  @Post()
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({ summary: `Watch an external public repository through MONITOR_EXTERNAL_PAT (at most ${MAX_EXTERNAL_REPOSITORIES})` })
  @ApiErrorResponses({ 404: 'not_found: no public repository with that name', 409: 'conflict: the limit of external repositories is reached' })
  @ApiCreatedResponse({ type: RepositoryDto })
  async addExternal(@Body() body: AddExternalRepositoryDto): Promise<RepositoryDto> {
    const result = await this.sync.addExternalRepository(body.full_name);
    if (result === 'not_found') throw new MonitorError('not_found', 'no public repository with that name');
    if (result === 'limit') throw new MonitorError('conflict', `at most ${MAX_EXTERNAL_REPOSITORIES} external repositories`);
    return RepositoryDto.of(result);
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
    await this.database.transaction((manager) => manager.save(row));
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
    await this.database.transaction((manager) => manager.save(row));
    return RepositoryDto.of(row);
  }

  private async find(id: number): Promise<RepositoryEntity> {
    const row = await this.store.findOne({ where: { id } });
    if (!row) throw new MonitorError('not_found', 'no such repository');
    return row;
  }
}
