import type { Schemas } from '../../api/client';

type NewRule = Schemas['CreateNotificationRuleDto'];

interface RuleTemplate {
  /** Whether the rule sends somewhere (a channel must be chosen) or mutes. */
  needsChannel: boolean;
  build: (channelIds: string[], topic: number | null) => Pick<NewRule, 'match' | 'route' | 'stop'>;
}

const mute = (authors: string[]): RuleTemplate => ({
  needsChannel: false,
  build: () => ({ match: { authors }, route: { channel_ids: [] }, stop: true }),
});

/** The rules the console offers to start from. */
export const RULE_TEMPLATES = {
  muteDependabot: mute(['dependabot[bot]']),
  muteBots: mute(['dependabot[bot]', 'renovate[bot]', 'github-actions[bot]']),
  failedMain: {
    needsChannel: true,
    build: (channelIds, topic) => ({
      match: { events: ['workflow_run'], conclusions: ['failure', 'timed_out', 'startup_failure'], branches: ['main'] },
      route: { channel_ids: channelIds, message_thread_id: topic },
      stop: true,
    }),
  },
  security: {
    needsChannel: true,
    build: (channelIds, topic) => ({
      match: { events: ['dependabot_alert', 'code_scanning_alert', 'secret_scanning_alert'], severities: ['critical', 'high'] },
      route: { channel_ids: channelIds, message_thread_id: topic },
      stop: false,
    }),
  },
  everything: {
    needsChannel: true,
    build: (channelIds, topic) => ({ match: {}, route: { channel_ids: channelIds, message_thread_id: topic }, stop: false }),
  },
} satisfies Record<string, RuleTemplate>;

export type RuleTemplateId = keyof typeof RULE_TEMPLATES;

/** The request body of a rule made from a template. */
export function ruleFromTemplate(id: RuleTemplateId, name: string, channelId: string | null, topic: number | null): NewRule {
  const template: RuleTemplate = RULE_TEMPLATES[id];
  const channelIds = template.needsChannel && channelId ? [channelId] : [];
  return { name, enabled: true, ...template.build(channelIds, template.needsChannel ? topic : null) };
}
