/**
 * Message templates, as pure functions: a logic-less Mustache template per event kind, rendered with
 * the event's values escaped for the channel's format (Telegram HTML, Discord Markdown, Slack mrkdwn
 * or plain text) and cut to the channel's length limit. No I/O here, so the preview and the live
 * path render alike.
 */
import Mustache from 'mustache';
import {
  clipText,
  DISCORD_CONTENT_LIMIT,
  escapeDiscordMarkdown,
  escapeSlackText,
  escapeTelegramHtml,
  MONITOR_TELEGRAM_TEXT_LIMIT,
  SLACK_TEXT_LIMIT,
  TEAMS_TEXT_LIMIT,
  truncateTelegramHtml,
} from '@shared/notify';

// Templates come from the API: parsed trees are not kept (an unbounded cache keyed by template text).
Mustache.templateCache = undefined;

export const TEMPLATE_FORMATS = ['telegram_html', 'discord_markdown', 'slack_mrkdwn', 'plain'] as const;
export type TemplateFormat = (typeof TEMPLATE_FORMATS)[number];

/** The most templates stored (all channels and rules together). */
export const TEMPLATE_LIMIT = 500;

/** The longest template accepted, in characters. */
export const TEMPLATE_MAX_LENGTH = 4000;

/** What a template writes: the message (its text) or its title (a push title, an email subject). */
export const TEMPLATE_PARTS = ['message', 'title'] as const;
export type TemplatePart = (typeof TEMPLATE_PARTS)[number];

/** The longest title template accepted, in characters. */
export const TITLE_TEMPLATE_MAX_LENGTH = 500;

/** The longest rendered title: one line of plain text, cut here. */
export const TITLE_LIMIT = 250;

/**
 * Kinds whose messages carry a title of their own, which a title template writes: the push title
 * (ntfy, Bark, Gotify), the email subject, and the bold first line of a Discord, Slack or Teams post.
 * Telegram and the signed webhook have none (their message template writes the whole text).
 */
export const TITLED_CHANNEL_KINDS = ['discord', 'slack', 'teams', 'ntfy', 'bark', 'gotify', 'email'] as const;

export function channelHasTitle(kind: string): boolean {
  return (TITLED_CHANNEL_KINDS as readonly string[]).includes(kind);
}

/** How each channel kind reads a rendered template, and how long it may be. */
export const CHANNEL_TEMPLATE_FORMAT: Record<string, { format: TemplateFormat; limit: number }> = {
  telegram: { format: 'telegram_html', limit: MONITOR_TELEGRAM_TEXT_LIMIT },
  discord: { format: 'discord_markdown', limit: DISCORD_CONTENT_LIMIT - 300 },
  slack: { format: 'slack_mrkdwn', limit: SLACK_TEXT_LIMIT - 300 },
  teams: { format: 'plain', limit: TEAMS_TEXT_LIMIT },
  ntfy: { format: 'plain', limit: 4000 },
  bark: { format: 'plain', limit: 1000 },
  gotify: { format: 'plain', limit: 4000 },
  email: { format: 'plain', limit: 20_000 },
  http_webhook: { format: 'plain', limit: 10_000 },
};

export function formatOfChannel(kind: string): { format: TemplateFormat; limit: number } {
  return CHANNEL_TEMPLATE_FORMAT[kind] ?? { format: 'plain', limit: 4000 };
}

const ESCAPE: Record<TemplateFormat, (text: string) => string> = {
  telegram_html: escapeTelegramHtml,
  discord_markdown: escapeDiscordMarkdown,
  slack_mrkdwn: escapeSlackText,
  plain: (text) => text,
};

/** The values a template can use (`{{name}}`; lists and flags as sections: `{{#labels}}{{.}} {{/labels}}`). */
export const TEMPLATE_VARIABLES = [
  'heading',
  'title',
  'body',
  'repository',
  'kind',
  'event',
  'action',
  'category',
  'actor',
  'author',
  'url',
  'occurred_at',
  'event_id',
  'labels',
  'branch',
  'workflow',
  'conclusion',
  'severity',
  'draft',
] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];

/** An event as a template sees it. */
export interface TemplateEvent {
  id: number;
  kind: string;
  category: string;
  repository: string | null;
  title: string;
  bodyText: string;
  htmlUrl: string | null;
  actor: string | null;
  occurredAt: Date;
}

