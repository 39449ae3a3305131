import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, Matches } from 'class-validator';
import { SearchText } from '../../common/list-filters';
import { ListPageDto, PageQueryDto } from '../../common/list-page';
import { OptionalNotNull } from '../../common/optional-not-null';
import { RepositoryEntity } from '../repository.entity';

export class RepositoryDto {
  @ApiProperty() id!: number;
  @ApiProperty() full_name!: string;
  @ApiProperty() html_url!: string;
  @ApiProperty() private!: boolean;
  @ApiProperty({ enum: ['installation', 'external'] }) source!: string;
  @ApiProperty({ nullable: true, type: Number }) installation_id!: number | null;
  @ApiProperty({ enum: ['active', 'archived', 'removed'] }) status!: string;
  @ApiProperty({ description: 'Per-kind notification toggles', type: 'object', additionalProperties: { type: 'boolean' } })
  notify!: { issues: boolean; pull_requests: boolean; workflow_runs: boolean; security_alerts: boolean; releases: boolean; stars: boolean };
  @ApiProperty({ nullable: true, type: String }) baseline_imported_at!: string | null;
  @ApiProperty() created_at!: string;
  @ApiProperty() updated_at!: string;

  static of(row: RepositoryEntity): RepositoryDto {
    return {
      id: row.id,
      full_name: row.fullName,
      html_url: row.htmlUrl,
      private: row.private,
      source: row.source,
      installation_id: row.installationId,
      status: row.status,
      notify: {
        issues: row.notifyIssues,
        pull_requests: row.notifyPullRequests,
        workflow_runs: row.notifyWorkflowRuns,
        security_alerts: row.notifySecurityAlerts,
        releases: row.notifyReleases,
        stars: row.notifyStars,
      },
      baseline_imported_at: row.baselineImportedAt?.toISOString() ?? null,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
    };
  }
}

export class RepositoryListDto extends ListPageDto {
  @ApiProperty({ type: [RepositoryDto] }) items!: RepositoryDto[];
}

export class RepositoryListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: ['active', 'archived', 'removed'] })
  @IsOptional()
  @IsIn(['active', 'archived', 'removed'])
  status?: 'active' | 'archived' | 'removed';

  @ApiPropertyOptional({ enum: ['installation', 'external'], description: 'external: watched through MONITOR_EXTERNAL_PAT (at most 20)' })
  @IsOptional()
  @IsIn(['installation', 'external'])
  source?: 'installation' | 'external';

  @SearchText('Text in owner/name, ignoring case') q?: string;
}

/** Per-kind toggles; fields left out keep their value, null is refused. */
export class UpdateRepositoryTogglesDto {
  @ApiPropertyOptional() @OptionalNotNull() @IsBoolean() issues?: boolean;
  @ApiPropertyOptional() @OptionalNotNull() @IsBoolean() pull_requests?: boolean;
  @ApiPropertyOptional() @OptionalNotNull() @IsBoolean() workflow_runs?: boolean;
  @ApiPropertyOptional() @OptionalNotNull() @IsBoolean() security_alerts?: boolean;
  @ApiPropertyOptional() @OptionalNotNull() @IsBoolean() releases?: boolean;
  @ApiPropertyOptional() @OptionalNotNull() @IsBoolean() stars?: boolean;
}

export class AddExternalRepositoryDto {
  @ApiProperty({ example: 'octocat/Hello-World', description: 'A public repository watched through MONITOR_EXTERNAL_PAT (at most 20)' })
  @Matches(/^[A-Za-z0-9-]{1,39}\/[A-Za-z0-9._-]{1,100}$/, { message: 'full_name must be owner/name' })
  full_name!: string;
}

/** Whether the console can offer "Add external repository" (MONITOR_EXTERNAL_PAT set) and how many are watched. */
export class ExternalRepositoryAccessDto {
  @ApiProperty({ description: 'Whether MONITOR_EXTERNAL_PAT is set; without it external repositories cannot be added' }) token_configured!: boolean;
  @ApiProperty({ description: 'External repositories watched now (not removed)' }) count!: number;
  @ApiProperty({ description: 'The most external repositories that can be watched' }) limit!: number;
}
