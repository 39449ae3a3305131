/**
 * What a read-only agent token may read (docs/agent-access.md): the monitored data, and nothing
 * about the service's own administration. Not among it: the audit log (it holds the user names of
 * failed sign-ins and client addresses), notification channels and the outbox (channel URLs carry
 * bot tokens and webhook keys), and every settings page (AI endpoint, GitHub App, system). A new
 * read route is closed to agents until it is added here.
 */
export const AGENT_READABLE_PREFIXES: readonly string[] = [
  '/api/v1/repositories',
  '/api/v1/installations',
  '/api/v1/events',
  '/api/v1/work-items',
  '/api/v1/workflow-runs',
  '/api/v1/security-alerts',
  '/api/v1/ai/reviews',
  '/api/v1/digests',
  '/api/v1/system/version',
];

/** Under a readable prefix but about administration: an event's routing names rules and channels. */
const AGENT_UNREADABLE_PATHS: readonly RegExp[] = [/^\/api\/v1\/events\/[^/]+\/routing$/];

/** Whether an agent token may read the given request URL (query ignored). */
export function agentMayRead(url: string): boolean {
  const path = url.split('?')[0].replace(/\/+$/, '');
  if (AGENT_UNREADABLE_PATHS.some((pattern) => pattern.test(path))) return false;
  return AGENT_READABLE_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}
