import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager, QueryFailedError } from 'typeorm';
import { DatabaseWork } from '../../database/database-work';
import { AuditLogService } from '../admin/audit-log.service';
import { MonitorError } from '../common/monitor-error';
import { ShortCache } from '../common/short-cache';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { NotificationChannelRepository } from '../notification-channels/notification-channel.repository';
import { SettingsChanges } from '../settings/settings-changes';
import {
  ExportedNotificationTemplateDto,
  NotificationTemplateDto,
  NotificationTemplatePreviewDto,
  NotificationTemplateQueryDto,
  PreviewNotificationTemplateDto,
  SaveNotificationTemplateDto,
} from './dto/notification-template.dto';
import {
  channelHasTitle,
  checkTemplate,
  DEFAULT_TITLE_TEMPLATE,
  defaultTemplate,
  factsOfKind,
  formatOfChannel,
  renderTemplate,
  RenderedTemplate,
  renderTitle,
  TEMPLATE_LIMIT,
  TEMPLATE_VARIABLES,
  TemplateEvent,
  TemplateFacts,
  templateFor,
  TemplatePart,
  templateIsWholeMessage,
  TemplateProblem,
  templateView,
} from './message-template';
import { NotificationTemplateEntity } from './notification-template.entity';
import { NotificationTemplateRepository } from './notification-template.repository';

const channelOwner = (id: string) => `channel:${id}`;
const ruleOwner = (id: string) => `rule:${id}`;

