/**
 * Kinds of notification a channel can filter on (an empty filter receives all of them): the GitHub
 * events that notify in real time, plus the service's own digests, reports and AI reviews.
 */
export const NOTIFICATION_EVENT_KINDS = [
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
] as const;

export type NotificationEventKind = (typeof NOTIFICATION_EVENT_KINDS)[number];
