/**
 * Routing rules, as pure functions: which rules match an event's facts, and where the event goes.
 * The service stores rules and facts; this file decides. No I/O here, so a dry run and the live
 * path answer alike.
 */

/** What a rule can match on; every field optional, absent (or null) matches all. */
export interface RuleMatch {
  repositories?: string[];
  events?: string[];
  actions?: string[];
  labels_any?: string[];
  labels_all?: string[];
  labels_none?: string[];
  authors?: string[];
  authors_exclude?: string[];
  ignore_bots?: boolean;
  branches?: string[];
  workflows?: string[];
  conclusions?: string[];
  severities?: string[];
  draft?: boolean;
}

export const QUIET_HOURS_ACTIONS = ['hold', 'drop'] as const;
export type QuietHoursAction = (typeof QUIET_HOURS_ACTIONS)[number];

/** Local wall-clock window (in the configured time zone); `end` before `start` spans midnight. */
export interface QuietHours {
  start: string;
  end: string;
  /** hold: send when the window ends; drop: do not send. */
  action: QuietHoursAction;
}

export const ROUTE_MODES = ['now', 'digest'] as const;
export type RouteMode = (typeof ROUTE_MODES)[number];

export interface RuleRoute {
  channel_ids: string[];
  message_thread_id: number | null;
  mode: RouteMode;
  quiet_hours: QuietHours | null;
}

export interface RoutingRule {
  id: string;
  name: string;
  enabled: boolean;
  match: RuleMatch;
  route: RuleRoute;
  stop: boolean;
}

/** What rules are matched against, taken from an event when it is recorded. */
export interface EventFacts {
  repository: string | null;
  /** The event family: `issues`, `pull_request`, `workflow_run`, `digest`… */
  event: string;
  /** The part of the kind after the family: `opened`, `merged`, `failure`, `daily`… */
  action: string;
  labels: string[];
  author: string | null;
  sender: string | null;
  branch: string | null;
  workflow: string | null;
  conclusion: string | null;
  severity: string | null;
  draft: boolean | null;
}

/**
 * Logins taken for bots besides those ending in `[bot]`: the accounts well-known automation posts
 * as when it uses a user token or an older integration.
 */
export const KNOWN_BOT_LOGINS: readonly string[] = [
  'dependabot',
  'dependabot-preview',
  'renovate',
  'renovate-bot',
  'renovatebot',
  'github-actions',
  'greenkeeper',
  'snyk-bot',
  'imgbot',
  'codecov',
  'codecov-commenter',
  'mergify',
  'pre-commit-ci',
  'allcontributors',
  'kodiakhq',
  'web-flow',
];

export function isBotLogin(login: string): boolean {
  const lower = login.toLowerCase();
  return lower.endsWith('[bot]') || KNOWN_BOT_LOGINS.includes(lower);
}

/**
 * A glob as a regular expression: `*` is any run of characters but `/`, `**` any run at all, `?`
 * one character; everything else literal. Case-insensitive (GitHub names are).
 */
export function globPattern(glob: string): RegExp {
  let source = '';
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index];
    if (char === '*') {
      if (glob[index + 1] === '*') {
        source += '.*';
        index++;
      } else source += '[^/]*';
    } else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 'i');
}

