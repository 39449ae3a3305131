import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsOptional, IsString, Matches, MaxLength, ValidateBy, ValidationOptions } from 'class-validator';
import { ACCOUNT_NAME_PATTERN } from '../../accounts/account-name';

/** A JSON text or an already parsed JSON object; anything else is refused by validation. */
function IsJsonDocument(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isJsonDocument',
      validator: {
        validate: (value) => typeof value === 'string' || (value !== null && typeof value === 'object' && !Array.isArray(value)),
        defaultMessage: () => 'config_json must be the configuration JSON as a string or an object',
      },
    },
    options,
  );
}

export class ConfigImportDto {
  @ApiProperty({
    description:
      "The configuration JSON: the reference panel's export (signs and monitors keyed by name), this panel's export, or its earlier list form; as a JSON string or an object",
    oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: true }],
  })
  @IsJsonDocument()
  config_json!: string | Record<string, unknown>;

  @ApiPropertyOptional({ default: false, description: 'Replace tasks that exist; otherwise they are skipped (settings are applied either way, as in the reference panel)' })
  @IsOptional()
  @IsBoolean()
  overwrite?: boolean;

  @ApiPropertyOptional({
    type: [String],
    example: ['signs:daily_checkin', 'monitors:auto_reply', 'settings'],
    description: "Keys of the preview's items to import, all or nothing; without it every item is imported and any refused item stops the import",
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10_000)
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  selected?: string[];

  @ApiPropertyOptional({ example: 'main', description: 'The account for items that name none (tg-signer monitors, tasks without an account)' })
  @IsOptional()
  @IsString()
  @Matches(ACCOUNT_NAME_PATTERN, { message: 'default_account must be an account name' })
  default_account?: string;
}

export class SignNameParamDto {
  @ApiProperty({ description: 'Name of the sign task' })
  @MaxLength(256)
  name!: string;
}

export class UnmappedFieldDto {
  @ApiProperty({ example: 'chats[0].source_account' }) field!: string;
  @ApiProperty({ description: 'Why it has no equivalent and what happens instead' }) note!: string;
}

export class ImportItemDto {
  @ApiProperty({ example: 'signs:daily_checkin', description: 'What `selected` names to import this item' }) key!: string;
  @ApiProperty({ enum: ['signs', 'monitors', 'settings'] }) section!: 'signs' | 'monitors' | 'settings';
  @ApiProperty({ nullable: true, type: String, description: 'The task name here; null for settings' }) name!: string | null;
  @ApiProperty({ type: [String], description: 'Keys of the document read into this item (per-account copies are merged)' }) source_keys!: string[];
  @ApiProperty({ type: [String], description: 'Accounts the task runs for ("*" = every account)' }) accounts!: string[];
  @ApiProperty({ enum: ['create', 'overwrite', 'update', 'unchanged', 'skip', 'refuse'] })
  action!: 'create' | 'overwrite' | 'update' | 'unchanged' | 'skip' | 'refuse';
  @ApiProperty({ nullable: true, type: String }) reason!: string | null;
  @ApiProperty({ type: [String], description: 'Every field taken, with its new name or form where it changes' }) mapped_fields!: string[];
  @ApiProperty({ type: [String], description: 'Every default filled in, and why' }) defaults_applied!: string[];
  @ApiProperty({ type: [UnmappedFieldDto], description: 'Fields without an equivalent here' }) unmapped_fields!: UnmappedFieldDto[];
  @ApiProperty({ type: [String] }) warnings!: string[];
  @ApiProperty({ type: [String], description: 'Why the item cannot be imported (action refuse)' }) problems!: string[];
}

export class ImportCountsDto {
  @ApiProperty() create!: number;
  @ApiProperty() overwrite!: number;
  @ApiProperty() update!: number;
  @ApiProperty() unchanged!: number;
  @ApiProperty() skip!: number;
  @ApiProperty() refuse!: number;
}

export class ImportPreviewDto {
  @ApiProperty({ description: 'Whether importing the selection (every item without one) would be accepted' }) valid!: boolean;
  @ApiProperty() overwrite!: boolean;
  @ApiProperty({ type: [String], description: 'What stops the import: problems of the document, then of each refused (selected) item' }) problems!: string[];
  @ApiProperty({ type: [ImportItemDto] }) items!: ImportItemDto[];
  @ApiProperty({ type: ImportCountsDto }) counts!: ImportCountsDto;
}

export class PostImportResultDto {
  @ApiProperty({ example: 'keyword-listeners' }) name!: string;
  @ApiProperty({ description: 'false when the step failed, e.g. a keyword listener that did not start' }) ok!: boolean;
  @ApiProperty({ nullable: true, type: String }) error!: string | null;
}

export class ImportResultDto {
  @ApiProperty({ type: [ImportItemDto] }) created!: ImportItemDto[];
  @ApiProperty({ type: [ImportItemDto] }) overwritten!: ImportItemDto[];
  @ApiProperty({ type: [ImportItemDto], description: 'Not written: existing (overwrite=false), not selected' }) skipped!: ImportItemDto[];
  @ApiProperty({ type: ImportItemDto, nullable: true, description: 'The settings item; null when the document has no settings' }) settings!: ImportItemDto | null;
  @ApiProperty({ type: [PostImportResultDto], description: 'Listener restart and other steps after the import' })
  post_import!: PostImportResultDto[];
  @ApiProperty() note!: string;
}
