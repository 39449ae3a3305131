import { Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional } from 'class-validator';
import { AGENT_SCHEME, COOKIE_SCHEME, CSRF_SCHEME } from '../openapi';
import { UpdateCheckResult } from '@shared/update-check';
import { SystemVersionService, VersionInfo } from './system-version.service';

export class UpdateCheckQueryDto {
  @ApiPropertyOptional({ description: 'Ask the update source even when a cached answer exists', default: false })
  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  force?: boolean;
}

export class VersionInfoDto implements VersionInfo {
  @ApiProperty({ example: '1.2.0', description: 'APP_VERSION when set, else the package version' }) version!: string;
  @ApiProperty() package_version!: string;
  @ApiProperty({ nullable: true, type: String }) git_sha!: string | null;
  @ApiProperty({ nullable: true, type: String }) git_branch!: string | null;
  @ApiProperty({ nullable: true, type: String }) build_time!: string | null;
  @ApiProperty({ example: 'v20.19.0' }) node_version!: string;
  @ApiProperty({ description: 'false with MONITOR_UPDATE_CHECK=false' }) update_check_enabled!: boolean;
}

export class UpdateCheckResultDto implements UpdateCheckResult {
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ description: 'false when the check failed; `reason` says why (the request still answers 200)' }) ok!: boolean;
  @ApiProperty() current_version!: string;
  @ApiProperty({ nullable: true, type: String }) latest_version!: string | null;
  @ApiProperty({ nullable: true, type: Boolean }) update_available!: boolean | null;
  @ApiProperty({ nullable: true, type: String }) release_url!: string | null;
  @ApiProperty({ nullable: true, type: String }) published_at!: string | null;
  @ApiProperty({ nullable: true, type: String }) checked_at!: string | null;
  @ApiProperty({ description: 'true when the answer came from the cache' }) cached!: boolean;
  @ApiProperty({ nullable: true, type: String }) reason!: string | null;
}

@ApiTags('system')
@ApiCookieAuth(COOKIE_SCHEME)
@ApiSecurity(AGENT_SCHEME)
@Controller('api/v1/system/version')
export class SystemVersionController {
  constructor(private readonly versions: SystemVersionService) {}

  @Get()
  @ApiOperation({ summary: 'Local version and build data' })
  @ApiOkResponse({ type: VersionInfoDto })
  get(): VersionInfoDto {
    return this.versions.info();
  }

  @Post('check')
  @HttpCode(200)
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({ summary: 'Checks MONITOR_UPDATE_CHECK_URL for a newer release; failures are soft (ok: false), answers are cached' })
  @ApiOkResponse({ type: UpdateCheckResultDto })
  check(@Query() query: UpdateCheckQueryDto): Promise<UpdateCheckResultDto> {
    return this.versions.check(query.force ?? false);
  }
}