/** What routing recorded of an event (a part of the rules' EventFacts, which has this shape). */
export interface TemplateFacts {
  event: string;
  action: string;
  labels: string[];
  author: string | null;
  branch: string | null;
  workflow: string | null;
  conclusion: string | null;
  severity: string | null;
  draft: boolean | null;
}

/** The facts of an event routing did not record: what its kind tells. */
export function factsOfKind(kind: string): TemplateFacts {
  const [family, ...rest] = kind.split('.');
  return { event: family, action: rest.join('.'), labels: [], author: null, branch: null, workflow: null, conclusion: null, severity: null, draft: null };
}

export type TemplateView = Record<TemplateVariable, string | number | boolean | string[] | null>;

export function templateView(event: TemplateEvent, facts: TemplateFacts): TemplateView {
  return {
    heading: event.repository ? `[${event.repository}] ${event.title}` : event.title,
    title: event.title,
    body: event.bodyText || null,
    repository: event.repository,
    kind: event.kind,
    event: facts.event,
    action: facts.action || null,
    category: event.category,
    actor: event.actor,
    author: facts.author,
    url: event.htmlUrl,
    occurred_at: event.occurredAt.toISOString(),
    event_id: event.id,
    labels: facts.labels,
    branch: facts.branch,
    workflow: facts.workflow,
    conclusion: facts.conclusion,
    severity: facts.severity,
    draft: facts.draft,
  };
}

/** Tags Telegram's HTML parse mode knows (https://core.telegram.org/bots/api#html-style). */
const TELEGRAM_TAGS = new Set(['b', 'strong', 'i', 'em', 'u', 'ins', 's', 'strike', 'del', 'a', 'code', 'pre', 'tg-spoiler', 'span', 'blockquote']);
const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s[^<>]*)?)>/g;

/**
 * Why a template is refused, as the `rule` of the 400's `details.fields[]` entry: the console
 * translates it (with `max` where there is one); the message stays the English sentence.
 */
export type TemplateRule =
  | 'template_empty'
  | 'template_too_long'
  | 'template_syntax'
  | 'template_unescaped'
  | 'template_partial'
  | 'template_delimiters'
  | 'template_unknown_value'
  | 'template_nesting'
  | 'template_tag'
  | 'template_tag_order'
  | 'template_unclosed';

/** A template the API refuses: what is wrong, in a sentence, and the rule it breaks. */
export class TemplateProblem extends Error {
  constructor(
    readonly rule: TemplateRule,
    message: string,
    readonly max?: number,
  ) {
    super(message);
  }
}

type Token = [string, string, number, number, Token[]?, number?];

function checkTokens(tokens: Token[], depth: number): void {
  if (depth > 8) throw new TemplateProblem('template_nesting', 'sections may be nested at most 8 deep', 8);
  for (const token of tokens) {
    const [type, name] = token;
    if (type === 'text') continue;
    if (type === '!') continue;
    if (type === '&' || type === '{') throw new TemplateProblem('template_unescaped', `{{{${name}}}} and {{&${name}}} would skip escaping; write {{${name}}}`);
    if (type === '>') throw new TemplateProblem('template_partial', 'partials ({{>name}}) are not available');
    if (type === '=') throw new TemplateProblem('template_delimiters', 'changing the delimiters ({{=…=}}) is not supported');
    if (name !== '.' && !(TEMPLATE_VARIABLES as readonly string[]).includes(name)) {
      throw new TemplateProblem('template_unknown_value', `{{${name}}} is not a value templates know; use one of ${TEMPLATE_VARIABLES.join(', ')}`);
    }
    if ((type === '#' || type === '^') && token[4]) checkTokens(token[4], depth + 1);
  }
}

/** Checks the markup a Telegram template writes itself: known tags, each closed in order. */
function checkTelegramMarkup(template: string): void {
  const open: string[] = [];
  for (const match of template.replace(/\{\{[\s\S]*?\}\}/g, '').matchAll(TAG)) {
    const name = (match[2] as string).toLowerCase();
    if (!TELEGRAM_TAGS.has(name)) throw new TemplateProblem('template_tag', `<${name}> is not a tag Telegram shows; use b, i, u, s, a, code, pre, blockquote or tg-spoiler`);
    if (match[1] === '/') {
      if (open.pop() !== name) throw new TemplateProblem('template_tag_order', `</${name}> closes a tag that is not open`);
    } else open.push(name);
  }
  if (open.length > 0) throw new TemplateProblem('template_unclosed', `<${open[open.length - 1]}> is never closed`);
}

