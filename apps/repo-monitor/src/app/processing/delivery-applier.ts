import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { EventDraft, EventRecorder } from '../events/event-recorder';
import { EventCategory } from '../common/event-category';
import { InstallationRepository } from '../installations/installation.repository';
import { RepositoryRepository } from '../repositories/repository.repository';
import { RepositoryEntity } from '../repositories/repository.entity';
import { SecurityAlertKind } from '../security-alerts/security-alert.entity';
import { SecurityAlertRepository } from '../security-alerts/security-alert.repository';
import { WebhookDeliveryEntity } from '../deliveries/webhook-delivery.entity';
import { AppliedEvent, isAppliedEvent } from '../deliveries/handled-events';
import { WorkItemKind } from '../work-items/work-item.entity';
import { WorkItemRepository } from '../work-items/work-item.repository';
import { WorkflowRunRepository } from '../workflow-runs/workflow-run.repository';
import { isFailedRunConclusion } from '../workflow-runs/run-conclusions';
import { clip, PayloadReader } from '../common/payload-reader';
import { OutsideLinkPolicy } from '../common/outside-link';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';

const NOTIFYING_ISSUE_ACTIONS = new Set(['opened', 'reopened', 'closed']);
const NOTIFYING_PR_ACTIONS = new Set(['opened', 'reopened', 'closed', 'ready_for_review']);
// The GitHub events the applier records are APPLIED_EVENTS (deliveries/handled-events), checked against
// @octokit/webhooks' event names. Payloads are read with PayloadReader rather than cast to octokit's
// payload types: the JSON comes from the network, and a type would promise a shape that nothing checked.

const ALERT_KIND_OF_EVENT: Record<Extract<AppliedEvent, `${string}_alert`>, SecurityAlertKind> = {
  dependabot_alert: 'dependabot',
  code_scanning_alert: 'code_scanning',
  secret_scanning_alert: 'secret_scanning',
};

/** What has to happen once the delivery's transaction committed. */
export interface FollowUps {
  reconcileInstallations: number[];
  /** Notifications queued in the outbox by this delivery (the dispatcher is woken after commit only if any). */
  notifications: number;
}

/** What applying a stored delivery reads of it. */
export type DeliveryToApply = Pick<WebhookDeliveryEntity, 'deliveryId' | 'event' | 'installationId' | 'payload'>;

/** Applies one stored delivery to the records, events and outbox, inside the caller's transaction. */
@Injectable()
export class DeliveryApplier {
  private readonly links: OutsideLinkPolicy;

  constructor(
    @Inject(MONITOR_CONFIG) config: MonitorConfig,
    private readonly events: EventRecorder,
    private readonly repositories: RepositoryRepository,
    private readonly installations: InstallationRepository,
    private readonly workItems: WorkItemRepository,
    private readonly workflowRuns: WorkflowRunRepository,
    private readonly securityAlerts: SecurityAlertRepository,
  ) {
    this.links = new OutsideLinkPolicy(config.github.webUrl);
  }

  /** A payload's link when it is one to keep, else the repository's page. */
  private linkOr(reader: PayloadReader, repository: RepositoryEntity): string {
    return this.links.accept(reader.get('html_url').value) ?? repository.htmlUrl;
  }

  async apply(manager: EntityManager, delivery: DeliveryToApply, now: Date): Promise<FollowUps> {
    const followUps: FollowUps = { reconcileInstallations: [], notifications: 0 };
    let payload: PayloadReader;
    try {
      payload = PayloadReader.of(JSON.parse(delivery.payload));
    } catch {
      return followUps;
    }
    const context: DeliveryContext = { manager, delivery, payload, now, followUps, action: payload.get('action').string() ?? '' };
    const event = delivery.event;
    // ping and events the service does not follow: stored, nothing to apply.
    if (!isAppliedEvent(event)) return followUps;
    switch (event) {
      case 'installation':
        await this.installation(context);
        break;
      case 'installation_repositories':
        await this.installationRepositories(context);
        break;
      case 'repository':
        await this.repository(context);
        break;
      case 'star':
      case 'watch':
        await this.starOrWatch(context);
        break;
      case 'issues':
        await this.workItem(context, 'issue');
        break;
      case 'pull_request':
        await this.workItem(context, 'pull_request');
        break;
      case 'workflow_run':
        await this.workflowRun(context);
        break;
      case 'release':
        await this.release(context);
        break;
      case 'dependabot_alert':
      case 'code_scanning_alert':
      case 'secret_scanning_alert':
        await this.securityAlert(context, ALERT_KIND_OF_EVENT[event]);
        break;
      default: {
        const unhandled: never = event;
        throw new Error(`no handler for ${String(unhandled)}`);
      }
    }
    return followUps;
  }

