import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, IsUrl, Matches, MaxLength, MinLength } from 'class-validator';
import { ParsesAsHttpUrl } from '../../common/http-url';

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

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 16_384,
    description:
      'The RSA private key GitHub generated for the App, as PEM text (the content of the downloaded .pem file; PKCS#1 or PKCS#8, ' +
      'not encrypted). Stored encrypted, never returned',
  })
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
  @ParsesAsHttpUrl('public_base_url')
  @MaxLength(2048)
  public_base_url?: string | null;
}

export class GithubAppSettingsDto {
  @ApiProperty({ nullable: true, type: String }) app_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) client_id!: string | null;
  @ApiProperty() private_key_set!: boolean;
  @ApiProperty() webhook_secret_set!: boolean;
  @ApiProperty({ nullable: true, type: String, description: 'The App slug, known when it was created from the console (github.com/apps/<slug>)' })
  app_slug!: string | null;
  @ApiProperty({ description: 'Whether the App client secret is stored (from the manifest flow); never returned' }) client_secret_set!: boolean;
  @ApiProperty({ nullable: true, type: String }) public_base_url!: string | null;
  @ApiProperty({ description: 'Whether app id, client id and private key are all known' }) configured!: boolean;
  @ApiProperty({ enum: GITHUB_APP_FIELDS, isArray: true, description: 'Fields set by environment; writes to them are 409 github_field_locked' })
  locked_fields!: GithubAppField[];
}

export class StartManifestFlowDto {
  @ApiPropertyOptional({
    description: 'Create the App in this organization (its login); left out, in the personal account of whoever is signed in to GitHub',
    example: 'octo-org',
  })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/, { message: 'organization must be a GitHub organization login' })
  organization?: string;

  @ApiPropertyOptional({ description: 'The App name GitHub shows (unique on GitHub; it can be changed there)', maxLength: 34, example: 'repo-monitor-example' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(34)
  @Matches(/^[A-Za-z0-9 ._()-]+$/, { message: 'name may hold letters, digits, spaces and . _ ( ) -' })
  name?: string;

  @ApiPropertyOptional({
    description: 'Ask for pull requests: write, which the AI review needs to keep its comment on the PR; left out, every permission is read-only',
    default: false,
  })
  @IsOptional()
  @IsBoolean()
  allow_pr_comments?: boolean;
}

export class GithubAppManifestDto {
  @ApiProperty() name!: string;
  @ApiProperty() url!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ type: 'object', properties: { url: { type: 'string' }, active: { type: 'boolean' } }, required: ['url', 'active'] })
  hook_attributes!: { url: string; active: boolean };
  @ApiProperty({ description: 'Where GitHub sends the browser back with ?code=&state=' }) redirect_url!: string;
  @ApiProperty({ type: [String] }) callback_urls!: string[];
  @ApiProperty() public!: boolean;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string', enum: ['read', 'write'] } }) default_permissions!: Record<string, 'read' | 'write'>;
  @ApiProperty({ type: [String] }) default_events!: string[];
}

export class ManifestFlowStartDto {
  @ApiProperty({
    description: 'POST a form here with one field, `manifest` (the JSON of `manifest`), as a top-level browser navigation; the state is in the query already',
    example: 'https://github.com/settings/apps/new?state=…',
  })
  post_url!: string;
  @ApiProperty({ type: GithubAppManifestDto }) manifest!: GithubAppManifestDto;
  @ApiProperty({ description: 'Single use, bound to this session' }) state!: string;
  @ApiProperty({ format: 'date-time', description: 'The state is refused after this' }) expires_at!: string;
}
