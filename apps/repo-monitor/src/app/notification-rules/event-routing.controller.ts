import { ApiErrorResponses } from '@shared/http-service';
import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsOptional, IsUUID, ValidateNested } from 'class-validator';
import { RowIdPipe } from '../common/list-page';
import { MonitorError } from '../common/monitor-error';
import { NotificationChannelRepository } from '../notification-channels/notification-channel.repository';
import { NotificationChannelsService } from '../notification-channels/notification-channels.service';
import {
  CreateNotificationRuleDto,
  EventRoutingDto,
  EventRoutingFactsDto,
  RoutedDeliveryDto,
  RULE_LIMITS,
  RuleVerdictDto,
} from './dto/notification-rule.dto';
import { NotificationRuleRepository } from './notification-rule.repository';
import { EventFacts, RoutedDelivery, RoutingDecision, RoutingRule } from './rule-matcher';
import { COOKIE_SCHEME, CSRF_SCHEME } from '../openapi';
import { OutboxEntryEntity } from '../outbox/outbox-entry.entity';
import { OutboxRepository } from '../outbox/outbox.repository';
import { NotificationRouter } from './notification-router';

/** How many of the latest routed events a dry run replays. */
export const DRY_RUN_SAMPLE = 50;

const ROUTE_MODE_TEXT = {
  rules: 'routing rules',
  channel_filters: 'the channels\' kind filters (no rule is enabled)',
} as const;

/** One sentence for a person: where the event went, or why not. */
export function routingSummary(decision: RoutingDecision, channelName: (id: string) => string): string {
  const topic = (delivery: RoutedDelivery) => (delivery.message_thread_id === null ? '' : ` (topic ${delivery.message_thread_id})`);
  const named = (delivery: RoutedDelivery) => `${channelName(delivery.channel_id)}${topic(delivery)}`;
  const parts: string[] = [];
  const of = (outcome: RoutedDelivery['outcome']) => decision.deliveries.filter((delivery) => delivery.outcome === outcome);
  if (of('queued').length > 0) parts.push(`sent to ${of('queued').map(named).join(', ')}`);
  for (const held of of('held')) parts.push(`held for quiet hours until ${held.send_after}, then sent to ${named(held)}`);
  if (of('digest').length > 0) parts.push(`left for the digest instead of ${of('digest').map(named).join(', ')}`);
  if (of('dropped_quiet_hours').length > 0) parts.push(`dropped in quiet hours for ${of('dropped_quiet_hours').map(named).join(', ')}`);
  if (of('channel_unavailable').length > 0) parts.push(`not sent to ${of('channel_unavailable').map(named).join(', ')} (channel disabled or deleted)`);
  if (parts.length > 0) return `By ${ROUTE_MODE_TEXT[decision.mode]}: ${parts.join('; ')}.`;
  if (decision.mode === 'channel_filters') return 'Not sent: no rule is enabled and no enabled channel\'s kind filter wants this kind of event.';
  const matched = decision.rules.filter((rule) => rule.matched);
  if (matched.length === 0) return 'Not sent: no rule matched.';
  const stopper = matched.find((rule) => rule.stopped);
  if (stopper) return `Muted by the rule "${stopper.name}" (it matched, routes nowhere and stops).`;
  return `Not sent: the matching rules (${matched.map((rule) => `"${rule.name}"`).join(', ')}) route it to no channel.`;
}

class DryRunRuleDto extends CreateNotificationRuleDto {
  @ApiPropertyOptional({ description: 'The stored rule this one stands for (its verdicts carry this id)' })
  @IsOptional()
  @IsUUID('4', { message: 'id must be a rule id' })
  id?: string;
}

