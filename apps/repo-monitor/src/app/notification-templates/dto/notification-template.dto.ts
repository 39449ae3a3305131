import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, IsUUID, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { CHANNEL_KINDS } from '../../notification-channels/notification-channel.entity';
import { TEMPLATE_EVENT_KIND, TEMPLATE_FORMATS, TEMPLATE_MAX_LENGTH, TEMPLATE_PARTS, TEMPLATE_VARIABLES, TemplatePart, TITLED_CHANNEL_KINDS } from '../message-template';

const PART_HELP = `message (default): the text of the message; title: its title (push title, email subject), only for ${TITLED_CHANNEL_KINDS.join(', ')} channels`;
const PART_MESSAGE = `part must be one of ${TEMPLATE_PARTS.join(', ')}`;

const EVENT_KIND_HELP = '`*` (every kind), a family such as `issues`, or a kind such as `issues.opened`; the most specific one applies';

export class NotificationTemplateDto {
  @ApiProperty() id!: string;
  @ApiProperty({ nullable: true, type: String, description: 'The channel whose template this is (null for a rule\'s)' }) channel_id!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The rule whose template this is (null for a channel\'s); it applies to what the rule routes' }) rule_id!: string | null;
  @ApiProperty({ enum: TEMPLATE_PARTS, description: PART_HELP }) part!: TemplatePart;
  @ApiProperty({ description: EVENT_KIND_HELP }) event_kind!: string;
  @ApiProperty() body!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class NotificationTemplateListDto {
  @ApiProperty({ type: [NotificationTemplateDto] }) items!: NotificationTemplateDto[];
  @ApiProperty() total!: number;
}

export class NotificationTemplateQueryDto {
  @ApiPropertyOptional({ description: 'Only this channel\'s templates' })
  @IsOptional()
  @IsUUID('4', { message: 'channel_id must be a channel id' })
  channel_id?: string;

  @ApiPropertyOptional({ description: 'Only this rule\'s templates' })
  @IsOptional()
  @IsUUID('4', { message: 'rule_id must be a rule id' })
  rule_id?: string;

  @ApiPropertyOptional({ enum: TEMPLATE_PARTS, description: 'Only message or only title templates' })
  @IsOptional()
  @IsIn(TEMPLATE_PARTS, { message: PART_MESSAGE })
  part?: TemplatePart;
}

export class SaveNotificationTemplateDto {
  @ApiPropertyOptional({ description: 'The channel the template is for (give this or rule_id)' })
  @IsOptional()
  @IsUUID('4', { message: 'channel_id must be a channel id' })
  channel_id?: string;

  @ApiPropertyOptional({ description: 'The rule the template is for (give this or channel_id)' })
  @IsOptional()
  @IsUUID('4', { message: 'rule_id must be a rule id' })
  rule_id?: string;

  @ApiPropertyOptional({ enum: TEMPLATE_PARTS, description: PART_HELP })
  @IsOptional()
  @IsIn(TEMPLATE_PARTS, { message: PART_MESSAGE })
  part?: TemplatePart;

  @ApiProperty({ description: EVENT_KIND_HELP, example: 'workflow_run' })
  @IsString()
  @Matches(TEMPLATE_EVENT_KIND, { message: 'event_kind must be *, an event family such as issues, or a kind such as issues.opened' })
  event_kind!: string;

  @ApiProperty({
    maxLength: TEMPLATE_MAX_LENGTH,
    description: `A Mustache template (logic-less; values are escaped for the channel's format; a title template is one line of plain text). Values: ${TEMPLATE_VARIABLES.join(', ')}`,
    example: '<b>{{heading}}</b>\n{{#labels}}#{{.}} {{/labels}}',
  })
  @IsString()
  @MinLength(1, { message: 'body must not be empty (delete the template to go back to the default)' })
  @MaxLength(TEMPLATE_MAX_LENGTH, { message: `body must be at most ${TEMPLATE_MAX_LENGTH} characters` })
  body!: string;
}

export class PreviewNotificationTemplateDto {
  @ApiPropertyOptional({ description: 'Render for this channel (its kind decides format and length limit)' })
  @IsOptional()
  @IsUUID('4', { message: 'channel_id must be a channel id' })
  channel_id?: string;

