import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export class DeviceDto {
  @ApiProperty({ description: '64-bit authorization hash as a decimal string; "0" is the current session', example: '-5823094582341' })
  auth_hash!: string;
  @ApiProperty() device_model!: string;
  @ApiProperty() platform!: string;
  @ApiProperty() system_version!: string;
  @ApiProperty() app_name!: string;
  @ApiProperty() app_version!: string;
  @ApiProperty() ip!: string;
  @ApiProperty({ example: 'North Holland, Netherlands' }) location!: string;
  @ApiProperty() country!: string;
  @ApiProperty() region!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) active_at!: string;
  @ApiProperty({ description: 'The session panel-api itself uses; it cannot be terminated here' }) current!: boolean;
  @ApiProperty({ description: 'An official Telegram client' }) official_app!: boolean;
}

export class DeviceListDto {
  @ApiProperty() account_name!: string;
  @ApiProperty({ type: [DeviceDto] }) devices!: DeviceDto[];
}

export class OfficialMessagesQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;
}

export class OfficialMessageDto {
  @ApiProperty() id!: number;
  @ApiProperty({ format: 'date-time' }) date!: string;
  @ApiProperty() text!: string;
}

export class OfficialMessageListDto {
  @ApiProperty() account_name!: string;
  @ApiProperty({ type: [OfficialMessageDto] }) messages!: OfficialMessageDto[];
}