export class NotificationRulesDryRunDto {
  @ApiPropertyOptional({ type: [DryRunRuleDto], maxItems: RULE_LIMITS.rules, description: 'Rules to try, in order; left out: the stored rules' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(RULE_LIMITS.rules)
  @ValidateNested({ each: true })
  @Type(() => DryRunRuleDto)
  rules?: DryRunRuleDto[];
}

/** A routing decision as the console words it itself: who decided, the rules' verdicts, the deliveries. */
export class DryRunDecisionDto {
  @ApiProperty({ enum: ['rules', 'channel_filters'], description: 'rules: the rules decided; channel_filters: no rule was enabled, each channel\'s kind filter decided' })
  routed_by!: 'rules' | 'channel_filters';
  @ApiProperty({ type: [RuleVerdictDto] }) rules!: RuleVerdictDto[];
  @ApiProperty({ type: [RoutedDeliveryDto], description: 'Outbox fields are null' }) deliveries!: RoutedDeliveryDto[];
}

export class DryRunEventDto {
  @ApiProperty() event_id!: number;
  @ApiProperty() kind!: string;
  @ApiProperty() title!: string;
  @ApiProperty() occurred_at!: string;
  @ApiProperty({ type: EventRoutingFactsDto }) facts!: EventRoutingFactsDto;
  @ApiProperty({ type: [RuleVerdictDto] }) rules!: RuleVerdictDto[];
  @ApiProperty({ type: [RoutedDeliveryDto], description: 'Where it would go now (outbox fields are null)' }) deliveries!: RoutedDeliveryDto[];
  @ApiProperty({ enum: ['rules', 'channel_filters'], description: 'Who would decide now: the rules, or (no rule enabled) the channels\' kind filters' })
  routed_by!: 'rules' | 'channel_filters';
  @ApiProperty({ description: 'Where it would go, in one sentence (English; the console words it from the fields)' }) summary!: string;
  @ApiProperty({ type: DryRunDecisionDto, description: 'What was decided when the event was recorded' }) recorded!: DryRunDecisionDto;
  @ApiProperty({ description: 'Where it went when it was recorded, in one sentence (English)' }) recorded_summary!: string;
}

export class NotificationRulesDryRunResultDto {
  @ApiProperty({ type: [DryRunEventDto], description: `The latest ${DRY_RUN_SAMPLE} routed events, newest first` }) items!: DryRunEventDto[];
}

/** Channel names for one answer, looked up once each. */
function channelNames(channels: NotificationChannelRepository): { name: (id: string) => string; load: (ids: string[]) => Promise<void>; known: (id: string) => string | null } {
  const names = new Map<string, string | null>();
  return {
    async load(ids: string[]) {
      for (const id of new Set(ids)) if (!names.has(id)) names.set(id, (await channels.findById(id))?.name ?? null);
    },
    name: (id: string) => names.get(id) ?? `a deleted channel (${id.slice(0, 8)})`,
    known: (id: string) => names.get(id) ?? null,
  };
}

function deliveryDto(delivery: RoutedDelivery, channelName: string | null, entry: OutboxEntryEntity | undefined): RoutedDeliveryDto {
  return { ...delivery, channel_name: channelName, outbox_id: entry?.id ?? null, outbox_state: entry?.state ?? null };
}

@ApiTags('events')
@ApiCookieAuth(COOKIE_SCHEME)
@Controller('api/v1/events')
export class EventRoutingController {
  constructor(
    private readonly routings: NotificationRuleRepository,
    private readonly outbox: OutboxRepository,
    private readonly channels: NotificationChannelRepository,
  ) {}

  @Get(':id/routing')
  @ApiOperation({ summary: 'Which rules matched the event and where it went, or why it was not sent' })
  @ApiErrorResponses({ 404: 'not_found: no such event' })
  @ApiOkResponse({ type: EventRoutingDto })
  async routing(@Param('id', new RowIdPipe()) id: number): Promise<EventRoutingDto> {
    const event = await this.routings.routingOf(id);
    if (!event) throw new MonitorError('not_found', 'no such event');
    const entries = await this.outbox.ofEvent(id);
    const names = channelNames(this.channels);
    const stored = event.routing;
    if (!stored) {
      await names.load(entries.map((entry) => entry.channelId));
      const deliveries = entries.map((entry) =>
        deliveryDto({ channel_id: entry.channelId, message_thread_id: entry.messageThreadId, rule_id: null, outcome: 'queued', send_after: null }, names.known(entry.channelId), entry),
      );
      return {
        event_id: id,
        kind: event.kind,
        routed_by: event.notified ? 'not_recorded' : 'not_notifying',
        summary: event.notified
          ? 'Recorded before routing was explained: the deliveries below are the outbox entries written for it.'
          : 'Not sent: this kind of event does not notify, the repository\'s notification switches are off for it, or the alert is ignored.',
        routed_at: null,
        facts: null,
        rules: [],
        deliveries,
      };
    }
    const decision = JSON.parse(stored.decision) as RoutingDecision;
    await names.load(decision.deliveries.map((delivery) => delivery.channel_id));
    const entryFor = (delivery: RoutedDelivery) =>
      delivery.outcome === 'queued' || delivery.outcome === 'held'
        ? entries.find((entry) => entry.channelId === delivery.channel_id && (entry.messageThreadId ?? null) === delivery.message_thread_id)
        : undefined;
    return {
      event_id: id,
      kind: event.kind,
      routed_by: decision.mode,
      summary: routingSummary(decision, names.name),
      routed_at: stored.routedAt.toISOString(),
      facts: JSON.parse(stored.facts) as EventFacts,
      rules: decision.rules,
      deliveries: decision.deliveries.map((delivery) => deliveryDto(delivery, names.known(delivery.channel_id), entryFor(delivery))),
    };
  }
}

@ApiTags('notification-rules')
@ApiCookieAuth(COOKIE_SCHEME)
@Controller('api/v1/notification-rules')
export class NotificationRulesDryRunController {
  constructor(
    private readonly routings: NotificationRuleRepository,
    private readonly router: NotificationRouter,
    private readonly channels: NotificationChannelRepository,
    private readonly channelSettings: NotificationChannelsService,
  ) {}

  @Post('dry-run')
  @HttpCode(200)
  @ApiSecurity(CSRF_SCHEME)
  @ApiOperation({
    summary: `Replay the latest ${DRY_RUN_SAMPLE} routed events through the given (or the stored) rules; sends and changes nothing`,
  })
  @ApiErrorResponses({ 400: 'validation_failed: a rule is malformed' })
  @ApiOkResponse({ type: NotificationRulesDryRunResultDto })
  async dryRun(@Body() body: NotificationRulesDryRunDto): Promise<NotificationRulesDryRunResultDto> {
    const rules: RoutingRule[] | undefined = body.rules?.map((rule, index) => ({
      id: rule.id ?? `draft-${index + 1}`,
      name: rule.name.trim(),
      enabled: rule.enabled ?? true,
      match: rule.match ?? {},
      route: {
        channel_ids: rule.route.channel_ids,
        message_thread_id: rule.route.message_thread_id ?? null,
        mode: rule.route.mode ?? 'now',
        quiet_hours: rule.route.quiet_hours ?? null,
      },
      stop: rule.stop ?? false,
    }));
    const sample = await this.routings.recentRoutings(DRY_RUN_SAMPLE);
    const channels = await this.channelSettings.routableChannels();
    const names = channelNames(this.channels);
    const now = new Date();
    const items: DryRunEventDto[] = [];
    for (const event of sample) {
      if (!event.routing) continue;
      const facts = JSON.parse(event.routing.facts) as EventFacts;
      const decision = await this.router.route({ kind: event.kind, category: event.category }, facts, now, channels, rules);
      const recorded = JSON.parse(event.routing.decision) as RoutingDecision;
      await names.load([...decision.deliveries, ...recorded.deliveries].map((delivery) => delivery.channel_id));
      items.push({
        event_id: event.id,
        kind: event.kind,
        title: event.title,
        occurred_at: event.occurredAt.toISOString(),
        facts,
        rules: decision.rules,
        deliveries: decision.deliveries.map((delivery) => deliveryDto(delivery, names.known(delivery.channel_id), undefined)),
        routed_by: decision.mode,
        summary: routingSummary(decision, names.name),
        recorded: {
          routed_by: recorded.mode,
          rules: recorded.rules,
          deliveries: recorded.deliveries.map((delivery) => deliveryDto(delivery, names.known(delivery.channel_id), undefined)),
        },
        recorded_summary: routingSummary(recorded, names.name),
      });
    }
    return { items };
  }
}
