import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, Equals, IsArray, IsInt, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { TASK_LIMITS } from '../../sign-tasks/sign-task.types';
import { RECIPE_FORMAT, RECIPE_VERSION } from '../recipe-catalog';

export class LocalizedTextDto {
  @ApiProperty() en!: string;
  @ApiProperty() zh!: string;
}

export class TaskRecipeDto {
  @ApiProperty({ example: 'send-command' }) id!: string;
  @ApiProperty({ type: LocalizedTextDto }) title!: LocalizedTextDto;
  @ApiProperty({ type: LocalizedTextDto }) description!: LocalizedTextDto;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'A task body without name and accounts (see POST /api/sign-tasks)' }) task!: Record<string, unknown>;
}

export class TaskRecipeListDto {
  @ApiProperty({ type: [TaskRecipeDto] }) recipes!: TaskRecipeDto[];
}

/** A task as a single shareable JSON document. */
export class RecipeDocumentDto {
  @ApiProperty({ example: RECIPE_FORMAT }) @Equals(RECIPE_FORMAT, { message: `format must be ${RECIPE_FORMAT}` }) format!: string;
  @ApiProperty({ example: RECIPE_VERSION }) @IsInt() @Equals(RECIPE_VERSION, { message: `version must be ${RECIPE_VERSION}` }) version!: number;
  @ApiPropertyOptional({ example: 'daily-checkin' }) @IsOptional() @IsString() @MaxLength(200) title?: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The task without name and accounts' }) @IsObject() task!: Record<string, unknown>;
}

export class ImportRecipeDto {
  @ApiProperty({ example: 'daily-checkin', description: 'Name of the new task' }) @IsString() name!: string;
  @ApiPropertyOptional({ example: 'main' }) @IsOptional() @IsString() account_name?: string;
  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(TASK_LIMITS.accounts)
  @IsString({ each: true })
  account_names?: string[];
  @ApiProperty({ type: RecipeDocumentDto }) @IsObject() @ValidateNested() @Type(() => RecipeDocumentDto) recipe!: RecipeDocumentDto;
}
