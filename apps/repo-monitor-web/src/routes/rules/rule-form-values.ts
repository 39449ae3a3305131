import type { Schemas } from '../../api/client';

type Rule = Schemas['NotificationRuleDto'];
type Match = Schemas['RuleMatchDto'];
export type RuleUpdate = Schemas['UpdateNotificationRuleDto'];

export const RULE_EVENTS = [
  'issues',
  'pull_request',
  'workflow_run',
  'release',
  'star',
  'watch',
  'dependabot_alert',
  'code_scanning_alert',
  'secret_scanning_alert',
  'pr_review',
  'digest',
  'report',
] as const satisfies ReadonlyArray<NonNullable<Match['events']>[number]>;
export const RULE_CONCLUSIONS = ['success', 'failure', 'neutral', 'cancelled', 'skipped', 'timed_out', 'action_required', 'stale', 'startup_failure'] as const satisfies ReadonlyArray<
  NonNullable<Match['conclusions']>[number]
>;
export const RULE_SEVERITIES = ['critical', 'high', 'medium', 'moderate', 'low', 'warning', 'note', 'error'] as const satisfies ReadonlyArray<NonNullable<Match['severities']>[number]>;

/** The match fields written as text, one entry per line or comma. */
export const TEXT_LIST_FIELDS = ['repositories', 'actions', 'labels_any', 'labels_all', 'labels_none', 'authors', 'authors_exclude', 'branches', 'workflows'] as const;
export type TextListField = (typeof TEXT_LIST_FIELDS)[number];

export interface RuleFormValues {
  name: string;
  enabled: boolean;
  stop: boolean;
  lists: Record<TextListField, string>;
  events: string[];
  conclusions: string[];
  severities: string[];
  ignore_bots: boolean;
  /** '' any, 'draft' drafts only, 'ready' no drafts. */
  draft: '' | 'draft' | 'ready';
  channel_ids: string[];
  topic: string;
  mode: 'now' | 'digest';
  quiet: boolean;
  quiet_start: string;
  quiet_end: string;
  quiet_action: 'hold' | 'drop';
}

export function ruleFormFrom(rule: Rule): RuleFormValues {
  const match = rule.match;
  const lists = Object.fromEntries(TEXT_LIST_FIELDS.map((field) => [field, (match[field] ?? []).join(', ')])) as Record<TextListField, string>;
  return {
    name: rule.name,
    enabled: rule.enabled,
    stop: rule.stop,
    lists,
    events: match.events ?? [],
    conclusions: match.conclusions ?? [],
    severities: match.severities ?? [],
    ignore_bots: match.ignore_bots ?? false,
    draft: match.draft === true ? 'draft' : match.draft === false ? 'ready' : '',
    channel_ids: rule.route.channel_ids,
    topic: rule.route.message_thread_id === null ? '' : String(rule.route.message_thread_id),
    mode: rule.route.mode,
    quiet: rule.route.quiet_hours !== null,
    quiet_start: rule.route.quiet_hours?.start ?? '22:00',
    quiet_end: rule.route.quiet_hours?.end ?? '07:00',
    quiet_action: rule.route.quiet_hours?.action ?? 'hold',
  };
}

/** The entries of a list field: split on commas and lines, trimmed, empty ones and repeats dropped. */
export function listEntries(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[,\n]/)
        .map((entry) => entry.trim())
        .filter((entry) => entry !== ''),
    ),
  ];
}

export type RuleFormErrors = Partial<Record<'name' | TextListField | 'channel_ids' | 'topic' | 'quiet', string>>;

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
const ACTION = /^[a-z_]{1,64}$/;

/** The service's rules, checked next to each field before the rule is sent. */
export function validateRuleForm(values: RuleFormValues, channelKinds: Map<string, string>): RuleFormErrors {
  const errors: RuleFormErrors = {};
  if (values.name.trim() === '') errors.name = 'nameRequired';
  for (const field of TEXT_LIST_FIELDS) {
    const entries = listEntries(values.lists[field]);
    if (entries.length > 50) errors[field] = 'listTooLong';
    else if (entries.some((entry) => entry.length > 200)) errors[field] = 'entryTooLong';
    else if (field === 'actions' && entries.some((entry) => !ACTION.test(entry))) errors[field] = 'actionInvalid';
  }
  if (values.channel_ids.length > 20) errors.channel_ids = 'tooManyChannels';
  const topic = values.topic.trim();
  if (topic !== '') {
    if (!/^\d{1,10}$/.test(topic) || Number(topic) < 1 || Number(topic) > 2_147_483_647) errors.topic = 'topicInvalid';
    else if (!values.channel_ids.some((id) => channelKinds.get(id) === 'telegram')) errors.topic = 'topicNeedsTelegram';
  }
  if (values.quiet) {
    if (!HH_MM.test(values.quiet_start) || !HH_MM.test(values.quiet_end)) errors.quiet = 'quietFormat';
    else if (values.quiet_start === values.quiet_end) errors.quiet = 'quietSame';
  }
  return errors;
}

/** The PATCH body: the whole match and route (the service replaces both). */
export function ruleUpdateBody(values: RuleFormValues): RuleUpdate {
  const match: Match = {};
  for (const field of TEXT_LIST_FIELDS) {
    const entries = listEntries(values.lists[field]);
    if (entries.length > 0) match[field] = entries;
  }
  if (values.events.length > 0) match.events = values.events as Match['events'];
  if (values.conclusions.length > 0) match.conclusions = values.conclusions as Match['conclusions'];
  if (values.severities.length > 0) match.severities = values.severities as Match['severities'];
  if (values.ignore_bots) match.ignore_bots = true;
  if (values.draft !== '') match.draft = values.draft === 'draft';
  const topic = values.topic.trim();
  return {
    name: values.name.trim(),
    enabled: values.enabled,
    stop: values.stop,
    match,
    route: {
      channel_ids: values.channel_ids,
      message_thread_id: topic === '' ? null : Number(topic),
      mode: values.mode,
      quiet_hours: values.quiet ? { start: values.quiet_start, end: values.quiet_end, action: values.quiet_action } : null,
    },
  };
}
