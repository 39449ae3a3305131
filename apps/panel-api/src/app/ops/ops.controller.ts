import { Controller, Get, HttpCode, Inject, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import { BEARER_SCHEME } from '../openapi';
import {
  MemoryReportDto,
  RuntimeComponentStatusDto,
  RuntimeStatusDto,
  UpdateCheckQueryDto,
  UpdateCheckResultDto,
  VersionInfoDto,
} from './dto/ops.dto';
import { MemoryMonitor } from './memory-monitor.service';
import { RuntimeStatusRegistry } from './runtime-status.registry';
import { VersionService } from './version.service';

const processStartedAt = new Date(Date.now() - process.uptime() * 1000);

@ApiTags('ops')
@ApiBearerAuth(BEARER_SCHEME)
@ApiUnauthorizedResponse({ description: 'Missing or invalid access token' })
@ApiExtraModels(RuntimeComponentStatusDto)
@Controller('api/ops')
export class OpsController {
  constructor(
    private readonly versions: VersionService,
    private readonly memory: MemoryMonitor,
    private readonly runtimeStatus: RuntimeStatusRegistry,
    @Inject(PANEL_CONFIG) private readonly config: PanelConfig,
  ) {}

  @Get('version')
  @ApiOperation({ summary: 'Local version, Git SHA, branch, build time and Node version' })
  @ApiOkResponse({ type: VersionInfoDto })
  version(): VersionInfoDto {
    return this.versions.info();
  }

  @Post('version/check')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Compare with the latest release of the release feed (cached; APP_UPDATE_CHECK=0 disables; failures answer 200 with ok=false)',
  })
  @ApiOkResponse({ type: UpdateCheckResultDto })
  checkVersion(@Query() query: UpdateCheckQueryDto): Promise<UpdateCheckResultDto> {
    return this.versions.checkForUpdate(query.force ?? false);
  }

  @Get('memory')
  @ApiOperation({ summary: 'Process and heap memory figures with the memory monitor samples' })
  @ApiOkResponse({ type: MemoryReportDto })
  memoryReport(): MemoryReportDto {
    return this.memory.snapshot();
  }

  @Get('runtime-status')
  @ApiOperation({ summary: 'State of the scheduler, listeners, automatic backup and other running parts' })
  @ApiOkResponse({ type: RuntimeStatusDto })
  async runtime(): Promise<RuntimeStatusDto> {
    return {
      started_at: processStartedAt.toISOString(),
      uptime_seconds: Math.round(process.uptime()),
      pid: process.pid,
      database_driver: this.config.database.driver,
      components: await this.runtimeStatus.collect(),
    };
  }
}
