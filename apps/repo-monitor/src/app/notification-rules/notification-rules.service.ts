import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager, QueryFailedError } from 'typeorm';
import { DatabaseWork } from '../../database/database-work';
import { AuditLogService } from '../admin/audit-log.service';
import { MonitorError } from '../common/monitor-error';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { ShortCache } from '../common/short-cache';
import { NotificationChannelRepository } from '../notification-channels/notification-channel.repository';
import { SettingsChanges } from '../settings/settings-changes';
import { NotificationTemplatesService } from '../notification-templates/notification-templates.service';
import {
  CreateNotificationRuleDto,
  ExportedNotificationRuleDto,
  ImportNotificationRulesDto,
  NotificationRuleDto,
  NotificationRulesExportDto,
  RULE_LIMITS,
  RuleMatchDto,
  RuleRouteDto,
  UpdateNotificationRuleDto,
} from './dto/notification-rule.dto';
import { NotificationRuleEntity } from './notification-rule.entity';
import { NotificationRuleRepository } from './notification-rule.repository';
import { RoutingRule, RuleMatch, RuleRoute } from './rule-matcher';

export const RULES_EXPORT_FORMAT = 'repo-monitor.notification-rules';

const MATCH_FIELDS: ReadonlyArray<keyof RuleMatch> = [
  'repositories',
  'events',
  'actions',
  'labels_any',
  'labels_all',
  'labels_none',
  'authors',
  'authors_exclude',
  'ignore_bots',
  'branches',
  'workflows',
  'conclusions',
  'severities',
  'draft',
];

/** The stored match: only the fields given (null and absent alike mean "matches all"). */
function normalizeMatch(match: RuleMatchDto | undefined): RuleMatch {
  const normalized: Record<string, unknown> = {};
  for (const field of MATCH_FIELDS) {
    const value = match?.[field];
    if (value === undefined || value === null) continue;
    normalized[field] = Array.isArray(value) ? [...new Set(value.map((item) => item.trim()).filter((item) => item !== ''))] : value;
  }
  return normalized as RuleMatch;
}

function normalizeRoute(route: RuleRouteDto): RuleRoute {
  return {
    channel_ids: [...route.channel_ids],
    message_thread_id: route.message_thread_id ?? null,
    mode: route.mode ?? 'now',
    quiet_hours: route.quiet_hours ? { start: route.quiet_hours.start, end: route.quiet_hours.end, action: route.quiet_hours.action } : null,
  };
}

export function toRoutingRule(row: NotificationRuleEntity): RoutingRule {
  return { id: row.id, name: row.name, enabled: row.enabled, match: JSON.parse(row.match) as RuleMatch, route: JSON.parse(row.route) as RuleRoute, stop: row.stop };
}