  private async installation(context: DeliveryContext): Promise<void> {
    const { manager, payload, now, action } = context;
    const installationId = payload.path('installation', 'id').number();
    if (installationId === undefined) return;
    await this.installations.recordWebhookAction(manager, payload.get('installation'), action, now);
    if (action === 'deleted') {
      await this.repositories.markRemoved(manager, await this.repositories.namesOfInstallation(manager, installationId), now);
      return;
    }
    for (const repository of payload.get('repositories').list()) {
      await this.repositories.upsertFromGithub(manager, repository, { source: 'installation', installationId, now, reactivate: true });
    }
    if (action === 'created' || action === 'unsuspend' || action === 'new_permissions_accepted') {
      context.followUps.reconcileInstallations.push(installationId);
    }
  }

  private async installationRepositories(context: DeliveryContext): Promise<void> {
    const { manager, payload, now } = context;
    const installationId = payload.path('installation', 'id').number();
    if (installationId === undefined) return;
    for (const repository of payload.get('repositories_added').list()) {
      await this.repositories.upsertFromGithub(manager, repository, { source: 'installation', installationId, now, reactivate: true });
    }
    const removed = payload
      .get('repositories_removed')
      .list()
      .map((repository) => repository.get('full_name').string())
      .filter((name): name is string => Boolean(name));
    await this.repositories.markRemoved(manager, removed, now);
    if (payload.get('repositories_added').list().length > 0) context.followUps.reconcileInstallations.push(installationId);
  }

  private async repository(context: DeliveryContext): Promise<void> {
    const { manager, payload, now, action, delivery } = context;
    if (action === 'deleted') {
      const name = payload.path('repository', 'full_name').string();
      if (name) await this.repositories.markRemoved(manager, [name], now);
      return;
    }
    await this.repositoryOf(context, delivery.installationId);
  }

  private async starOrWatch(context: DeliveryContext): Promise<void> {
    const { payload, action, delivery } = context;
    const repository = await this.repositoryOf(context);
    if (!repository) return;
    const actor = payload.path('sender', 'login').string() ?? null;
    const isStar = delivery.event === 'star';
    if (!isStar && action !== 'started') return;
    const verb = isStar ? (action === 'deleted' ? 'removed a star from' : 'starred') : 'started watching';
    await this.record(context, {
      repository,
      kind: `${delivery.event}.${action}`,
      category: 'other',
      title: isStar ? (action === 'deleted' ? 'Star removed' : 'New star') : 'New watcher',
      bodyText: `${actor ?? 'Someone'} ${verb} ${repository.fullName}`,
      htmlUrl: repository.htmlUrl,
      actor,
      identity: `${delivery.event}:${repository.fullName}:${actor}:${action}:${payload.get('starred_at').string() ?? delivery.deliveryId}`,
      occurredAt: payload.get('starred_at').date() ?? context.now,
      notify: true,
      details: { stargazers_count: payload.path('repository', 'stargazers_count').number() ?? null },
    });
  }

