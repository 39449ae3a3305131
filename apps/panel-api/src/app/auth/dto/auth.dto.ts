import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EmptyAsUndefined } from '@shared/config';
import { IsOptional, IsString, Length, Matches, MaxLength, MinLength } from 'class-validator';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../password-rule';

const TOTP_CODE = /^\d{6}$/;
const USERNAME = /^[A-Za-z0-9_.@-]+$/;

export class LoginDto {
  @ApiProperty({ example: 'admin' })
  @IsString()
  @Length(1, 64)
  username!: string;

  @ApiProperty({ format: 'password' })
  @IsString()
  @Length(1, 256)
  password!: string;

  @ApiPropertyOptional({ description: 'Six-digit code; required only when TOTP is enabled', example: '123456' })
  @IsOptional()
  @EmptyAsUndefined()
  @Matches(TOTP_CODE, { message: 'totp_code must be six digits' })
  totp_code?: string;
}

export class AccessTokenDto {
  @ApiProperty({ description: 'JWT (HS256); send it as Authorization: Bearer <access_token>' })
  access_token!: string;

  @ApiProperty({ enum: ['bearer'] })
  token_type!: 'bearer';

  @ApiProperty({ description: 'Lifetime of the token in seconds' })
  expires_in!: number;
}

export class MeDto {
  @ApiProperty() username!: string;
  @ApiProperty() totp_enabled!: boolean;
  @ApiProperty({ type: String, format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: String, format: 'date-time' }) updated_at!: string;
}

export class ChangePasswordDto {
  @ApiProperty({ format: 'password' })
  @IsString()
  @Length(1, 256)
  current_password!: string;

  @ApiProperty({ format: 'password', minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH, description: 'The password rule of both apps: 12 to 256 characters' })
  @IsString()
  @MinLength(PASSWORD_MIN_LENGTH)
  @MaxLength(PASSWORD_MAX_LENGTH)
  new_password!: string;
}

export class ChangeUsernameDto {
  @ApiProperty({ format: 'password' })
  @IsString()
  @Length(1, 256)
  current_password!: string;

  @ApiProperty({ example: 'owner', description: 'Letters, digits and _ . @ -; at most 64 characters' })
  @IsString()
  @Length(1, 64)
  @Matches(USERNAME, { message: 'new_username may contain only letters, digits and _ . @ -' })
  new_username!: string;
}

export class TotpSetupRequestDto {
  @ApiProperty({ format: 'password', description: 'The current password: a token alone cannot set up a second factor' })
  @IsString()
  @Length(1, 256)
  current_password!: string;
}

export class TotpEnableDto {
  @ApiProperty({ example: '123456', description: 'A code from the authenticator app for the pending secret' })
  @IsString()
  @Matches(TOTP_CODE, { message: 'code must be six digits' })
  code!: string;

  @ApiProperty({ format: 'password', description: 'The current password' })
  @IsString()
  @Length(1, 256)
  current_password!: string;
}

export class TotpEnabledDto {
  @ApiProperty({ enum: [true] }) totp_enabled!: true;
  @ApiProperty({ description: 'A fresh token for the caller: enabling TOTP signs out every other session, this one continues with it' })
  access_token!: string;
  @ApiProperty({ enum: ['bearer'] }) token_type!: 'bearer';
  @ApiProperty({ description: 'Lifetime of the token in seconds' }) expires_in!: number;
}

export class TotpCodeDto {
  @ApiProperty({ example: '123456' })
  @IsString()
  @Matches(TOTP_CODE, { message: 'code must be six digits' })
  code!: string;
}

export class TotpSetupDto {
  @ApiProperty({ description: 'Base32 secret, for manual entry' })
  secret!: string;

  @ApiProperty({ example: 'otpauth://totp/SignPulse:admin?secret=...&issuer=SignPulse' })
  otpauth_uri!: string;

  @ApiProperty({ description: 'The otpauth URI as a PNG QR code data URL' })
  qr_code_data_url!: string;
}

export class TotpStatusDto {
  @ApiProperty() totp_enabled!: boolean;
}
