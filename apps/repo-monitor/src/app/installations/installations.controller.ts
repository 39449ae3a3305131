import { Controller, Get, Query } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ListPage, ListPageDto, listPage, PageQueryDto, pageWindow } from '../common/list-page';
import { AGENT_SCHEME, COOKIE_SCHEME } from '../openapi';
import { InstallationEntity } from './installation.entity';
import { InstallationRepository } from './installation.repository';

export class InstallationDto {
  @ApiProperty() id!: number;
  @ApiProperty() installation_id!: number;
  @ApiProperty() account_login!: string;
  @ApiProperty() account_type!: string;
  @ApiProperty({ enum: ['all', 'selected'] }) repository_selection!: string;
  @ApiProperty() suspended!: boolean;
  @ApiProperty({ nullable: true, type: String }) removed_at!: string | null;
  @ApiProperty({ nullable: true, type: String }) last_reconciled_at!: string | null;
  @ApiProperty() created_at!: string;

  static of(row: InstallationEntity): InstallationDto {
    return {
      id: row.id,
      installation_id: row.installationId,
      account_login: row.accountLogin,
      account_type: row.accountType,
      repository_selection: row.repositorySelection,
      suspended: row.suspended,
      removed_at: row.removedAt?.toISOString() ?? null,
      last_reconciled_at: row.lastReconciledAt?.toISOString() ?? null,
      created_at: row.createdAt.toISOString(),
    };
  }
}

export class InstallationListDto extends ListPageDto {
  @ApiProperty({ type: [InstallationDto] }) items!: InstallationDto[];
}

@ApiTags('installations')
@ApiCookieAuth(COOKIE_SCHEME)
@ApiSecurity(AGENT_SCHEME)
@Controller('api/v1/installations')
export class InstallationsController {
  constructor(private readonly installations: InstallationRepository) {}

  @Get()
  @ApiOperation({ summary: 'GitHub App installations' })
  @ApiOkResponse({ type: InstallationListDto })
  async list(@Query() query: PageQueryDto): Promise<ListPage<InstallationDto>> {
    const window = pageWindow(query);
    const found = await this.installations.find(window);
    return listPage(found.rows.map(InstallationDto.of), found.total, window);
  }
}
