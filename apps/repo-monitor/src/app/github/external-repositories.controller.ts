import { ApiErrorResponses } from '@shared/http-service';
import { Body, Controller, Post } from '@nestjs/common';
import { ApiCookieAuth, ApiCreatedResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { MonitorError } from '../common/monitor-error';
import { COOKIE_SCHEME, CSRF_SCHEME, AGENT_SCHEME } from '../openapi';
import { AddExternalRepositoryDto, RepositoryDto } from '../repositories/dto/repository.dto';
import { GitHubSyncService, MAX_EXTERNAL_REPOSITORIES } from './github-sync.service';

/**
 * Watching a public repository outside the App's installations: GitHub is asked for it (through
 * MONITOR_EXTERNAL_PAT) and then polled like the others. The rest of /api/v1/repositories reads and
 * edits the stored records (repositories/).
 */
@ApiTags('repositories')
@ApiCookieAuth(COOKIE_SCHEME)
@ApiSecurity(AGENT_SCHEME)
@Controller('api/v1/repositories')
export class ExternalRepositoriesController {
  constructor(private readonly sync: GitHubSyncService) {}

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
}
