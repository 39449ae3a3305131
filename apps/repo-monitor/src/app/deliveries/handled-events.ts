import type { EmitterWebhookEventName } from '@octokit/webhooks';

/**
 * The GitHub events repo-monitor applies (processing/delivery-applier); any other event is stored
 * and ignored. Here, not in processing/, because the Deliveries list says which were ignored too.
 */
export const APPLIED_EVENTS = [
  'installation',
  'installation_repositories',
  'repository',
  'star',
  'watch',
  'issues',
  'pull_request',
  'workflow_run',
  'release',
  'dependabot_alert',
  'code_scanning_alert',
  'secret_scanning_alert',
] as const satisfies readonly EmitterWebhookEventName[];

export type AppliedEvent = (typeof APPLIED_EVENTS)[number];
const APPLIED: ReadonlySet<string> = new Set(APPLIED_EVENTS);

export function isAppliedEvent(event: string): event is AppliedEvent {
  return APPLIED.has(event);
}
