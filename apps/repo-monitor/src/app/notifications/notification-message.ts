import { escapeTelegramHtml } from '@shared/notify';
import type { EventCategory } from '../common/event-category';

/** What one notification says, rendered once when its event is recorded and stored in the outbox row. */
export interface NotificationMessage {
  /** Event kind, e.g. `issues.opened`; `summary.aggregate` / `summary.burst` for merged messages. */
  kind: string;
  category: EventCategory;
  repository: string | null;
  title: string;
  /** Telegram HTML. */
  bodyHtml: string;
  bodyPlain: string;
  url: string | null;
  occurredAt: string;
  /** The `event` object of the outbound webhook body. */
  event: Record<string, unknown>;
  /**
   * The channel's (or the routing rule's) template, rendered for this channel: the whole text
   * (Telegram, webhook) or the text under the title (the other kinds). Absent: the default message.
   */
  template?: { id: string; format: string; text: string; wholeMessage: boolean };
  /** The channel's (or the rule's) title template, rendered: the push title or email subject. Absent: the heading. */
  titleTemplate?: { id: string; text: string };
}

export interface EventForMessage {
  id: number;
  kind: string;
  category: EventCategory;
  repository: string | null;
  title: string;
  bodyText: string;
  htmlUrl: string | null;
  actor: string | null;
  fingerprint: string;
  occurredAt: Date;
  details: Record<string, unknown>;
}

/** The message for one event. */
export function messageForEvent(event: EventForMessage): NotificationMessage {
  const heading = event.repository ? `[${event.repository}] ${event.title}` : event.title;
  const lines = [`<b>${escapeTelegramHtml(heading)}</b>`];
  if (event.bodyText) lines.push(escapeTelegramHtml(event.bodyText));
  if (event.actor) lines.push(`by ${escapeTelegramHtml(event.actor)}`);
  const plain = [heading, event.bodyText, event.actor ? `by ${event.actor}` : ''].filter(Boolean).join('\n');
  return {
    kind: event.kind,
    category: event.category,
    repository: event.repository,
    title: heading,
    bodyHtml: lines.join('\n'),
    bodyPlain: plain,
    url: event.htmlUrl,
    occurredAt: event.occurredAt.toISOString(),
    event: {
      id: event.id,
      kind: event.kind,
      category: event.category,
      repository: event.repository,
      title: event.title,
      url: event.htmlUrl,
      actor: event.actor,
      fingerprint: event.fingerprint,
      occurred_at: event.occurredAt.toISOString(),
      ...event.details,
    },
  };
}

/** One message for several events of one repository and category (aggregation window or burst). */
export function mergedMessage(role: 'aggregate' | 'burst', items: NotificationMessage[], windowSeconds: number): NotificationMessage {
  const first = items[0];
  const repository = first.repository;
  const where = repository ?? 'GitHub';
  const title =
    role === 'burst'
      ? `[${where}] ${items.length} ${first.category} events in a burst (within ${windowSeconds} s)`
      : `[${where}] ${items.length} ${first.category} events`;
  const shown = items.slice(0, 20);
  const htmlLines = shown.map((item) =>
    item.url ? `• <a href="${escapeTelegramHtml(item.url)}">${escapeTelegramHtml(item.title)}</a>` : `• ${escapeTelegramHtml(item.title)}`,
  );
  const plainLines = shown.map((item) => `- ${item.title}${item.url ? ` ${item.url}` : ''}`);
  if (items.length > shown.length) {
    htmlLines.push(`… and ${items.length - shown.length} more`);
    plainLines.push(`... and ${items.length - shown.length} more`);
  }
  return {
    kind: role === 'burst' ? 'summary.burst' : 'summary.aggregate',
    category: first.category,
    repository,
    title,
    bodyHtml: [`<b>${escapeTelegramHtml(title)}</b>`, ...htmlLines].join('\n'),
    bodyPlain: [title, ...plainLines].join('\n'),
    url: repository ? `https://github.com/${repository}` : first.url,
    occurredAt: items[items.length - 1].occurredAt,
    event: {
      kind: role === 'burst' ? 'summary.burst' : 'summary.aggregate',
      category: first.category,
      repository,
      count: items.length,
      items: items.map((item) => item.event),
    },
  };
}
