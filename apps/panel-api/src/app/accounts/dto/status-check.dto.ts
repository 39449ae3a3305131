import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { ACCOUNT_NAME_PATTERN } from '../account-name';
import { ACCOUNT_NAME_RULE } from './account.dto';

export class StatusCheckDto {
  @ApiPropertyOptional({ type: [String], maxItems: 200, description: 'Accounts to check; every account when absent or empty' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(200)
  @IsString({ each: true })
  @Matches(ACCOUNT_NAME_PATTERN, { each: true, message: `each account name must be ${ACCOUNT_NAME_RULE}` })
  account_names?: string[];

  @ApiPropertyOptional({ minimum: 1, maximum: 20, default: 8, description: 'Deadline per account, in seconds' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(20)
  timeout_seconds?: number;
}

export class AccountCheckResultDto {
  @ApiProperty() account_name!: string;
  @ApiProperty() ok!: boolean;
  @ApiProperty({
    enum: ['OK', 'ACCOUNT_NOT_FOUND', 'ACCOUNT_SESSION_INVALID', 'CLIENT_INIT_FAILED', 'TIMEOUT', 'CONNECTION_ERROR', 'STORAGE_PERMISSION_DENIED', 'FLOOD_WAIT', 'STATUS_CHECK_FAILED'],
  })
  code!: string;
  @ApiProperty() message!: string;
  @ApiProperty({ enum: ['connected', 'invalid', 'checking', 'error', 'not_found'] }) status!: string;
  @ApiProperty() needs_relogin!: boolean;
  @ApiProperty({ format: 'date-time' }) checked_at!: string;
}

export class AbnormalAccountDto {
  @ApiProperty() account_name!: string;
  @ApiProperty() code!: string;
  @ApiProperty() message!: string;
}

export class CheckSummaryDto {
  @ApiProperty() total!: number;
  @ApiProperty({ description: 'Accounts whose session works' }) normal!: number;
  @ApiProperty({ description: 'Accounts with any other result' }) abnormal!: number;
  @ApiProperty({ type: [AccountCheckResultDto] }) results!: AccountCheckResultDto[];
  @ApiProperty({ type: [AbnormalAccountDto] }) abnormal_accounts!: AbnormalAccountDto[];
}

export class CheckJobStartedDto {
  @ApiProperty({ format: 'uuid' }) job_id!: string;
  @ApiProperty({ example: 'running' }) status!: string;
  @ApiProperty() total!: number;
}

export class CheckJobProgressDto {
  @ApiProperty() done!: number;
  @ApiProperty() total!: number;
}

export class CheckJobDto {
  @ApiProperty({ format: 'uuid' }) job_id!: string;
  @ApiProperty({ enum: ['running', 'canceling', 'canceled', 'completed', 'failed', 'interrupted'] }) status!: string;
  @ApiProperty({ type: CheckJobProgressDto }) progress!: CheckJobProgressDto;
  @ApiProperty({ type: CheckSummaryDto, description: 'Partial while running' }) result!: CheckSummaryDto;
  @ApiProperty({ nullable: true, type: String }) error!: string | null;
  @ApiProperty({ type: [String] }) account_names!: string[];
  @ApiProperty() timeout_seconds!: number;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) finished_at!: string | null;
}
