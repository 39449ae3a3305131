import { Controller, Get, Query } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { SearchText } from '../common/list-filters';
import { ListPage, ListPageDto, listPage, PageQueryDto, pageWindow, MAX_ROW_ID, QueryInteger } from '../common/list-page';
import { AGENT_SCHEME, COOKIE_SCHEME } from '../openapi';
import { WorkItemEntity } from './work-item.entity';
import { WorkItemRepository } from './work-item.repository';

export class WorkItemDto {
  @ApiProperty() id!: number;
  @ApiProperty() repository_id!: number;
  @ApiProperty({ enum: ['issue', 'pull_request'] }) kind!: string;
  @ApiProperty() number!: number;
  @ApiProperty() title!: string;
  @ApiProperty() state!: string;
  @ApiProperty() merged!: boolean;
  @ApiProperty() draft!: boolean;
  @ApiProperty({ nullable: true, type: String }) author!: string | null;
  @ApiProperty() html_url!: string;
  @ApiProperty() updated_at!: string;

  static of(row: WorkItemEntity): WorkItemDto {
    return {
      id: row.id,
      repository_id: row.repositoryId,
      kind: row.kind,
      number: row.number,
      title: row.title,
      state: row.state,
      merged: row.merged,
      draft: row.draft,
      author: row.author,
      html_url: row.htmlUrl,
      updated_at: row.updatedAt.toISOString(),
    };
  }
}

export class WorkItemListDto extends ListPageDto {
  @ApiProperty({ type: [WorkItemDto] }) items!: WorkItemDto[];
}

export class WorkItemQueryDto extends PageQueryDto {
  @QueryInteger({ min: 1, max: MAX_ROW_ID }) repository_id?: number;
  @ApiPropertyOptional({ enum: ['issue', 'pull_request'] }) @IsOptional() @IsIn(['issue', 'pull_request']) kind?: 'issue' | 'pull_request';
  @ApiPropertyOptional({ enum: ['open', 'closed'] }) @IsOptional() @IsIn(['open', 'closed']) state?: string;
  @SearchText('Text in the title or author, or the number (`42` or `#42`), ignoring case') q?: string;
}

@ApiTags('work-items')
@ApiCookieAuth(COOKIE_SCHEME)
@ApiSecurity(AGENT_SCHEME)
@Controller('api/v1/work-items')
export class WorkItemsController {
  constructor(private readonly workItems: WorkItemRepository) {}

  @Get()
  @ApiOperation({ summary: 'Issues and pull requests, most recently updated first' })
  @ApiOkResponse({ type: WorkItemListDto })
  async list(@Query() query: WorkItemQueryDto): Promise<ListPage<WorkItemDto>> {
    const window = pageWindow(query);
    const found = await this.workItems.find({ repositoryId: query.repository_id, kind: query.kind, state: query.state, text: query.q }, window);
    return listPage(found.rows.map(WorkItemDto.of), found.total, window);
  }
}
