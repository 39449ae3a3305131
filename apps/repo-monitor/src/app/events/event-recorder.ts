import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { NotificationOutboxService } from '../notifications/notification-outbox.service';
import { clip } from '../common/payload-reader';
import { OutsideLinkPolicy } from '../common/outside-link';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { RepositoryEntity } from '../repositories/repository.entity';
import { EventCategory } from '../common/event-category';
import { EventRepository } from './event.repository';

/** An event about to be recorded. */
export interface EventDraft {
  repository: RepositoryEntity | null;
  /** `issues.opened`, `pull_request.merged`, `workflow_run.failed`, `dependabot_alert.created`… */
  kind: string;
  category: EventCategory;
  title: string;
  bodyText: string;
  htmlUrl: string | null;
  actor: string | null;
  /** What makes this event the same event however it reaches us (webhook, redelivery, polling). */
  identity: string;
  occurredAt: Date;
  /** Whether this kind is a real-time notification (repo-monitor-details.md); toggles apply after. */
  notify: boolean;
  details: Record<string, unknown>;
}

/** The dedupe fingerprint of an event: SHA-256 of its identity. */
export function eventFingerprint(identity: string): string {
  return createHash('sha256').update(identity).digest('hex');
}

/** Whether a repository's per-kind toggles let an event kind notify. */
export function repositoryWants(repository: RepositoryEntity | null, kind: string): boolean {
  if (!repository) return true;
  if (repository.status !== 'active') return false;
  const family = kind.split('.')[0];
  if (family === 'issues') return repository.notifyIssues;
  if (family === 'pull_request') return repository.notifyPullRequests;
  if (family === 'workflow_run') return repository.notifyWorkflowRuns;
  if (family.endsWith('_alert')) return repository.notifySecurityAlerts;
  if (family === 'release') return repository.notifyReleases;
  if (family === 'star' || family === 'watch') return repository.notifyStars;
  return true;
}

/**
 * Records events (unique by fingerprint) and, in the same transaction, their notifications in the
 * outbox. An event seen before is neither stored again nor notified again.
 */
@Injectable()
export class EventRecorder {
  private readonly links: OutsideLinkPolicy;

  constructor(
    private readonly events: EventRepository,
    private readonly outbox: NotificationOutboxService,
    @Inject(MONITOR_CONFIG) config: MonitorConfig,
  ) {
    this.links = new OutsideLinkPolicy(config.github.webUrl);
  }

  /** Answers whether the event was new. */
  async record(manager: EntityManager, draft: EventDraft, deliveryId: string | null, now: Date): Promise<boolean> {
    return (await this.recordCounting(manager, draft, deliveryId, now)).stored;
  }

  /**
   * Like record(), and also answers how many notifications it queued, so a caller that applies many
   * events wakes the outbox dispatcher after its commit only when there is something to send.
   */
  async recordCounting(manager: EntityManager, draft: EventDraft, deliveryId: string | null, now: Date): Promise<{ stored: boolean; notifications: number }> {
    const fingerprint = eventFingerprint(draft.identity);
    const willNotify = draft.notify && repositoryWants(draft.repository, draft.kind);
    // Every event's link passes the policy here, whoever drafted it: the console and the notification use this one.
    const htmlUrl = this.links.accept(draft.htmlUrl) ?? null;
    const id = await this.events.insertIfNew(manager, {
      repositoryId: draft.repository?.id ?? null,
      deliveryId,
      kind: draft.kind,
      category: draft.category,
      title: clip(draft.title, 1024),
      bodyText: draft.bodyText,
      htmlUrl,
      actor: draft.actor ? clip(draft.actor, 255) : null,
      fingerprint,
      notified: willNotify,
      occurredAt: draft.occurredAt,
      createdAt: now,
    });
    if (id === undefined) return { stored: false, notifications: 0 };
    let notifications = 0;
    if (willNotify) {
      notifications = await this.outbox.enqueue(
        manager,
        {
          id,
          kind: draft.kind,
          category: draft.category,
          repository: draft.repository?.fullName ?? null,
          title: draft.title,
          bodyText: draft.bodyText,
          htmlUrl,
          actor: draft.actor,
          fingerprint,
          occurredAt: draft.occurredAt,
          details: draft.details,
        },
        now,
      );
    }
    return { stored: true, notifications };
  }
}
