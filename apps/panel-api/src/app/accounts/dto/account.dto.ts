import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { describeProxy } from '../account-proxy';
import { ACCOUNT_NAME_PATTERN } from '../account-name';
import { AccountRecord } from '../account-store';

export const ACCOUNT_NAME_RULE =
  'letters (any script, e.g. 主号), digits, "_", "-" or "."; 1-64 characters; no leading dot; not status, login, qr-login or import-session';
const PROXY_EXAMPLE = 'socks5://user:pass@127.0.0.1:1080';

export class AccountUserDto {
  @ApiProperty() id!: string;
  @ApiProperty({ nullable: true, type: String }) username!: string | null;
  @ApiProperty({ nullable: true, type: String }) first_name!: string | null;
  @ApiProperty({ nullable: true, type: String }) phone!: string | null;
}

export class AccountLastCheckDto {
  @ApiProperty({ format: 'date-time' }) checked_at!: string;
  @ApiProperty({ example: 'OK' }) code!: string;
  @ApiProperty() message!: string;
}

export class AccountDto {
  @ApiProperty({ example: 'main' }) account_name!: string;
  @ApiProperty({
    nullable: true,
    enum: ['connected', 'invalid', 'checking', 'error', 'not_found'],
    description: 'null until the first status check (for example after import-session)',
  })
  status!: string | null;
  @ApiProperty() needs_relogin!: boolean;
  @ApiProperty({ nullable: true, type: String }) remark!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'Proxy URL; password and MTProxy secret masked', example: 'socks5://user:***@127.0.0.1:1080' })
  proxy!: string | null;
  @ApiProperty({ description: 'False when the session file is missing (log in again)' }) has_session!: boolean;
  @ApiProperty({ nullable: true, type: AccountUserDto }) user!: AccountUserDto | null;
  @ApiProperty({ nullable: true, type: AccountLastCheckDto }) last_check!: AccountLastCheckDto | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export function accountView(record: AccountRecord): AccountDto {
  return {
    account_name: record.account_name,
    status: record.has_session ? record.status : 'not_found',
    needs_relogin: record.needs_relogin,
    remark: record.remark,
    proxy: describeProxy(record.proxy ?? undefined),
    has_session: record.has_session,
    user: record.user,
    last_check: record.last_check,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

export class AccountListDto {
  @ApiProperty({ type: [AccountDto] }) accounts!: AccountDto[];
  @ApiProperty() total!: number;
}

const trimmed = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.trim() : value);

export class UpdateAccountDto {
  @ApiPropertyOptional({ nullable: true, type: String, maxLength: 200, description: 'null or "" clears it' })
  @IsOptional()
  @ValidateIf((_object, value) => value !== null)
  @IsString()
  @MaxLength(200)
  remark?: string | null;

  @ApiPropertyOptional({
    nullable: true,
    type: String,
    example: PROXY_EXAMPLE,
    description: 'socks5://, socks4://, http:// URL, mtproxy://<secret>@host:port or tg://proxy?server=&port=&secret=; null or "" removes it',
  })
  @IsOptional()
  @ValidateIf((_object, value) => value !== null && value !== '')
  @Transform(trimmed)
  @IsString()
  @MaxLength(1000)
  proxy?: string | null;
}

export class ImportSessionDto {
  @ApiProperty({ example: 'main', description: ACCOUNT_NAME_RULE })
  @IsString()
  @Matches(ACCOUNT_NAME_PATTERN, { message: `account_name must be ${ACCOUNT_NAME_RULE}` })
  account_name!: string;

  @ApiProperty({ description: 'A GramJS (or Telethon) string session' })
  @IsString()
  @MaxLength(4096)
  session_string!: string;

  @ApiPropertyOptional({ maxLength: 200 }) @IsOptional() @IsString() @MaxLength(200) remark?: string;

  @ApiPropertyOptional({ example: PROXY_EXAMPLE }) @IsOptional() @Transform(trimmed) @IsString() @MaxLength(1000) proxy?: string;

  @ApiPropertyOptional({ description: 'Replace the session of an existing account (otherwise 409)', default: false })
  @IsOptional()
  @IsBoolean()
  overwrite?: boolean;
}
