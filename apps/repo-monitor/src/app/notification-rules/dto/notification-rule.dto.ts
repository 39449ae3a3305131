import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { OptionalNotNull } from '../../common/optional-not-null';
import { NOTIFICATION_EVENT_KINDS } from '../../notification-channels/event-kinds';
import { ExportedNotificationTemplateDto } from '../../notification-templates/dto/notification-template.dto';
import { TEMPLATE_LIMIT } from '../../notification-templates/message-template';
import { QUIET_HOURS_ACTIONS, QuietHoursAction, ROUTE_MODES, RouteMode } from '../rule-matcher';

/** Bounds of a rule, so matching stays cheap however rules are written. */
export const RULE_LIMITS = { rules: 100, listItems: 50, pattern: 200, channels: 20 } as const;

export const WORKFLOW_CONCLUSIONS = ['success', 'failure', 'neutral', 'cancelled', 'skipped', 'timed_out', 'action_required', 'stale', 'startup_failure'] as const;
export const ALERT_SEVERITIES = ['critical', 'high', 'medium', 'moderate', 'low', 'warning', 'note', 'error'] as const;

/** Printable text without control characters: globs, labels, logins, branch and workflow names. */
const PATTERN = /^[^\p{Cc}]+$/u;
const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
const ACTION = /^[a-z_]{1,64}$/;

function PatternList(description: string): PropertyDecorator {
  return (target, key) => {
    ApiPropertyOptional({ type: [String], maxItems: RULE_LIMITS.listItems, description })(target, key);
    IsOptional()(target, key);
    IsArray()(target, key);
    ArrayMaxSize(RULE_LIMITS.listItems)(target, key);
    IsString({ each: true })(target, key);
    MinLength(1, { each: true, message: `each entry of ${String(key)} must not be empty` })(target, key);
    MaxLength(RULE_LIMITS.pattern, { each: true, message: `each entry of ${String(key)} must be at most ${RULE_LIMITS.pattern} characters` })(target, key);
    Matches(PATTERN, { each: true, message: `each entry of ${String(key)} must be printable text` })(target, key);
  };
}

export class RuleMatchDto {
  @PatternList('Exact `owner/name`, `owner/*` or a glob (`*` within a segment, `**` across, `?` one character), ignoring case')
  repositories?: string[];

