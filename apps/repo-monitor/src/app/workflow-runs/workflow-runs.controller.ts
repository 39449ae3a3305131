import { Controller, Get, Query } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { SearchText } from '../common/list-filters';
import { ListPage, ListPageDto, listPage, PageQueryDto, pageWindow, MAX_ROW_ID, QueryInteger } from '../common/list-page';
import { AGENT_SCHEME, COOKIE_SCHEME } from '../openapi';
import { FAILED_RUN_CONCLUSIONS, isFailedRunConclusion } from './run-conclusions';
import { WorkflowRunEntity } from './workflow-run.entity';
import { WorkflowRunRepository } from './workflow-run.repository';

export class WorkflowRunDto {
  @ApiProperty() id!: number;
  @ApiProperty() repository_id!: number;
  @ApiProperty() run_id!: number;
  @ApiProperty() workflow_name!: string;
  @ApiProperty({ nullable: true, type: String }) head_branch!: string | null;
  @ApiProperty({ nullable: true, type: String }) head_sha!: string | null;
  @ApiProperty() status!: string;
  @ApiProperty({ nullable: true, type: String }) conclusion!: string | null;
  @ApiProperty({ description: `Whether the conclusion counts as failed (${FAILED_RUN_CONCLUSIONS.join(', ')}): notified, counted by the dashboard, the metric and the digest` })
  failed!: boolean;
  @ApiProperty() run_attempt!: number;
  @ApiProperty() html_url!: string;
  @ApiProperty() updated_at!: string;

  static of(row: WorkflowRunEntity): WorkflowRunDto {
    return {
      id: row.id,
      repository_id: row.repositoryId,
      run_id: row.runId,
      workflow_name: row.workflowName,
      head_branch: row.headBranch,
      head_sha: row.headSha,
      status: row.status,
      conclusion: row.conclusion,
      failed: isFailedRunConclusion(row.conclusion),
      run_attempt: row.runAttempt,
      html_url: row.htmlUrl,
      updated_at: row.updatedAt.toISOString(),
    };
  }
}

export class WorkflowRunListDto extends ListPageDto {
  @ApiProperty({ type: [WorkflowRunDto] }) items!: WorkflowRunDto[];
}

export class WorkflowRunQueryDto extends PageQueryDto {
  @QueryInteger({ min: 1, max: MAX_ROW_ID }) repository_id?: number;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(32) conclusion?: string;
  @ApiPropertyOptional({ description: 'queued, in_progress, completed, ...' }) @IsOptional() @IsString() @MaxLength(32) status?: string;
  @SearchText('Text in the workflow name, branch or commit SHA, ignoring case') q?: string;
}

@ApiTags('workflow-runs')
@ApiCookieAuth(COOKIE_SCHEME)
@ApiSecurity(AGENT_SCHEME)
@Controller('api/v1/workflow-runs')
export class WorkflowRunsController {
  constructor(private readonly runs: WorkflowRunRepository) {}

  @Get()
  @ApiOperation({ summary: 'Workflow runs, most recently updated first' })
  @ApiOkResponse({ type: WorkflowRunListDto })
  async list(@Query() query: WorkflowRunQueryDto): Promise<ListPage<WorkflowRunDto>> {
    const window = pageWindow(query);
    const found = await this.runs.find({ repositoryId: query.repository_id, conclusion: query.conclusion, status: query.status, text: query.q }, window);
    return listPage(found.rows.map(WorkflowRunDto.of), found.total, window);
  }
}