function toDto(row: NotificationRuleEntity): NotificationRuleDto {
  const rule = toRoutingRule(row);
  return {
    id: row.id,
    position: row.position,
    name: row.name,
    enabled: row.enabled,
    match: rule.match,
    route: rule.route,
    stop: row.stop,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * Routing rules: stored in order, every change audit-logged and announced (so every replica's
 * router re-reads them), exported and imported whole.
 */
@Injectable()
export class NotificationRulesService {
  private readonly cache: ShortCache<RoutingRule[]>;

  constructor(
    @Inject(MONITOR_CONFIG) config: MonitorConfig,
    private readonly database: DatabaseWork,
    private readonly records: NotificationRuleRepository,
    private readonly channels: NotificationChannelRepository,
    private readonly audit: AuditLogService,
    private readonly changes: SettingsChanges,
    private readonly templates: NotificationTemplatesService,
  ) {
    this.cache = new ShortCache(async () => (await this.records.all()).map(toRoutingRule), config.settings.refreshMs, () => database.holdsSqliteConnection());
    changes.subscribe('rules', () => this.cache.clear());
  }

  /** Every rule in order (disabled ones included), for the router. */
  routingRules(): Promise<RoutingRule[]> {
    return this.cache.get();
  }

  async list(): Promise<NotificationRuleDto[]> {
    return (await this.records.all()).map(toDto);
  }

  async get(id: string): Promise<NotificationRuleDto> {
    return toDto(await this.find(id));
  }

  async create(body: CreateNotificationRuleDto, actor: string, clientIp: string): Promise<NotificationRuleDto> {
    const match = normalizeMatch(body.match);
    const route = normalizeRoute(body.route);
    await this.checkRoute(route, 'route');
    const now = new Date();
    const entity: NotificationRuleEntity = {
      id: randomUUID(),
      position: 0,
      name: body.name.trim(),
      enabled: body.enabled ?? true,
      match: JSON.stringify(match),
      route: JSON.stringify(route),
      stop: body.stop ?? false,
      createdAt: now,
      updatedAt: now,
    };
    await this.writeUnique(async (manager) => {
      if ((await this.records.count(manager)) >= RULE_LIMITS.rules) {
        throw new MonitorError('validation_failed', `there can be at most ${RULE_LIMITS.rules} rules; delete one first`, { field: 'name' });
      }
      entity.position = await this.records.nextPosition(manager);
      await this.records.insert(entity, manager);
      await this.audit.record({ actor, action: 'notification_rule.created', target: entity.id, details: { name: entity.name }, clientIp }, manager);
    });
    await this.changes.announce('rules');
    return toDto(entity);
  }

  async update(id: string, body: UpdateNotificationRuleDto, actor: string, clientIp: string): Promise<NotificationRuleDto> {
    const existing = await this.find(id);
    const route = body.route ? normalizeRoute(body.route) : undefined;
    if (route) await this.checkRoute(route, 'route');
    const changed = Object.keys(body).filter((key) => body[key as keyof UpdateNotificationRuleDto] !== undefined);
    await this.writeUnique(async (manager) => {
      if (!(await this.records.findById(id, manager))) throw new MonitorError('not_found', 'no such notification rule');
      await this.records.update(
        id,
        {
          name: body.name?.trim() ?? existing.name,
          enabled: body.enabled ?? existing.enabled,
          match: body.match ? JSON.stringify(normalizeMatch(body.match)) : existing.match,
          route: route ? JSON.stringify(route) : existing.route,
          stop: body.stop ?? existing.stop,
          updatedAt: new Date(),
        },
        manager,
      );
      await this.audit.record({ actor, action: 'notification_rule.updated', target: id, details: { fields: changed }, clientIp }, manager);
    });
    await this.changes.announce('rules');
    return this.get(id);
  }

  async remove(id: string, actor: string, clientIp: string): Promise<void> {
    const existing = await this.find(id);
    await this.database.transaction(async (manager) => {
      await this.records.delete(id, manager);
      await this.audit.record({ actor, action: 'notification_rule.deleted', target: id, details: { name: existing.name }, clientIp }, manager);
    });
    await this.changes.announce('rules');
  }

  /** Puts the rules in the given order; `ids` must name every rule once. */
  async reorder(ids: string[], actor: string, clientIp: string): Promise<NotificationRuleDto[]> {
    await this.database.transaction(async (manager) => {
      const current = await this.records.all(manager);
      const known = new Set(current.map((rule) => rule.id));
      if (ids.length !== current.length || ids.some((id) => !known.has(id))) {
        throw new MonitorError('validation_failed', 'ids must list every rule exactly once (reload the rules and try again)', { field: 'ids' });
      }
      const now = new Date();
      for (const [index, id] of ids.entries()) await this.records.update(id, { position: index + 1, updatedAt: now }, manager);
      await this.audit.record({ actor, action: 'notification_rules.reordered', details: { ids }, clientIp }, manager);
    });
    await this.changes.announce('rules');
    return this.list();
  }

  async exportRules(): Promise<NotificationRulesExportDto> {
    const rows = await this.records.all();
    const rules = rows.map((row): ExportedNotificationRuleDto => {
      const rule = toRoutingRule(row);
      return { name: rule.name, enabled: rule.enabled, match: rule.match, route: rule.route, stop: rule.stop };
    });
    const templates = await this.templates.exportTemplates(new Map(rows.map((row) => [row.id, row.name])));
    return { format: RULES_EXPORT_FORMAT, version: 2, exported_at: new Date().toISOString(), rules, templates };
  }

  /** Replaces every rule with the imported ones, in their order, in one transaction; all or nothing. */
  async importRules(body: ImportNotificationRulesDto, actor: string, clientIp: string): Promise<NotificationRuleDto[]> {
    const names = new Set<string>();
    const prepared: Array<Omit<RoutingRule, 'id'>> = [];
    for (const [index, rule] of body.rules.entries()) {
      const name = rule.name.trim();
      if (names.has(name.toLowerCase())) throw new MonitorError('validation_failed', `rules[${index}].name repeats the rule name "${name}"`, { field: `rules[${index}].name` });
      names.add(name.toLowerCase());
      const route = normalizeRoute(rule.route);
      await this.checkRoute(route, `rules[${index}].route`);
      prepared.push({ name, enabled: rule.enabled ?? true, match: normalizeMatch(rule.match), route, stop: rule.stop ?? false });
    }
    if (body.templates) await this.templates.checkImport(body.templates, names);
    const ruleIds = new Map(prepared.map((rule) => [rule.name.toLowerCase(), randomUUID()]));
    await this.writeUnique(async (manager) => {
      await this.records.deleteAll(manager);
      const now = new Date();
      for (const [index, rule] of prepared.entries()) {
        await this.records.insert(
          {
            id: ruleIds.get(rule.name.toLowerCase()) as string,
            position: index + 1,
            name: rule.name,
            enabled: rule.enabled,
            match: JSON.stringify(rule.match),
            route: JSON.stringify(rule.route),
            stop: rule.stop,
            createdAt: now,
            updatedAt: now,
          },
          manager,
        );
      }
      if (body.templates) await this.templates.importTemplates(manager, body.templates, ruleIds);
      await this.audit.record({ actor, action: 'notification_rules.imported', details: { count: prepared.length, templates: body.templates?.length ?? null }, clientIp }, manager);
    });
    await this.changes.announce('rules');
    await this.templates.announce();
    return this.list();
  }

  /** Every routed channel exists; a forum topic needs a Telegram channel; quiet hours span some time. */
  private async checkRoute(route: RuleRoute, field: string): Promise<void> {
    const kinds: string[] = [];
    for (const id of route.channel_ids) {
      const channel = await this.channels.findById(id);
      if (!channel) throw new MonitorError('validation_failed', `no notification channel has the id ${id}`, { field: `${field}.channel_ids` });
      kinds.push(channel.kind);
    }
    if (route.message_thread_id !== null && !kinds.includes('telegram')) {
      throw new MonitorError('validation_failed', 'message_thread_id is a Telegram forum topic: route to a telegram channel too', { field: `${field}.message_thread_id` });
    }
    if (route.quiet_hours && route.quiet_hours.start === route.quiet_hours.end) {
      throw new MonitorError('validation_failed', 'quiet_hours.start and quiet_hours.end must differ', { field: `${field}.quiet_hours` });
    }
  }

  private async find(id: string): Promise<NotificationRuleEntity> {
    const row = await this.records.findById(id);
    if (!row) throw new MonitorError('not_found', 'no such notification rule');
    return row;
  }

  private async writeUnique(write: (manager: EntityManager) => Promise<void>): Promise<void> {
    try {
      await this.database.transaction(write);
    } catch (error) {
      if (error instanceof QueryFailedError && /unique|duplicate/i.test(error.message)) {
        throw new MonitorError('conflict', 'a rule with this name exists', { field: 'name', rule: 'taken' });
      }
      throw error;
    }
  }
}