  @ApiPropertyOptional({ enum: NOTIFICATION_EVENT_KINDS, isArray: true, description: 'Event families' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(NOTIFICATION_EVENT_KINDS.length)
  @IsIn(NOTIFICATION_EVENT_KINDS, { each: true, message: `each entry of events must be one of ${NOTIFICATION_EVENT_KINDS.join(', ')}` })
  events?: string[];

  @ApiPropertyOptional({ type: [String], description: 'The part of the kind after the family: opened, closed, merged, ready_for_review, failure, recovered, published, created…' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(RULE_LIMITS.listItems)
  @Matches(ACTION, { each: true, message: 'each entry of actions must be lower-case letters and underscores, like opened or ready_for_review' })
  actions?: string[];

  @PatternList('The event carries at least one of these labels (issues and pull requests)') labels_any?: string[];
  @PatternList('The event carries every one of these labels') labels_all?: string[];
  @PatternList('The event carries none of these labels') labels_none?: string[];
  @PatternList('The author or the sender is one of these logins') authors?: string[];
  @PatternList('Neither the author nor the sender is one of these logins') authors_exclude?: string[];

  @ApiPropertyOptional({ description: 'Skip events whose author or sender is a bot (a login ending in [bot], or a well-known automation account)' })
  @IsOptional()
  @IsBoolean()
  ignore_bots?: boolean;

  @PatternList('Branch globs: the workflow run\'s head branch, the pull request\'s base branch') branches?: string[];
  @PatternList('Workflow name globs') workflows?: string[];

  @ApiPropertyOptional({ enum: WORKFLOW_CONCLUSIONS, isArray: true, description: 'Workflow run conclusions (a recovered run concluded success)' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(WORKFLOW_CONCLUSIONS.length)
  @IsIn(WORKFLOW_CONCLUSIONS, { each: true, message: `each entry of conclusions must be one of ${WORKFLOW_CONCLUSIONS.join(', ')}` })
  conclusions?: string[];

  @ApiPropertyOptional({ enum: ALERT_SEVERITIES, isArray: true, description: 'Security alert severities' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(ALERT_SEVERITIES.length)
  @IsIn(ALERT_SEVERITIES, { each: true, message: `each entry of severities must be one of ${ALERT_SEVERITIES.join(', ')}` })
  severities?: string[];

  @ApiPropertyOptional({ description: 'Only draft (true) or only ready (false) pull requests; other events never match when set' })
  @IsOptional()
  @IsBoolean()
  draft?: boolean;
}

export class QuietHoursDto {
  @ApiProperty({ example: '22:00', description: 'Local time (general settings\' time zone), HH:MM' })
  @Matches(HH_MM, { message: 'quiet_hours.start must be a time like 22:00' })
  start!: string;

  @ApiProperty({ example: '07:00', description: 'Local time, HH:MM; before start: the window spans midnight' })
  @Matches(HH_MM, { message: 'quiet_hours.end must be a time like 07:00' })
  end!: string;

  @ApiProperty({ enum: QUIET_HOURS_ACTIONS, description: 'hold: send when the quiet hours end; drop: do not send' })
  @IsIn(QUIET_HOURS_ACTIONS, { message: 'quiet_hours.action must be hold or drop' })
  action!: QuietHoursAction;
}

export class RuleRouteDto {
  @ApiProperty({ type: [String], maxItems: RULE_LIMITS.channels, description: 'Notification channel ids; empty (with stop) mutes what the rule matches' })
  @IsArray()
  @ArrayMaxSize(RULE_LIMITS.channels)
  @ArrayUnique({ message: 'channel_ids must not repeat a channel' })
  @IsUUID('4', { each: true, message: 'each entry of channel_ids must be a channel id' })
  channel_ids!: string[];

  @ApiPropertyOptional({ nullable: true, type: Number, description: 'Telegram forum topic; null: the channel\'s default topic' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(2147483647)
  message_thread_id?: number | null;

  @ApiPropertyOptional({ enum: ROUTE_MODES, description: 'now (left out): send, subject to aggregation; digest: leave it to the daily digest' })
  @IsOptional()
  @IsIn(ROUTE_MODES, { message: 'mode must be now or digest' })
  mode?: RouteMode;

  @ApiPropertyOptional({ nullable: true, type: QuietHoursDto })
  @IsOptional()
  @IsObject({ message: 'quiet_hours must be an object with start, end and action' })
  @ValidateNested()
  @Type(() => QuietHoursDto)
  quiet_hours?: QuietHoursDto | null;
}

/**
 * The fields both a new rule and a change have. name and route are declared in each subclass: a
 * ValidateIf here (OptionalNotNull) would skip the subclass's required checks too.
 */
class RuleFieldsDto {
  @ApiPropertyOptional({ description: 'Left out on a new rule: true' })
  @OptionalNotNull()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ type: RuleMatchDto, description: 'Every field optional: an absent field matches all' })
  @OptionalNotNull()
  @IsObject({ message: 'match must be an object' })
  @ValidateNested()
  @Type(() => RuleMatchDto)
  match?: RuleMatchDto;

  @ApiPropertyOptional({ description: 'When the rule matches, consult no later rule (left out on a new rule: false)' })
  @OptionalNotNull()
  @IsBoolean()
  stop?: boolean;
}

export class CreateNotificationRuleDto extends RuleFieldsDto {
  @ApiProperty({ maxLength: 100, example: 'Mute Dependabot' })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  @Matches(PATTERN, { message: 'name must be printable text' })
  name!: string;

  @ApiProperty({ type: RuleRouteDto })
  @IsObject({ message: 'route must be an object' })
  @ValidateNested()
  @Type(() => RuleRouteDto)
  route!: RuleRouteDto;
}

/** Fields left out stay as they are; `match` and `route` are replaced whole. */
export class UpdateNotificationRuleDto extends RuleFieldsDto {
  @ApiPropertyOptional({ maxLength: 100, example: 'Mute Dependabot' })
  @OptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  @Matches(PATTERN, { message: 'name must be printable text' })
  name?: string;

  @ApiPropertyOptional({ type: RuleRouteDto })
  @OptionalNotNull()
  @IsObject({ message: 'route must be an object' })
  @ValidateNested()
  @Type(() => RuleRouteDto)
  route?: RuleRouteDto;
}

export class ReorderNotificationRulesDto {
  @ApiProperty({ type: [String], description: 'Every rule id, in the new order' })
  @IsArray()
  @ArrayMaxSize(RULE_LIMITS.rules)
  @ArrayUnique({ message: 'ids must not repeat a rule' })
  @IsUUID('4', { each: true, message: 'each entry of ids must be a rule id' })
  ids!: string[];
}

export class ImportNotificationRulesDto {
  @ApiPropertyOptional({ enum: ['repo-monitor.notification-rules'], description: 'The export document\'s own fields may come along (GET /export answers a document this takes back whole)' })
  @IsOptional()
  @IsIn(['repo-monitor.notification-rules'], { message: 'format must be repo-monitor.notification-rules (a document from GET /api/v1/notification-rules/export)' })
  format?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 2 })
  @IsOptional()
  @IsInt({ message: 'version must be 1 or 2' })
  @Min(1, { message: 'version must be 1 or 2' })
  @Max(2, { message: 'version must be 1 or 2' })
  version?: number;

  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  exported_at?: string;

  @ApiProperty({ type: [CreateNotificationRuleDto], maxItems: RULE_LIMITS.rules, description: 'Replaces every rule, in this order' })
  @IsArray()
  @ArrayMaxSize(RULE_LIMITS.rules)
  @ValidateNested({ each: true })
  @Type(() => CreateNotificationRuleDto)
  rules!: CreateNotificationRuleDto[];

  @ApiPropertyOptional({
    type: [ExportedNotificationTemplateDto],
    maxItems: TEMPLATE_LIMIT,
    description: 'Message templates of channels (by id) and of the imported rules (by name); given: they replace every template; left out: templates are kept (a rule\'s go with it)',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(TEMPLATE_LIMIT)
  @ValidateNested({ each: true })
  @Type(() => ExportedNotificationTemplateDto)
  templates?: ExportedNotificationTemplateDto[];
}

export class RuleRouteViewDto {
  @ApiProperty({ type: [String] }) channel_ids!: string[];
  @ApiProperty({ nullable: true, type: Number }) message_thread_id!: number | null;
  @ApiProperty({ enum: ROUTE_MODES }) mode!: RouteMode;
  @ApiProperty({ nullable: true, type: QuietHoursDto }) quiet_hours!: QuietHoursDto | null;
}

export class NotificationRuleDto {
  @ApiProperty() id!: string;
  @ApiProperty({ description: 'Rules are consulted in ascending position' }) position!: number;
  @ApiProperty() name!: string;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ type: RuleMatchDto }) match!: RuleMatchDto;
  @ApiProperty({ type: RuleRouteViewDto }) route!: RuleRouteViewDto;
  @ApiProperty() stop!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class NotificationRuleListDto {
  @ApiProperty({ type: [NotificationRuleDto] }) items!: NotificationRuleDto[];
  @ApiProperty() total!: number;
}

export class ExportedNotificationRuleDto {
  @ApiProperty() name!: string;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ type: RuleMatchDto }) match!: RuleMatchDto;
  @ApiProperty({ type: RuleRouteViewDto }) route!: RuleRouteViewDto;
  @ApiProperty() stop!: boolean;
}

export class NotificationRulesExportDto {
  @ApiProperty({ example: 'repo-monitor.notification-rules' }) format!: string;
  @ApiProperty({ example: 1 }) version!: number;
  @ApiProperty({ format: 'date-time' }) exported_at!: string;
  @ApiProperty({ type: [ExportedNotificationRuleDto] }) rules!: ExportedNotificationRuleDto[];
  @ApiProperty({ type: [ExportedNotificationTemplateDto], description: 'Message templates of channels (by id) and rules (by name)' }) templates!: ExportedNotificationTemplateDto[];
}

export class RuleVerdictDto {
  @ApiProperty() rule_id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() matched!: boolean;
  @ApiProperty({ nullable: true, type: String, description: 'Why it did not match (the first field that failed), or disabled' }) reason!: string | null;
  @ApiProperty({ description: 'It matched and has stop: the rules after it were not consulted' }) stopped!: boolean;
}

export const DELIVERY_OUTCOMES = ['queued', 'held', 'digest', 'dropped_quiet_hours', 'channel_unavailable', 'duplicate'] as const;

export class RoutedDeliveryDto {
  @ApiProperty() channel_id!: string;
  @ApiProperty({ nullable: true, type: String, description: 'null when the channel no longer exists' }) channel_name!: string | null;
  @ApiProperty({ nullable: true, type: Number }) message_thread_id!: number | null;
  @ApiProperty({ nullable: true, type: String, description: 'The rule that routed it; null when the channels\' kind filters decided' }) rule_id!: string | null;
  @ApiProperty({ enum: DELIVERY_OUTCOMES }) outcome!: string;
  @ApiProperty({ nullable: true, type: String, description: 'held: when it is sent' }) send_after!: string | null;
  @ApiProperty({ nullable: true, type: Number, description: 'The outbox entry, when one was queued' }) outbox_id!: number | null;
  @ApiProperty({ nullable: true, type: String, description: 'The outbox entry\'s state now (pending, sending, sent, dead, suppressed: merged into a summary)' }) outbox_state!: string | null;
}

export class EventRoutingFactsDto {
  @ApiProperty({ nullable: true, type: String }) repository!: string | null;
  @ApiProperty() event!: string;
  @ApiProperty() action!: string;
  @ApiProperty({ type: [String] }) labels!: string[];
  @ApiProperty({ nullable: true, type: String }) author!: string | null;
  @ApiProperty({ nullable: true, type: String }) sender!: string | null;
  @ApiProperty({ nullable: true, type: String }) branch!: string | null;
  @ApiProperty({ nullable: true, type: String }) workflow!: string | null;
  @ApiProperty({ nullable: true, type: String }) conclusion!: string | null;
  @ApiProperty({ nullable: true, type: String }) severity!: string | null;
  @ApiProperty({ nullable: true, type: Boolean }) draft!: boolean | null;
}

export const ROUTING_STATES = ['rules', 'channel_filters', 'not_notifying', 'not_recorded'] as const;

export class EventRoutingDto {
  @ApiProperty() event_id!: number;
  @ApiProperty() kind!: string;
  @ApiProperty({
    enum: ROUTING_STATES,
    description:
      'rules: routing rules decided; channel_filters: no rule was enabled, each channel\'s kind filter decided; not_notifying: the kind or the ' +
      'repository\'s toggles do not notify; not_recorded: the event was recorded before routing was explained',
  })
  routed_by!: string;
  @ApiProperty({ description: 'One sentence: where it went, or why not' }) summary!: string;
  @ApiProperty({ nullable: true, type: String }) routed_at!: string | null;
  @ApiProperty({ nullable: true, type: EventRoutingFactsDto, description: 'What the rules were matched against' }) facts!: EventRoutingFactsDto | null;
  @ApiProperty({ type: [RuleVerdictDto] }) rules!: RuleVerdictDto[];
  @ApiProperty({ type: [RoutedDeliveryDto] }) deliveries!: RoutedDeliveryDto[];
}