  private async workItem(context: DeliveryContext, kind: WorkItemKind): Promise<void> {
    const { manager, payload, now, action, delivery } = context;
    const repository = await this.repositoryOf(context);
    if (!repository) return;
    const item = payload.get(kind === 'issue' ? 'issue' : 'pull_request');
    const number = item.get('number').number();
    if (number === undefined) return;
    const updatedAt = item.get('updated_at').date() ?? null;
    const merged = item.get('merged').boolean() ?? false;
    const row = await this.workItems.upsertIfNewer(
      manager,
      { repositoryId: repository.id, kind, number },
      {
        title: clip(item.get('title').string() ?? '', 1024),
        state: item.get('state').string() ?? 'open',
        merged,
        draft: item.get('draft').boolean() ?? false,
        author: item.path('user', 'login').string() ?? null,
        htmlUrl: this.linkOr(item, repository),
        githubUpdatedAt: updatedAt,
      },
      now,
    );
    const notifying = kind === 'issue' ? NOTIFYING_ISSUE_ACTIONS : NOTIFYING_PR_ACTIONS;
    if (!notifying.has(action)) return;
    const family = kind === 'issue' ? 'issues' : 'pull_request';
    const effectiveAction = kind === 'pull_request' && action === 'closed' && merged ? 'merged' : action;
    const noun = kind === 'issue' ? 'Issue' : 'Pull request';
    const words: Record<string, string> = { opened: 'opened', reopened: 'reopened', closed: 'closed', merged: 'merged', ready_for_review: 'ready for review' };
    const title = item.get('title').string() ?? '';
    await this.record(context, {
      repository,
      kind: `${family}.${effectiveAction}`,
      category: kind === 'issue' ? 'issue' : 'pr',
      title: `${noun} #${number} ${words[effectiveAction] ?? effectiveAction}: ${title}`,
      bodyText: title,
      htmlUrl: this.linkOr(item, repository),
      actor: payload.path('sender', 'login').string() ?? null,
      identity: `${family}:${repository.fullName}:${number}:${effectiveAction}:${item.get('updated_at').string() ?? delivery.deliveryId}`,
      occurredAt: updatedAt ?? now,
      notify: true,
      details: {
        number,
        state: row.state,
        merged,
        draft: row.draft,
        action: effectiveAction,
        // What routing rules match on: labels, the author, and a pull request's base branch.
        labels: labelNames(item),
        author: row.author,
        ...(kind === 'pull_request' && { branch: item.path('base', 'ref').string() ?? null }),
      },
    });
  }

  private async workflowRun(context: DeliveryContext): Promise<void> {
    const { manager, payload, now, action } = context;
    const repository = await this.repositoryOf(context);
    if (!repository) return;
    const run = payload.get('workflow_run');
    const runId = run.get('id').number();
    if (runId === undefined) return;
    const workflowName = clip(run.get('name').string() ?? payload.path('workflow', 'name').string() ?? 'workflow', 255);
    const headBranch = run.get('head_branch').string() ?? null;
    const conclusion = run.get('conclusion').string() ?? null;
    const runAttempt = run.get('run_attempt').number() ?? 1;
    const previous =
      action === 'completed' ? await this.workflowRuns.previousCompleted(manager, { runId, repositoryId: repository.id, workflowName, headBranch }) : null;
    const row = await this.workflowRuns.upsert(
      manager,
      {
        runId,
        repositoryId: repository.id,
        workflowName,
        headBranch,
        headSha: run.get('head_sha').string() ?? null,
        triggerEvent: run.get('event').string() ?? null,
        status: run.get('status').string() ?? action,
        conclusion,
        runAttempt,
        htmlUrl: this.linkOr(run, repository),
      },
      now,
    );
    if (action !== 'completed' || !conclusion) return;
    let outcome: string | undefined;
    if (isFailedRunConclusion(conclusion)) outcome = conclusion;
    else if (conclusion === 'success' && isFailedRunConclusion(previous?.conclusion)) outcome = 'recovered';
    if (!outcome) return;
    const words: Record<string, string> = {
      failure: 'failed',
      timed_out: 'timed out',
      cancelled: 'was cancelled',
      action_required: 'needs action',
      startup_failure: 'failed to start',
      recovered: 'recovered',
    };
    await this.record(context, {
      repository,
      kind: `workflow_run.${outcome}`,
      category: 'actions',
      title: `Workflow ${workflowName} ${words[outcome]}${headBranch ? ` on ${headBranch}` : ''}`,
      bodyText: `Run #${run.get('run_number').number() ?? runId} (attempt ${runAttempt}) concluded ${conclusion}`,
      htmlUrl: row.htmlUrl,
      actor: payload.path('sender', 'login').string() ?? null,
      identity: `workflow_run:${runId}:${runAttempt}:${conclusion}`,
      occurredAt: run.get('updated_at').date() ?? now,
      notify: true,
      details: { run_id: runId, workflow: workflowName, branch: headBranch, conclusion, head_sha: row.headSha },
    });
  }

  private async release(context: DeliveryContext): Promise<void> {
    const { payload, action, now } = context;
    if (action !== 'published') return;
    const repository = await this.repositoryOf(context);
    if (!repository) return;
    const release = payload.get('release');
    const tag = release.get('tag_name').string() ?? '';
    await this.record(context, {
      repository,
      kind: 'release.published',
      category: 'other',
      title: `Release ${release.get('name').string() || tag} published`,
      bodyText: clip(release.get('body').string() ?? '', 1500),
      htmlUrl: this.linkOr(release, repository),
      actor: payload.path('sender', 'login').string() ?? null,
      identity: releaseIdentity(repository.fullName, release.get('id').number() ?? tag),
      occurredAt: release.get('published_at').date() ?? now,
      notify: true,
      details: { tag, prerelease: release.get('prerelease').boolean() ?? false },
    });
  }