const globCache = new Map<string, RegExp>();
function globMatches(glob: string, value: string): boolean {
  let pattern = globCache.get(glob);
  if (!pattern) {
    pattern = globPattern(glob);
    if (globCache.size > 5000) globCache.clear();
    globCache.set(glob, pattern);
  }
  return pattern.test(value);
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const given = (list: string[] | undefined): list is string[] => Array.isArray(list) && list.length > 0;
const quote = (values: string[]) => values.join(', ');

/** Why the rule does not match the event (the first field that fails), or null when it matches. */
export function mismatch(match: RuleMatch, facts: EventFacts): string | null {
  if (given(match.repositories)) {
    if (!facts.repository) return 'repositories: the event has no repository';
    if (!match.repositories.some((glob) => globMatches(glob, facts.repository as string))) return `repositories: ${facts.repository} is not one of ${quote(match.repositories)}`;
  }
  if (given(match.events) && !match.events.some((event) => same(event, facts.event))) return `events: ${facts.event} is not one of ${quote(match.events)}`;
  if (given(match.actions) && !match.actions.some((action) => same(action, facts.action))) return `actions: ${facts.action || '(none)'} is not one of ${quote(match.actions)}`;
  const hasLabel = (label: string) => facts.labels.some((own) => same(own, label));
  if (given(match.labels_any) && !match.labels_any.some(hasLabel)) return `labels_any: none of ${quote(match.labels_any)} is on the event`;
  if (given(match.labels_all)) {
    const missing = match.labels_all.filter((label) => !hasLabel(label));
    if (missing.length > 0) return `labels_all: ${quote(missing)} missing`;
  }
  if (given(match.labels_none)) {
    const present = match.labels_none.filter(hasLabel);
    if (present.length > 0) return `labels_none: ${quote(present)} present`;
  }
  const people = [...new Set([facts.author, facts.sender].filter((login): login is string => Boolean(login)))];
  if (given(match.authors) && !people.some((login) => match.authors?.some((author) => same(author, login)))) {
    return `authors: ${people.length > 0 ? quote(people) : '(nobody)'} not in ${quote(match.authors)}`;
  }
  if (given(match.authors_exclude)) {
    const excluded = people.filter((login) => match.authors_exclude?.some((author) => same(author, login)));
    if (excluded.length > 0) return `authors_exclude: ${quote(excluded)} excluded`;
  }
  if (match.ignore_bots === true) {
    const bots = people.filter(isBotLogin);
    if (bots.length > 0) return `ignore_bots: ${quote(bots)} is a bot`;
  }
  if (given(match.branches)) {
    if (!facts.branch) return 'branches: the event has no branch';
    if (!match.branches.some((glob) => globMatches(glob, facts.branch as string))) return `branches: ${facts.branch} is not one of ${quote(match.branches)}`;
  }
  if (given(match.workflows)) {
    if (!facts.workflow) return 'workflows: the event has no workflow';
    if (!match.workflows.some((glob) => globMatches(glob, facts.workflow as string))) return `workflows: ${facts.workflow} is not one of ${quote(match.workflows)}`;
  }
  if (given(match.conclusions)) {
    if (!facts.conclusion) return 'conclusions: the event has no conclusion';
    if (!match.conclusions.some((conclusion) => same(conclusion, facts.conclusion as string))) return `conclusions: ${facts.conclusion} is not one of ${quote(match.conclusions)}`;
  }
  if (given(match.severities)) {
    if (!facts.severity) return 'severities: the event has no severity';
    if (!match.severities.some((severity) => same(severity, facts.severity as string))) return `severities: ${facts.severity} is not one of ${quote(match.severities)}`;
  }
  if (typeof match.draft === 'boolean') {
    if (facts.draft === null) return 'draft: the event is not a pull request';
    if (facts.draft !== match.draft) return `draft: the pull request is ${facts.draft ? '' : 'not '}a draft`;
  }
  return null;
}

/** Minutes since local midnight of `HH:MM`. */
function minutesOf(time: string): number {
  const [hour, minute] = time.split(':').map(Number);
  return hour * 60 + minute;
}

export interface ZonedClock {
  /** Minutes since local midnight at `instant` in the zone. */
  localMinutes(instant: Date): number;
  /** The next instant after `instant` at which the local clock shows `minutes` (DST: the later one). */
  nextLocal(instant: Date, minutes: number): Date;
}

/** Whether `now` falls in the quiet hours; when it does, the instant they end. */
export function quietUntil(quiet: QuietHours, now: Date, clock: ZonedClock): Date | null {
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  if (start === end) return null;
  const current = clock.localMinutes(now);
  const inside = start < end ? current >= start && current < end : current >= start || current < end;
  return inside ? clock.nextLocal(now, end) : null;
}

export type DeliveryOutcome = 'queued' | 'held' | 'digest' | 'dropped_quiet_hours' | 'channel_unavailable' | 'duplicate';

/** One place the event was sent to (or was meant to go and did not). */
export interface RoutedDelivery {
  channel_id: string;
  message_thread_id: number | null;
  /** The rule that routed it; null when the channels' own kind filters decided (no rule exists). */
  rule_id: string | null;
  outcome: DeliveryOutcome;
  /** held: when it is sent. */
  send_after: string | null;
}

export interface RuleVerdict {
  rule_id: string;
  name: string;
  matched: boolean;
  /** Why not (the first field that failed), or `disabled`. */
  reason: string | null;
  /** This rule matched and has `stop`: the rules after it were not consulted. */
  stopped: boolean;
}

export interface RoutingDecision {
  /** rules: the rules decided; channel_filters: no enabled rule, each channel's kind filter decided. */
  mode: 'rules' | 'channel_filters';
  rules: RuleVerdict[];
  deliveries: RoutedDelivery[];
}

/** A channel as routing sees it: whether it exists and is enabled, and its kind filter and default topic. */
export interface RoutableChannel {
  id: string;
  kind: string;
  enabled: boolean;
  eventKinds: string[];
  defaultThreadId: number | null;
}

/** Whether a channel's event-kind filter lets an event through (exact kind, its family, or its category). */
export function kindFilterWants(eventKinds: string[], kind: string, category: string): boolean {
  if (eventKinds.length === 0) return true;
  const family = kind.split('.')[0];
  return eventKinds.some((wanted) => wanted === kind || wanted === family || wanted === category || wanted === '*');
}

/**
 * Where an event goes. Rules are consulted in order; every enabled rule that matches adds its
 * routes, and one with `stop` ends the consultation. With no enabled rule, every enabled channel
 * whose kind filter wants the event gets it (the behaviour before rules existed). The first route
 * to a channel and topic wins; a later one is reported as a duplicate.
 */
export function routeEvent(
  rules: RoutingRule[],
  facts: EventFacts,
  event: { kind: string; category: string },
  channels: RoutableChannel[],
  now: Date,
  clock: ZonedClock,
): RoutingDecision {
  const byId = new Map(channels.map((channel) => [channel.id, channel]));
  const enabledRules = rules.filter((rule) => rule.enabled);
  if (enabledRules.length === 0) {
    const deliveries = channels
      .filter((channel) => channel.enabled && kindFilterWants(channel.eventKinds, event.kind, event.category))
      .map((channel): RoutedDelivery => ({
        channel_id: channel.id,
        message_thread_id: channel.kind === 'telegram' ? channel.defaultThreadId : null,
        rule_id: null,
        outcome: 'queued',
        send_after: null,
      }));
    return { mode: 'channel_filters', rules: rules.map((rule) => ({ rule_id: rule.id, name: rule.name, matched: false, reason: 'disabled', stopped: false })), deliveries };
  }
  const verdicts: RuleVerdict[] = [];
  const deliveries: RoutedDelivery[] = [];
  const taken = new Set<string>();
  let stopped = false;
  for (const rule of rules) {
    if (stopped) break;
    if (!rule.enabled) {
      verdicts.push({ rule_id: rule.id, name: rule.name, matched: false, reason: 'disabled', stopped: false });
      continue;
    }
    const reason = mismatch(rule.match, facts);
    const matched = reason === null;
    stopped = matched && rule.stop;
    verdicts.push({ rule_id: rule.id, name: rule.name, matched, reason, stopped });
    if (!matched) continue;
    const quietEnd = rule.route.quiet_hours ? quietUntil(rule.route.quiet_hours, now, clock) : null;
    for (const channelId of rule.route.channel_ids) {
      const channel = byId.get(channelId);
      const thread = channel?.kind === 'telegram' ? (rule.route.message_thread_id ?? channel.defaultThreadId) : null;
      const key = `${channelId}|${thread ?? ''}`;
      const delivery: RoutedDelivery = { channel_id: channelId, message_thread_id: thread, rule_id: rule.id, outcome: 'queued', send_after: null };
      if (!channel || !channel.enabled) delivery.outcome = 'channel_unavailable';
      else if (taken.has(key)) delivery.outcome = 'duplicate';
      else if (rule.route.mode === 'digest') delivery.outcome = 'digest';
      else if (quietEnd && rule.route.quiet_hours?.action === 'drop') delivery.outcome = 'dropped_quiet_hours';
      else if (quietEnd) {
        delivery.outcome = 'held';
        delivery.send_after = quietEnd.toISOString();
      }
      if (delivery.outcome !== 'channel_unavailable' && delivery.outcome !== 'duplicate') taken.add(key);
      deliveries.push(delivery);
    }
  }
  return { mode: 'rules', rules: verdicts, deliveries };
}