function toDto(row: NotificationTemplateEntity): NotificationTemplateDto {
  return {
    id: row.id,
    channel_id: row.channelId,
    rule_id: row.ruleId,
    part: row.part,
    event_kind: row.eventKind,
    body: row.body,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * Refuses a template as a 400 on `field`: the sentence that says what is wrong, and the rule it
 * breaks (with its `max`), which the console translates.
 */
function checked(body: string, channelKind: string, field: string, part: TemplatePart = 'message'): void {
  try {
    checkTemplate(body, formatOfChannel(channelKind).format, part);
  } catch (error) {
    if (error instanceof TemplateProblem) {
      throw new MonitorError('validation_failed', error.message, error.max === undefined ? { field, rule: error.rule } : { field, rule: error.rule, max: error.max });
    }
    throw error;
  }
}

/** A title template only for a kind whose messages have a title. */
function titleAllowed(part: TemplatePart, channelKind: string, field: string): void {
  if (part === 'title' && !channelHasTitle(channelKind)) {
    throw new MonitorError('validation_failed', `a ${channelKind} channel's messages have no title of their own; its message template writes the whole text`, {
      field,
      rule: 'template_no_title',
    });
  }
}

/** What a digest or report of each family is called when no recorded one can be shown. */
const EXAMPLE_DIGESTS: Record<string, { kind: string; title: string }> = {
  digest: { kind: 'digest.daily', title: 'Daily digest' },
  report: { kind: 'report.weekly', title: 'Weekly report' },
};

/** An example event for a preview when none of the kind was recorded yet. */
function exampleEvent(kind: string): { event: TemplateEvent; facts: TemplateFacts } {
  const family = kind === '*' ? 'issues' : kind.split('.')[0];
  const digest = EXAMPLE_DIGESTS[family];
  if (digest) {
    const eventKind = kind.includes('.') ? kind : digest.kind;
    const day = new Date().toISOString().slice(0, 10);
    const event: TemplateEvent = {
      id: 0,
      kind: eventKind,
      category: 'other',
      repository: null,
      title: `${digest.title} ${day}`,
      bodyText: 'Events: 12 (issue 5, pull_request 4, workflow_run 3)\nOpen now: 3 issues, 2 pull requests, 0 security alerts\nFailed workflow runs: 1',
      htmlUrl: null,
      actor: null,
      occurredAt: new Date(),
    };
    return { event, facts: factsOfKind(eventKind) };
  }
  const eventKind = kind === '*' ? 'issues.opened' : kind.includes('.') ? kind : `${family}.opened`;
  const event: TemplateEvent = {
    id: 0,
    kind: eventKind,
    category: family,
    repository: 'octo-org/example',
    title: `Example ${eventKind} event`,
    bodyText: 'What the event says appears here.',
    htmlUrl: 'https://github.com/octo-org/example',
    actor: 'octocat',
    occurredAt: new Date(),
  };
  return { event, facts: { ...factsOfKind(eventKind), labels: ['example'], author: 'octocat', branch: 'main' } };
}

/**
 * Message templates of channels and rules: stored, audit-logged and announced (every replica's
 * outbox re-reads them), previewed against recorded events, exported and imported with the rules.
 */
@Injectable()
export class NotificationTemplatesService {
  private readonly cache: ShortCache<NotificationTemplateEntity[]>;

  constructor(
    @Inject(MONITOR_CONFIG) config: MonitorConfig,
    private readonly database: DatabaseWork,
    private readonly records: NotificationTemplateRepository,
    private readonly channels: NotificationChannelRepository,
    private readonly audit: AuditLogService,
    private readonly changes: SettingsChanges,
  ) {
    this.cache = new ShortCache(() => this.records.all(), config.settings.refreshMs, () => database.holdsSqliteConnection());
    changes.subscribe('templates', () => this.cache.clear());
  }

  async list(query: NotificationTemplateQueryDto): Promise<NotificationTemplateDto[]> {
    return (await this.records.all())
      .filter(
        (row) =>
          (!query.channel_id || row.channelId === query.channel_id) && (!query.rule_id || row.ruleId === query.rule_id) && (!query.part || row.part === query.part),
      )
      .map(toDto);
  }

  /** Creates or replaces the template of a channel or rule for an event kind. */
  async save(body: SaveNotificationTemplateDto, actor: string, clientIp: string): Promise<NotificationTemplateDto> {
    const part = body.part ?? 'message';
    if (Boolean(body.channel_id) === Boolean(body.rule_id)) {
      throw new MonitorError('validation_failed', 'give either channel_id or rule_id: a template belongs to one channel or one rule', { field: 'channel_id' });
    }
    let owner: string;
    if (body.channel_id) {
      const channel = await this.channels.findById(body.channel_id);
      if (!channel) throw new MonitorError('validation_failed', `no notification channel has the id ${body.channel_id}`, { field: 'channel_id' });
      titleAllowed(part, channel.kind, 'part');
      checked(body.body, channel.kind, 'body', part);
      owner = channelOwner(channel.id);
    } else {
      if (!(await this.records.ruleExists(body.rule_id as string))) throw new MonitorError('validation_failed', `no notification rule has the id ${body.rule_id}`, { field: 'rule_id' });
      // A rule's template may reach a Telegram chat, so its own markup must be Telegram's.
      checked(body.body, 'telegram', 'body', part);
      owner = ruleOwner(body.rule_id as string);
    }
    const now = new Date();
    let saved: NotificationTemplateEntity | undefined;
    try {
      await this.database.transaction(async (manager) => {
        const existing = await this.records.findByOwner(owner, part, body.event_kind, manager);
        if (existing) {
          await this.records.update(existing.id, { body: body.body, updatedAt: now }, manager);
          saved = { ...existing, body: body.body, updatedAt: now };
        } else {
          if ((await manager.count(NotificationTemplateEntity)) >= TEMPLATE_LIMIT) {
            throw new MonitorError('validation_failed', `there can be at most ${TEMPLATE_LIMIT} templates; reset one first`, { field: 'event_kind' });
          }
          saved = {
            id: randomUUID(),
            owner,
            channelId: body.channel_id ?? null,
            ruleId: body.rule_id ?? null,
            part,
            eventKind: body.event_kind,
            body: body.body,
            createdAt: now,
            updatedAt: now,
          };
          await this.records.insert(saved, manager);
        }
        await this.audit.record(
          { actor, action: 'notification_template.saved', target: saved.id, details: { channel_id: saved.channelId, rule_id: saved.ruleId, part: saved.part, event_kind: saved.eventKind }, clientIp },
          manager,
        );
      });
    } catch (error) {
      // Two saves of one owner and kind at once: the later insert loses the unique index.
      if (error instanceof QueryFailedError && /unique|duplicate/i.test(error.message)) throw new MonitorError('conflict', 'the template was saved meanwhile; try again', { field: 'event_kind' });
      throw error;
    }
    await this.changes.announce('templates');
    return toDto(saved as NotificationTemplateEntity);
  }

  /** Deletes a template: the channel or rule goes back to the default message (or the next broader template). */
  async reset(id: string, actor: string, clientIp: string): Promise<void> {
    const existing = await this.records.findById(id);
    if (!existing) throw new MonitorError('not_found', 'no such notification template');
    await this.database.transaction(async (manager) => {
      await this.records.delete(id, manager);
      await this.audit.record(
        { actor, action: 'notification_template.reset', target: id, details: { channel_id: existing.channelId, rule_id: existing.ruleId, part: existing.part, event_kind: existing.eventKind }, clientIp },
        manager,
      );
    });
    await this.changes.announce('templates');
  }

  /** Renders a template (or the default) for a channel against a recorded event, changing nothing. */
  async preview(body: PreviewNotificationTemplateDto): Promise<NotificationTemplatePreviewDto> {
    let channelKind = body.channel_kind ?? 'telegram';
    if (body.channel_id) {
      const channel = await this.channels.findById(body.channel_id);
      if (!channel) throw new MonitorError('validation_failed', `no notification channel has the id ${body.channel_id}`, { field: 'channel_id' });
      channelKind = channel.kind;
    }
    const part = body.part ?? 'message';
    // A rule's title template is previewed as a titled channel shows it.
    if (part === 'title' && !body.channel_id && !body.channel_kind) channelKind = 'ntfy';
    titleAllowed(part, channelKind, body.channel_id ? 'part' : 'channel_kind');
    const defaultText = part === 'title' ? DEFAULT_TITLE_TEMPLATE : defaultTemplate(channelKind);
    const template = body.body ?? defaultText;
    checked(template, channelKind, 'body', part);
    const row = await this.records.previewEvent(body.event_id !== undefined ? { id: body.event_id } : { kind: body.event_kind });
    if (!row && body.event_id !== undefined) throw new MonitorError('not_found', 'no event has this id', { field: 'event_id' });
    const source = row
      ? {
          event: row,
          facts: row.facts ? (JSON.parse(row.facts) as TemplateFacts) : factsOfKind(row.kind),
        }
      : exampleEvent(body.event_kind);
    const view = templateView(source.event, source.facts);
    const rendered = part === 'title' ? renderTitle(template, view) : renderTemplate(template, view, channelKind);
    return {
      part,
      event: row ? { id: row.id, kind: row.kind, title: row.title, repository: row.repository, occurred_at: row.occurredAt.toISOString() } : null,
      channel_kind: channelKind,
      format: rendered.format,
      limit: rendered.limit,
      whole_message: part === 'message' && templateIsWholeMessage(channelKind),
      template,
      default_template: defaultText,
      rendered: rendered.text,
      length: rendered.text.length,
      truncated: rendered.truncated,
      variables: [...TEMPLATE_VARIABLES],
    };
  }

  /**
   * The template text for a notification to `channelId` routed by `ruleId` (null: no rule), if one
   * applies: the rule's own for the kind comes first, then the channel's.
   */
  async templateFor(channelId: string, ruleId: string | null, kind: string, part: TemplatePart = 'message'): Promise<NotificationTemplateEntity | undefined> {
    const all = (await this.cache.get()).filter((row) => row.part === part);
    if (all.length === 0) return undefined;
    const ofRule = ruleId ? templateFor(all.filter((row) => row.ruleId === ruleId), kind) : undefined;
    return ofRule ?? templateFor(all.filter((row) => row.channelId === channelId), kind);
  }

  /** Renders the applicable template for a channel, or answers undefined when the default message applies. */
  async render(
    channel: { id: string; kind: string },
    ruleId: string | null,
    event: TemplateEvent,
    facts: TemplateFacts,
  ): Promise<(RenderedTemplate & { templateId: string; wholeMessage: boolean }) | undefined> {
    const template = await this.templateFor(channel.id, ruleId, event.kind);
    if (!template) return undefined;
    const rendered = renderTemplate(template.body, templateView(event, facts), channel.kind);
    return { ...rendered, templateId: template.id, wholeMessage: templateIsWholeMessage(channel.kind) };
  }

  /**
   * The title from the applicable title template (the rule's, then the channel's), or undefined
   * when the channel has no title, no template applies, or it renders empty: the event's heading stays.
   */
  async renderTitle(channel: { id: string; kind: string }, ruleId: string | null, event: TemplateEvent, facts: TemplateFacts): Promise<{ templateId: string; text: string } | undefined> {
    if (!channelHasTitle(channel.kind)) return undefined;
    const template = await this.templateFor(channel.id, ruleId, event.kind, 'title');
    if (!template) return undefined;
    const rendered = renderTitle(template.body, templateView(event, facts));
    return rendered.text === '' ? undefined : { templateId: template.id, text: rendered.text };
  }

  /** Every template, for the rules export (rules named, since ids change on import). */
  async exportTemplates(ruleNames: Map<string, string>): Promise<ExportedNotificationTemplateDto[]> {
    return (await this.records.all())
      .filter((row) => row.channelId !== null || (row.ruleId !== null && ruleNames.has(row.ruleId)))
      .map((row) => ({ channel_id: row.channelId, rule: row.ruleId ? (ruleNames.get(row.ruleId) ?? null) : null, part: row.part, event_kind: row.eventKind, body: row.body }));
  }

  /** Checks imported templates before anything is written; `ruleNames` are the imported rules' names (lower case). */
  async checkImport(templates: ExportedNotificationTemplateDto[], ruleNames: Set<string>): Promise<void> {
    const seen = new Set<string>();
    for (const [index, item] of templates.entries()) {
      const field = `templates[${index}]`;
      if (Boolean(item.channel_id) === Boolean(item.rule)) throw new MonitorError('validation_failed', `${field} must name either a channel_id or a rule`, { field });
      let kind = 'telegram';
      if (item.channel_id) {
        const channel = await this.channels.findById(item.channel_id);
        if (!channel) throw new MonitorError('validation_failed', `${field}.channel_id: no notification channel has the id ${item.channel_id}`, { field: `${field}.channel_id` });
        kind = channel.kind;
      } else if (!ruleNames.has((item.rule as string).trim().toLowerCase())) {
        throw new MonitorError('validation_failed', `${field}.rule: no imported rule is named "${item.rule}"`, { field: `${field}.rule` });
      }
      const part = item.part ?? 'message';
      if (item.channel_id) titleAllowed(part, kind, `${field}.part`);
      const key = `${item.channel_id ?? `rule:${(item.rule as string).trim().toLowerCase()}`}|${part}|${item.event_kind}`;
      if (seen.has(key)) throw new MonitorError('validation_failed', `${field} repeats a template for ${item.event_kind}`, { field });
      seen.add(key);
      checked(item.body, kind, `${field}.body`, part);
    }
  }

  /** Replaces every template inside the import's transaction; `ruleIds` maps imported rule names (lower case) to their new ids. */
  async importTemplates(manager: EntityManager, templates: ExportedNotificationTemplateDto[], ruleIds: Map<string, string>): Promise<void> {
    await this.records.deleteAll(manager);
    const now = new Date();
    for (const item of templates) {
      const ruleId = item.rule ? (ruleIds.get(item.rule.trim().toLowerCase()) ?? null) : null;
      await this.records.insert(
        {
          id: randomUUID(),
          owner: item.channel_id ? channelOwner(item.channel_id) : ruleOwner(ruleId as string),
          channelId: item.channel_id ?? null,
          ruleId,
          part: item.part ?? 'message',
          eventKind: item.event_kind,
          body: item.body,
          createdAt: now,
          updatedAt: now,
        },
        manager,
      );
    }
  }

  /** Called after a commit that changed templates outside this service (an import). */
  announce(): Promise<void> {
    return this.changes.announce('templates');
  }
}
