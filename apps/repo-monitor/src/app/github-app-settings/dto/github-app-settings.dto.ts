import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, IsUrl, Matches, MaxLength, MinLength } from 'class-validator';

export const GITHUB_APP_FIELDS = ['app_id', 'client_id', 'private_key', 'webhook_secret', 'public_base_url'] as const;
export type GithubAppField = (typeof GITHUB_APP_FIELDS)[number];

/** A field left out is unchanged; `null` clears the stored value. Fields set by environment are locked. */
export class UpdateGithubAppSettingsDto {
  @ApiPropertyOptional({ type: String, nullable: true, example: '123456', description: 'Numeric GitHub App id' })
  @IsOptional()
  @Matches(/^\d{1,12}$/, { message: 'app_id must be a numeric app id' })
  app_id?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'Iv1.0123456789abcdef' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  client_id?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'PEM private key of the app; stored encrypted, never returned' })
  @IsOptional()
  @IsString()
  @MaxLength(16_384)
  private_key?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Inbound webhook secret (X-Hub-Signature-256); stored encrypted, never returned' })
  @IsOptional()
  @IsString()
  @MinLength(8)
  @MaxLength(256)
  webhook_secret?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'https://monitor.example.com' })
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false }, { message: 'public_base_url must be an http(s) URL' })
  @MaxLength(2048)
  public_base_url?: string | null;
}

export class GithubAppSettingsDto {
  @ApiProperty({ nullable: true, type: String }) app_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) client_id!: string | null;
  @ApiProperty() private_key_set!: boolean;
  @ApiProperty() webhook_secret_set!: boolean;
  @ApiProperty({ nullable: true, type: String }) public_base_url!: string | null;
  @ApiProperty({ description: 'Whether app id, client id and private key are all known' }) configured!: boolean;
  @ApiProperty({ enum: GITHUB_APP_FIELDS, isArray: true, description: 'Fields set by environment; writes to them are 409 github_field_locked' })
  locked_fields!: GithubAppField[];
}
