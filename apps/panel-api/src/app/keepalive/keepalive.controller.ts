import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBearerAuth, ApiConflictResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';
import { BEARER_SCHEME } from '../openapi';
import { KeepaliveService } from './keepalive.service';

export class KeepaliveRunDto {
  @ApiPropertyOptional({ default: false, description: 'Wake every account, not only those whose last keep-alive is older than the interval' })
  @IsOptional()
  @IsBoolean()
  force?: boolean;
}

export class KeepaliveAccountResultDto {
  @ApiProperty() account_name!: string;
  @ApiProperty({ enum: ['woken', 'skipped_not_due', 'skipped_needs_relogin', 'failed'] }) outcome!: string;
  @ApiProperty({ nullable: true, type: String, example: 'OK' }) code!: string | null;
  @ApiProperty() message!: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) last_keepalive_at!: string | null;
}

export class KeepaliveRunResultDto {
  @ApiProperty({ enum: ['schedule', 'manual'] }) trigger!: string;
  @ApiProperty({ format: 'date-time' }) started_at!: string;
  @ApiProperty({ format: 'date-time' }) finished_at!: string;
  @ApiProperty() woken!: number;
  @ApiProperty() failed!: number;
  @ApiProperty() skipped!: number;
  @ApiProperty({ type: [KeepaliveAccountResultDto] }) results!: KeepaliveAccountResultDto[];
}

@ApiTags('settings')
@ApiBearerAuth(BEARER_SCHEME)
@ApiUnauthorizedResponse({ description: 'Missing or invalid access token' })
@Controller('api/config/settings/device-keepalive')
export class KeepaliveController {
  constructor(private readonly keepalive: KeepaliveService) {}

  @Post('run')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Run device keep-alive now and return per-account results',
    description: 'Wakes accounts whose last keep-alive is older than device_keepalive_interval_days (every account with force). Runs even when the daily job is disabled.',
  })
  @ApiOkResponse({ type: KeepaliveRunResultDto })
  @ApiBadRequestResponse({ description: 'Invalid body' })
  @ApiConflictResponse({ description: 'A keep-alive run is already in progress' })
  async run(@Body() body: KeepaliveRunDto): Promise<KeepaliveRunResultDto> {
    return this.keepalive.run({ trigger: 'manual', force: body.force ?? false });
  }
}
