import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, MaxLength, ValidateBy, ValidationOptions } from 'class-validator';

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
    description: 'The configuration JSON (as exported), as a JSON string or an object',
    oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: true }],
  })
  @IsJsonDocument()
  config_json!: string | Record<string, unknown>;

  @ApiPropertyOptional({ default: false, description: 'Replace tasks and settings that exist; otherwise they are skipped' })
  @IsOptional()
  @IsBoolean()
  overwrite?: boolean;
}

export class SignNameParamDto {
  @ApiProperty({ description: 'Name of the sign task' })
  @MaxLength(64)
  name!: string;
}

export class PlannedItemDto {
  @ApiProperty({ example: 'signs' }) section!: string;
  @ApiProperty({ nullable: true, type: String }) name!: string | null;
  @ApiProperty({ enum: ['create', 'overwrite', 'skip', 'refuse'] }) action!: string;
  @ApiProperty({ nullable: true, type: String }) reason!: string | null;
}

export class PlannedSettingsDto {
  @ApiProperty() present!: boolean;
  @ApiProperty({ enum: ['overwrite', 'unchanged', 'skip', 'refuse', 'absent'] }) action!: string;
  @ApiProperty({ type: [String], example: ['global.timezone'] }) changed_fields!: string[];
  @ApiProperty({ type: [String], description: 'Secrets given as a placeholder: the stored value stays' }) kept_secrets!: string[];
  @ApiProperty({ nullable: true, type: String }) reason!: string | null;
}

export class ImportCountsDto {
  @ApiProperty() create!: number;
  @ApiProperty() overwrite!: number;
  @ApiProperty() skip!: number;
  @ApiProperty() refuse!: number;
}

export class ImportPreviewDto {
  @ApiProperty({ description: 'Whether importing this would be accepted' }) valid!: boolean;
  @ApiProperty() overwrite!: boolean;
  @ApiProperty({ type: [String] }) problems!: string[];
  @ApiProperty({ type: [PlannedItemDto] }) items!: PlannedItemDto[];
  @ApiProperty({ type: PlannedSettingsDto }) settings!: PlannedSettingsDto;
  @ApiProperty({ type: ImportCountsDto }) counts!: ImportCountsDto;
}

export class PostImportResultDto {
  @ApiProperty({ example: 'scheduler' }) name!: string;
  @ApiProperty() ok!: boolean;
  @ApiProperty({ nullable: true, type: String }) error!: string | null;
}

export class ImportResultDto {
  @ApiProperty({ type: [PlannedItemDto] }) created!: PlannedItemDto[];
  @ApiProperty({ type: [PlannedItemDto] }) overwritten!: PlannedItemDto[];
  @ApiProperty({ type: [PlannedItemDto] }) skipped!: PlannedItemDto[];
  @ApiProperty({ type: PlannedSettingsDto }) settings!: PlannedSettingsDto;
  @ApiProperty({ type: [PostImportResultDto], description: 'Scheduler re-sync, listener restart and other steps after the import' })
  post_import!: PostImportResultDto[];
  @ApiProperty() note!: string;
}
