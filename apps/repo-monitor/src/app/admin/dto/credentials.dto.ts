import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../password-rule';

export class SetupRequestDto {
  @ApiProperty({ example: 'admin', description: '1-64 letters, digits or _.@-' })
  @IsString()
  @Matches(/^[A-Za-z0-9_.@-]{1,64}$/, { message: 'username must be 1-64 letters, digits or _.@-' })
  username!: string;

  @ApiProperty({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH })
  @IsString()
  @MinLength(PASSWORD_MIN_LENGTH)
  @MaxLength(PASSWORD_MAX_LENGTH)
  password!: string;
}

export class LoginRequestDto {
  @ApiProperty({ example: 'admin' })
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  username!: string;

  @ApiProperty()
  @IsString()
  @MinLength(1)
  @MaxLength(PASSWORD_MAX_LENGTH)
  password!: string;
}

export class ChangePasswordRequestDto {
  @ApiProperty()
  @IsString()
  @MinLength(1)
  @MaxLength(PASSWORD_MAX_LENGTH)
  current_password!: string;

  @ApiProperty({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH })
  @IsString()
  @MinLength(PASSWORD_MIN_LENGTH)
  @MaxLength(PASSWORD_MAX_LENGTH)
  new_password!: string;
}

export class SetupStatusDto {
  @ApiProperty({ description: 'Whether the admin account exists (setup then answers 404)' })
  admin_exists!: boolean;

  @ApiProperty({ description: 'Whether POST /api/v1/setup would be accepted from this client' })
  setup_allowed!: boolean;

  @ApiProperty({ description: 'MONITOR_SETUP_ALLOW_REMOTE' })
  remote_setup_allowed!: boolean;
}

export class SetupResultDto {
  @ApiProperty()
  username!: string;
}

export class LoginResultDto {
  @ApiProperty()
  username!: string;

  @ApiProperty({ description: 'Send as X-CSRF-Token on every write of this session' })
  csrf_token!: string;

  @ApiProperty({ format: 'date-time' })
  expires_at!: string;
}

export class SessionInfoDto {
  @ApiProperty()
  username!: string;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ format: 'date-time' })
  expires_at!: string;
}
