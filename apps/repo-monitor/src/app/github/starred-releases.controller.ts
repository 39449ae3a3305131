import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { SearchText } from '../common/list-filters';
import { ListPageDto, listPage, PageQueryDto, pageWindow } from '../common/list-page';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { COOKIE_SCHEME } from '../openapi';
import { StarredUsernameSource } from './github-sync.service';
import { StarredReleaseTrackerRepository } from './starred-release-tracker.repository';

export class StarredReleaseDto {
  @ApiProperty({ example: 'nodejs/node' }) repository_full_name!: string;
  @ApiProperty() repository_url!: string;
  @ApiProperty({ nullable: true, type: String, description: 'The latest release seen; null while none was published or it was not checked yet' })
  last_release_tag!: string | null;
  @ApiProperty({ nullable: true, type: String }) last_release_url!: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) last_checked_at!: string | null;
}

export class StarredReleaseListDto extends ListPageDto {
  @ApiProperty({ nullable: true, type: String, description: 'The starred user in effect (general settings, else MONITOR_STARRED_USERNAME); null: tracking is off' })
  username!: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', description: 'When the user\u2019s starred list was last fetched' })
  list_checked_at!: string | null;
  @ApiProperty({ type: [StarredReleaseDto] }) items!: StarredReleaseDto[];
}

export class StarredReleaseQueryDto extends PageQueryDto {
  @SearchText('Text in owner/name, ignoring case') q?: string;
}

/** The repositories the starred user has starred, each with the latest release seen. */
@ApiTags('starred-releases')
@ApiCookieAuth(COOKIE_SCHEME)
@Controller('api/v1/starred-releases')
export class StarredReleasesController {
  constructor(
    @Inject(MONITOR_CONFIG) private readonly config: MonitorConfig,
    private readonly trackers: StarredReleaseTrackerRepository,
    private readonly starredUsername: StarredUsernameSource,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Starred repositories watched for new releases, by name, with the latest release seen' })
  @ApiOkResponse({ type: StarredReleaseListDto })
  async list(@Query() query: StarredReleaseQueryDto): Promise<StarredReleaseListDto> {
    const window = pageWindow(query);
    const username = (await this.starredUsername.username()) ?? null;
    if (!username) return { ...listPage([], 0, window), username: null, list_checked_at: null };
    const listTracker = await this.trackers.listTracker(username);
    const { rows, total } = await this.trackers.releaseTrackers(username, query.q, window);
    const web = this.config.github.webUrl;
    const items = rows.map(
      (row): StarredReleaseDto => ({
        repository_full_name: row.repositoryFullName,
        repository_url: `${web}/${row.repositoryFullName}`,
        last_release_tag: row.lastReleaseTag,
        last_release_url: row.lastReleaseTag ? `${web}/${row.repositoryFullName}/releases/tag/${encodeURIComponent(row.lastReleaseTag)}` : null,
        last_checked_at: row.lastCheckedAt?.toISOString() ?? null,
      }),
    );
    return { ...listPage(items, total, window), username, list_checked_at: listTracker?.lastCheckedAt?.toISOString() ?? null };
  }
}