/**
 * Refuses a template that cannot render safely in `format`; answers nothing when it is fine. A
 * title template is plain text whatever the channel's format (each sender escapes its title).
 */
export function checkTemplate(template: string, format: TemplateFormat, part: TemplatePart = 'message'): void {
  const maxLength = part === 'title' ? TITLE_TEMPLATE_MAX_LENGTH : TEMPLATE_MAX_LENGTH;
  if (template.trim() === '') throw new TemplateProblem('template_empty', 'the template is empty; reset to the default instead');
  if (template.length > maxLength) throw new TemplateProblem('template_too_long', `the template is longer than ${maxLength} characters`, maxLength);
  let tokens: Token[];
  try {
    tokens = Mustache.parse(template) as Token[];
  } catch (error) {
    throw new TemplateProblem('template_syntax', `the template does not parse: ${(error as Error).message}`);
  }
  checkTokens(tokens, 0);
  if (part === 'message' && format === 'telegram_html') checkTelegramMarkup(template);
}

export interface RenderedTemplate {
  format: TemplateFormat;
  text: string;
  /** The text was longer than the channel takes and was cut. */
  truncated: boolean;
  limit: number;
}

/** Renders a checked template for a channel kind: values escaped for its format, cut to its limit. */
export function renderTemplate(template: string, view: TemplateView, channelKind: string): RenderedTemplate {
  const { format, limit } = formatOfChannel(channelKind);
  const rendered = Mustache.render(template, view, {}, { escape: ESCAPE[format] }).replace(/\n{3,}/g, '\n\n').trim();
  if (rendered.length <= limit) return { format, text: rendered, truncated: false, limit };
  const text = format === 'telegram_html' ? truncateTelegramHtml(rendered, limit) : clipText(rendered, limit);
  return { format, text, truncated: true, limit };
}

/** Renders a checked title template: plain text on one line, cut to TITLE_LIMIT (an empty result: the default title). */
export function renderTitle(template: string, view: TemplateView): RenderedTemplate {
  const rendered = Mustache.render(template, view, {}, { escape: ESCAPE.plain }).replace(/\s+/g, ' ').trim();
  if (rendered.length <= TITLE_LIMIT) return { format: 'plain', text: rendered, truncated: false, limit: TITLE_LIMIT };
  return { format: 'plain', text: clipText(rendered, TITLE_LIMIT), truncated: true, limit: TITLE_LIMIT };
}

/** The title a channel's messages get without a title template (the event's heading), written as one. */
export const DEFAULT_TITLE_TEMPLATE = '{{heading}}';

/**
 * The message a channel sends without a template, written as one (the editor starts from it).
 * Telegram and the signed webhook get the whole text; the other kinds show the event's heading as
 * their title, so their template is the text under it.
 */
export function defaultTemplate(channelKind: string): string {
  const rest = '{{#body}}\n{{body}}{{/body}}{{#actor}}\nby {{actor}}{{/actor}}';
  if (channelKind === 'telegram') return `<b>{{heading}}</b>${rest}`;
  if (channelKind === 'http_webhook') return `{{heading}}${rest}`;
  return '{{#body}}{{body}}\n{{/body}}{{#actor}}by {{actor}}{{/actor}}';
}

/** Whether a kind's template is the whole message (true) or the text under the title (false). */
export function templateIsWholeMessage(channelKind: string): boolean {
  return channelKind === 'telegram' || channelKind === 'http_webhook';
}

/** The template event kinds: `*` (every kind), a family (`issues`) or a kind (`issues.opened`). */
export const TEMPLATE_EVENT_KIND = /^(\*|[a-z_]{1,40}(\.[a-z_]{1,40})?)$/;

/** Of the templates for one owner (event kind -> template), the one for `kind`: exact, then family, then `*`. */
export function templateFor<T extends { eventKind: string }>(templates: readonly T[], kind: string): T | undefined {
  const family = kind.split('.')[0];
  return templates.find((item) => item.eventKind === kind) ?? templates.find((item) => item.eventKind === family) ?? templates.find((item) => item.eventKind === '*');
}