  @ApiPropertyOptional({ enum: CHANNEL_KINDS, description: 'Render for a kind of channel instead (a rule\'s template); default telegram' })
  @IsOptional()
  @IsIn(CHANNEL_KINDS, { message: `channel_kind must be one of ${CHANNEL_KINDS.join(', ')}` })
  channel_kind?: string;

  @ApiPropertyOptional({ enum: TEMPLATE_PARTS, description: PART_HELP })
  @IsOptional()
  @IsIn(TEMPLATE_PARTS, { message: PART_MESSAGE })
  part?: TemplatePart;

  @ApiProperty({ description: EVENT_KIND_HELP })
  @IsString()
  @Matches(TEMPLATE_EVENT_KIND, { message: 'event_kind must be *, an event family such as issues, or a kind such as issues.opened' })
  event_kind!: string;

  @ApiPropertyOptional({ maxLength: TEMPLATE_MAX_LENGTH, description: 'The template to try; left out: the default message' })
  @IsOptional()
  @IsString()
  @MaxLength(TEMPLATE_MAX_LENGTH, { message: `body must be at most ${TEMPLATE_MAX_LENGTH} characters` })
  body?: string;

  @ApiPropertyOptional({ description: 'Render against this recorded event; left out: the newest routed event of the kind' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'event_id must be an event id' })
  @Min(1, { message: 'event_id must be an event id' })
  @Max(Number.MAX_SAFE_INTEGER, { message: 'event_id must be an event id' })
  event_id?: number;
}

export class TemplatePreviewEventDto {
  @ApiProperty() id!: number;
  @ApiProperty() kind!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ nullable: true, type: String }) repository!: string | null;
  @ApiProperty({ format: 'date-time' }) occurred_at!: string;
}

export class NotificationTemplatePreviewDto {
  @ApiProperty({ nullable: true, type: TemplatePreviewEventDto, description: 'The recorded event rendered; null when none of the kind exists yet (an example event was used)' })
  event!: TemplatePreviewEventDto | null;
  @ApiProperty({ enum: TEMPLATE_PARTS }) part!: TemplatePart;
  @ApiProperty({ enum: CHANNEL_KINDS }) channel_kind!: string;
  @ApiProperty({ enum: TEMPLATE_FORMATS, description: 'How the channel reads the text: Telegram HTML, Discord Markdown, Slack mrkdwn or plain text' }) format!: string;
  @ApiProperty({ description: 'The most characters the channel takes; longer text is cut' }) limit!: number;
  @ApiProperty({ description: 'false: the template is the text under the message\'s title (the event heading)' }) whole_message!: boolean;
  @ApiProperty({ description: 'The template rendered (the default one when body was left out)' }) template!: string;
  @ApiProperty({ description: 'The default template of this kind of channel (of a title: {{heading}})' }) default_template!: string;
  @ApiProperty({ description: 'The text the channel would get' }) rendered!: string;
  @ApiProperty() length!: number;
  @ApiProperty({ description: 'The text was longer than the limit and was cut' }) truncated!: boolean;
  @ApiProperty({ type: [String], enum: TEMPLATE_VARIABLES }) variables!: string[];
}

export class ExportedNotificationTemplateDto {
  @ApiPropertyOptional({ nullable: true, type: String, description: 'The channel (by id) whose template this is' })
  @IsOptional()
  @IsUUID('4', { message: 'channel_id must be a channel id' })
  channel_id?: string | null;

  @ApiPropertyOptional({ nullable: true, type: String, description: 'The rule (by name, among the imported rules) whose template this is' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  rule?: string | null;

  @ApiPropertyOptional({ enum: TEMPLATE_PARTS, description: PART_HELP })
  @IsOptional()
  @IsIn(TEMPLATE_PARTS, { message: PART_MESSAGE })
  part?: TemplatePart;

  @ApiProperty({ description: EVENT_KIND_HELP })
  @IsString()
  @Matches(TEMPLATE_EVENT_KIND, { message: 'event_kind must be *, an event family such as issues, or a kind such as issues.opened' })
  event_kind!: string;

  @ApiProperty()
  @IsString()
  @MinLength(1)
  @MaxLength(TEMPLATE_MAX_LENGTH, { message: `body must be at most ${TEMPLATE_MAX_LENGTH} characters` })
  body!: string;
}
