import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ToBoolean } from '@shared/config';
import { IsBoolean, IsOptional } from 'class-validator';

export class UpdateCheckQueryDto {
  @ApiPropertyOptional({ description: 'Ask the release feed even when a cached answer exists', default: false })
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  force?: boolean;
}

export class VersionInfoDto {
  @ApiProperty({ example: '1.4.0', description: 'APP_VERSION when set (and not 0.0.0), else the package version' })
  version!: string;
  @ApiProperty({ example: '1.4.0' })
  package_version!: string;
  @ApiProperty({ nullable: true, type: String }) git_sha!: string | null;
  @ApiProperty({ nullable: true, type: String }) git_branch!: string | null;
  @ApiProperty({ nullable: true, type: String }) build_time!: string | null;
  @ApiProperty({ example: 'node' }) runtime!: string;
  @ApiProperty({ example: 'v20.19.0' }) node_version!: string;
}

export class UpdateCheckResultDto {
  @ApiProperty({ description: 'false when APP_UPDATE_CHECK=0' }) enabled!: boolean;
  @ApiProperty({ description: 'false when the check failed; the reason says why (the request still answers 200)' })
  ok!: boolean;
  @ApiProperty() current_version!: string;
  @ApiProperty({ nullable: true, type: String }) latest_version!: string | null;
  @ApiProperty({ nullable: true, type: Boolean }) update_available!: boolean | null;
  @ApiProperty({ nullable: true, type: String }) release_url!: string | null;
  @ApiProperty({ nullable: true, type: String }) published_at!: string | null;
  @ApiProperty({ nullable: true, type: String }) checked_at!: string | null;
  @ApiProperty({ description: 'true when this answer came from the cache' }) cached!: boolean;
  @ApiProperty({ nullable: true, type: String }) reason!: string | null;
}

export class MemorySampleDto {
  @ApiProperty() at!: string;
  @ApiProperty() rss_bytes!: number;
  @ApiProperty() heap_total_bytes!: number;
  @ApiProperty() heap_used_bytes!: number;
  @ApiProperty() external_bytes!: number;
  @ApiProperty() array_buffers_bytes!: number;
}

export class MemoryReportDto {
  @ApiProperty() running!: boolean;
  @ApiProperty({ nullable: true, type: String }) started_at!: string | null;
  @ApiProperty() sample_interval_seconds!: number;
  @ApiProperty({ type: MemorySampleDto }) current!: MemorySampleDto;
  @ApiProperty() peak_rss_bytes!: number;
  @ApiProperty({ type: [MemorySampleDto], description: 'The last hour of samples, oldest first' })
  samples!: MemorySampleDto[];
}

export class RuntimeComponentStatusDto {
  @ApiProperty({ enum: ['running', 'idle', 'disabled', 'stopped', 'degraded', 'error'] }) state!: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) details?: Record<string, unknown>;
}

export class RuntimeStatusDto {
  @ApiProperty() started_at!: string;
  @ApiProperty() uptime_seconds!: number;
  @ApiProperty() pid!: number;
  @ApiProperty({ enum: ['sqlite', 'postgres'] }) database_driver!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/RuntimeComponentStatusDto' },
    description: 'One entry per feature that reports its state (scheduler, listeners, automatic backup, …)',
  })
  components!: Record<string, RuntimeComponentStatusDto>;
}
