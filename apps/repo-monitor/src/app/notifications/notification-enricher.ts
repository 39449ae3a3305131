import type { NotificationMessage } from './notification-message';

/**
 * Adds to a notification right before it is sent (AI triage of security alerts, failed-run
 * diagnosis, release summaries). Registered on the NotificationWorker by the feature that owns it.
 * An enricher bounds its own wait and never throws: on any problem it answers the message as given.
 */
export interface NotificationEnricher {
  enrich(message: NotificationMessage): Promise<NotificationMessage>;
  /** The longest `enrich` may take now; the worker's claim on an entry must outlast it. */
  maxDurationMs(): Promise<number>;
}