  private async securityAlert(context: DeliveryContext, kind: SecurityAlertKind): Promise<void> {
    const { manager, payload, now, action, delivery } = context;
    const repository = await this.repositoryOf(context);
    if (!repository) return;
    const alert = payload.get('alert');
    const number = alert.get('number').number();
    if (number === undefined) return;
    const severity =
      kind === 'dependabot'
        ? (alert.path('security_advisory', 'severity').string() ?? alert.path('security_vulnerability', 'severity').string())
        : kind === 'code_scanning'
          ? (alert.path('rule', 'security_severity_level').string() ?? alert.path('rule', 'severity').string())
          : 'high';
    const summary =
      kind === 'dependabot'
        ? (alert.path('security_advisory', 'summary').string() ?? alert.path('dependency', 'package', 'name').string())
        : kind === 'code_scanning'
          ? (alert.path('rule', 'description').string() ?? alert.path('rule', 'name').string())
          : (alert.get('secret_type_display_name').string() ?? alert.get('secret_type').string());
    const row = await this.securityAlerts.upsert(
      manager,
      {
        repositoryId: repository.id,
        kind,
        number,
        state: clip(alert.get('state').string() ?? action, 32),
        severity: severity ? clip(severity, 32) : null,
        summary: clip(summary ?? `${kind} alert #${number}`, 1024),
        htmlUrl: this.linkOr(alert, repository),
      },
      now,
    );
    const label: Record<SecurityAlertKind, string> = { dependabot: 'Dependabot', code_scanning: 'Code scanning', secret_scanning: 'Secret scanning' };
    await this.record(context, {
      repository,
      kind: `${delivery.event}.${action}`,
      category: 'security',
      title: `${label[kind]} alert #${number} ${action.replace(/_/g, ' ')}${row.severity ? ` (${row.severity})` : ''}`,
      bodyText: row.summary,
      htmlUrl: row.htmlUrl,
      actor: payload.path('sender', 'login').string() ?? null,
      identity: `${delivery.event}:${repository.fullName}:${number}:${action}:${alert.get('updated_at').string() ?? delivery.deliveryId}`,
      occurredAt: alert.get('updated_at').date() ?? now,
      notify: !row.ignored,
      details: { alert_kind: kind, number, state: row.state, severity: row.severity, action },
    });
  }

  private async repositoryOf(context: DeliveryContext, installationId?: number | null): Promise<RepositoryEntity | null> {
    const repository = context.payload.get('repository');
    if (!repository.exists) return null;
    const installation = installationId ?? context.delivery.installationId;
    if (installation) return this.repositories.upsertFromGithub(context.manager, repository, { source: 'installation', installationId: installation, now: context.now });
    const fullName = repository.get('full_name').string();
    if (!fullName) return null;
    const existing = await this.repositories.findByName(context.manager, fullName);
    return existing ?? this.repositories.upsertFromGithub(context.manager, repository, { source: 'external', now: context.now });
  }

  private async record(context: DeliveryContext, draft: EventDraft): Promise<void> {
    const outcome = await this.events.recordCounting(context.manager, draft, context.delivery.deliveryId, context.now);
    context.followUps.notifications += outcome.notifications;
  }
}

interface DeliveryContext {
  manager: EntityManager;
  delivery: DeliveryToApply;
  payload: PayloadReader;
  now: Date;
  action: string;
  followUps: FollowUps;
}

/** The names of an issue's or pull request's labels (at most 100). */
function labelNames(item: PayloadReader): string[] {
  const labels = item.get('labels').value;
  if (!Array.isArray(labels)) return [];
  return labels
    .slice(0, 100)
    .map((label) => PayloadReader.of(label).get('name').string())
    .filter((name): name is string => typeof name === 'string' && name !== '')
    .map((name) => clip(name, 255));
}

/** One identity for a release, whether a webhook or starred-release polling saw it. */
export function releaseIdentity(fullName: string, releaseId: number | string): string {
  return `release:${fullName.toLowerCase()}:${releaseId}`;
}

export type { EventCategory };
