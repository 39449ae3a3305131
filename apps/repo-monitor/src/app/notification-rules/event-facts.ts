import type { EventFacts } from './rule-matcher';

/** What routing needs of an event being recorded (a part of EventForMessage). */
export interface FactSource {
  kind: string;
  repository: string | null;
  actor: string | null;
  details: Record<string, unknown>;
}

const MAX_LABELS = 100;

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value.slice(0, 255) : null);

/**
 * The facts rules match on, from the event's kind and the details its producer recorded
 * (labels, author, branch, workflow, conclusion, severity, draft).
 */
export function eventFacts(event: FactSource): EventFacts {
  const [family, ...rest] = event.kind.split('.');
  const details = event.details;
  const labels = Array.isArray(details['labels'])
    ? details['labels'].filter((label): label is string => typeof label === 'string' && label !== '').slice(0, MAX_LABELS).map((label) => label.slice(0, 255))
    : [];
  return {
    repository: event.repository,
    event: family,
    action: rest.join('.'),
    labels,
    author: text(details['author']),
    sender: event.actor,
    branch: text(details['branch']),
    workflow: text(details['workflow']),
    conclusion: text(details['conclusion']),
    severity: text(details['severity']),
    // Only pull requests are drafts or not; an issue's stored `draft` is always false and says nothing.
    draft: family === 'pull_request' && typeof details['draft'] === 'boolean' ? details['draft'] : null,
  };
}
