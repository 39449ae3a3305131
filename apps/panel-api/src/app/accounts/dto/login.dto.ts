import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { ACCOUNT_NAME_PATTERN } from '../account-name';
import { ACCOUNT_NAME_RULE, AccountDto } from './account.dto';

const trimmed = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.trim() : value);

export class LoginStartDto {
  @ApiProperty({ example: 'main', description: ACCOUNT_NAME_RULE })
  @IsString()
  @Matches(ACCOUNT_NAME_PATTERN, { message: `account_name must be ${ACCOUNT_NAME_RULE}` })
  account_name!: string;

  @ApiProperty({ example: '+31612345678' })
  @Transform(trimmed)
  @IsString()
  @Matches(/^\+?[0-9][0-9 ()-]{4,24}$/, { message: 'phone_number must be an international phone number such as +31612345678' })
  phone_number!: string;

  @ApiPropertyOptional({ example: 'socks5://127.0.0.1:1080' }) @IsOptional() @Transform(trimmed) @IsString() @MaxLength(1000) proxy?: string;
}

export class LoginStartResultDto {
  @ApiProperty() account_name!: string;
  @ApiProperty({ example: 'code_sent' }) status!: 'code_sent';
  @ApiProperty({ description: 'Where Telegram sent the code: app (official messages), sms, call, …' }) code_type!: string;
}

export class LoginVerifyDto {
  @ApiProperty({ example: 'main', description: ACCOUNT_NAME_RULE })
  @IsString()
  @Matches(ACCOUNT_NAME_PATTERN, { message: `account_name must be ${ACCOUNT_NAME_RULE}` })
  account_name!: string;

  @ApiProperty({ example: '12345' })
  @Transform(trimmed)
  @IsString()
  @Matches(/^[0-9]{4,8}$/, { message: 'phone_code must be the 4-8 digit code Telegram sent' })
  phone_code!: string;

  @ApiPropertyOptional({ description: 'Two-step verification password, when the account has one' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  password?: string;
}

export class LoginVerifyResultDto {
  @ApiProperty({ enum: ['success', 'password_required'] }) status!: 'success' | 'password_required';
  @ApiProperty() account_name!: string;
  @ApiPropertyOptional({ description: 'Hint of the 2FA password when status is password_required' }) password_hint?: string;
  @ApiPropertyOptional({ type: AccountDto }) account?: AccountDto;
}

export class QrLoginStartDto {
  @ApiProperty({ example: 'main', description: ACCOUNT_NAME_RULE })
  @IsString()
  @Matches(ACCOUNT_NAME_PATTERN, { message: `account_name must be ${ACCOUNT_NAME_RULE}` })
  account_name!: string;

  @ApiPropertyOptional({ example: 'socks5://127.0.0.1:1080' }) @IsOptional() @Transform(trimmed) @IsString() @MaxLength(1000) proxy?: string;
}

export class QrLoginPasswordDto {
  @ApiProperty() @IsString() @MinLength(1) @MaxLength(256) password!: string;
}

export class QrLoginStatusDto {
  @ApiProperty() login_id!: string;
  @ApiProperty() account_name!: string;
  @ApiProperty({ enum: ['waiting_scan', 'scanned_wait_confirm', 'password_required', 'success', 'expired', 'failed'] }) state!: string;
  @ApiPropertyOptional({ example: 'tg://login?token=…' }) qr_url?: string;
  @ApiPropertyOptional({ format: 'date-time' }) expires_at?: string;
  @ApiPropertyOptional() password_hint?: string;
  @ApiPropertyOptional() error?: string;
  @ApiPropertyOptional({ type: AccountDto }) account?: AccountDto;
}
