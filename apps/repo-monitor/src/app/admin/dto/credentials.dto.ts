import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';

const TOTP_CODE = /^\d{6}$/;
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

  @ApiPropertyOptional({ description: 'The six-digit code of the authenticator app; needed when the second factor is on', example: '123456' })
  @IsOptional()
  @IsString()
  @Matches(TOTP_CODE, { message: 'totp_code must be six digits' })
  totp_code?: string;
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

  @ApiProperty({ description: 'Whether sign-in asks for a TOTP code' })
  totp_enabled!: boolean;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ format: 'date-time' })
  expires_at!: string;
}

export class TotpStatusDto {
  @ApiProperty({ description: 'Whether sign-in asks for a TOTP code' })
  totp_enabled!: boolean;

  @ApiProperty({ description: 'A secret from setup is waiting to be turned on with a code' })
  setup_pending!: boolean;
}

export class TotpSetupDto {
  @ApiProperty({ description: 'Base32 secret to type into an authenticator app; shown only now' })
  secret!: string;

  @ApiProperty({ description: 'otpauth:// URI for a QR code', example: 'otpauth://totp/repo-monitor:admin?secret=...&issuer=repo-monitor' })
  otpauth_uri!: string;
}

export class TotpConfirmDto {
  @ApiProperty({ description: 'The current admin password' })
  @IsString()
  @MinLength(1)
  @MaxLength(PASSWORD_MAX_LENGTH)
  current_password!: string;

  @ApiProperty({ description: 'The six-digit code the authenticator app shows now', example: '123456' })
  @IsString()
  @Matches(TOTP_CODE, { message: 'code must be six digits' })
  code!: string;
}
