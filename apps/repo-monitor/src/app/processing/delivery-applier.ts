import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { EventDraft, EventRecorder } from '../events/event-recorder';
import { EventCategory } from '../events/event.entity';
import { InstallationEntity } from '../installations/installation.entity';
import { markRepositoriesRemoved, upsertRepository } from '../repositories/repository-records';
import { RepositoryEntity } from '../repositories/repository.entity';
import { SecurityAlertEntity, SecurityAlertKind } from '../security-alerts/security-alert.entity';
import { WebhookDeliveryEntity } from '../webhooks/webhook-delivery.entity';
import { WorkItemEntity, WorkItemKind } from '../work-items/work-item.entity';
import { WorkflowRunEntity } from '../workflow-runs/workflow-run.entity';
import { clip, PayloadReader } from './payload-reader';

/** Event types this service understands (repo-monitor-details.md); anything else is stored and ignored. */
export const HANDLED_EVENTS = [
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
  'ping',
] as const;

const NOTIFYING_ISSUE_ACTIONS = new Set(['opened', 'reopened', 'closed']);
const NOTIFYING_PR_ACTIONS = new Set(['opened', 'reopened', 'closed', 'ready_for_review']);
/** Conclusions that mean a run went wrong: failed, timed out, cancelled, needs action, failed to start. */
export const FAILED_RUN_CONCLUSIONS = new Set(['failure', 'timed_out', 'cancelled', 'action_required', 'startup_failure']);
const ALERT_KIND_OF_EVENT: Record<string, SecurityAlertKind> = {
  dependabot_alert: 'dependabot',
  code_scanning_alert: 'code_scanning',
  secret_scanning_alert: 'secret_scanning',
};

/** What has to happen once the delivery's transaction committed. */
export interface FollowUps {
  reconcileInstallations: number[];
}

/** Applies one stored delivery to the records, events and outbox, inside the caller's transaction. */
@Injectable()
export class DeliveryApplier {
  constructor(private readonly events: EventRecorder) {}

  async apply(manager: EntityManager, delivery: WebhookDeliveryEntity, now: Date): Promise<FollowUps> {
    const followUps: FollowUps = { reconcileInstallations: [] };
    let payload: PayloadReader;
    try {
      payload = PayloadReader.of(JSON.parse(delivery.payload));
    } catch {
      return followUps;
    }
    const context: DeliveryContext = { manager, delivery, payload, now, followUps, action: payload.get('action').string() ?? '' };
    switch (delivery.event) {
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
        await this.securityAlert(context, ALERT_KIND_OF_EVENT[delivery.event]);
        break;
      default:
        // ping and unknown events: stored, nothing to apply.
        break;
    }
    return followUps;
  }

  private async installation(context: DeliveryContext): Promise<void> {
    const { manager, payload, now, action } = context;
    const installationId = payload.path('installation', 'id').number();
    if (installationId === undefined) return;
    const store = manager.getRepository(InstallationEntity);
    let row = await store.findOne({ where: { installationId } });
    const account = payload.path('installation', 'account');
    if (!row) {
      row = store.create({
        installationId,
        accountLogin: clip(account.get('login').string() ?? 'unknown', 255),
        accountType: clip(account.get('type').string() ?? 'User', 32),
        repositorySelection: payload.path('installation', 'repository_selection').string() ?? 'selected',
        suspended: false,
        removedAt: null,
        lastReconciledAt: null,
        createdAt: now,
        updatedAt: now,
      });
    }
    row.updatedAt = now;
    row.repositorySelection = payload.path('installation', 'repository_selection').string() ?? row.repositorySelection;
    if (action === 'deleted') {
      row.removedAt = now;
      await store.save(row);
      const repositories = await manager.getRepository(RepositoryEntity).find({ where: { installationId } });
      await markRepositoriesRemoved(manager, repositories.map((repository) => repository.fullName), now);
      return;
    }
    if (action === 'suspend') row.suspended = true;
    if (action === 'unsuspend') row.suspended = false;
    if (action === 'created') row.removedAt = null;
    await store.save(row);
    for (const repository of payload.get('repositories').list()) {
      await upsertRepository(manager, repository, { source: 'installation', installationId, now, reactivate: true });
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
      await upsertRepository(manager, repository, { source: 'installation', installationId, now, reactivate: true });
    }
    const removed = payload
      .get('repositories_removed')
      .list()
      .map((repository) => repository.get('full_name').string())
      .filter((name): name is string => Boolean(name));
    await markRepositoriesRemoved(manager, removed, now);
    if (payload.get('repositories_added').list().length > 0) context.followUps.reconcileInstallations.push(installationId);
  }

  private async repository(context: DeliveryContext): Promise<void> {
    const { manager, payload, now, action, delivery } = context;
    if (action === 'deleted') {
      const name = payload.path('repository', 'full_name').string();
      if (name) await markRepositoriesRemoved(manager, [name], now);
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
    const store = manager.getRepository(WorkItemEntity);
    const updatedAt = item.get('updated_at').date() ?? null;
    let row = await store.findOne({ where: { repositoryId: repository.id, kind, number } });
    const merged = item.get('merged').boolean() ?? false;
    const fresh = !row || !row.githubUpdatedAt || !updatedAt || updatedAt.getTime() >= row.githubUpdatedAt.getTime();
    if (!row) {
      row = store.create({ repositoryId: repository.id, kind, number, createdAt: now });
    }
    if (fresh) {
      row.title = clip(item.get('title').string() ?? '', 1024);
      row.state = item.get('state').string() ?? 'open';
      row.merged = merged;
      row.draft = item.get('draft').boolean() ?? false;
      row.author = item.path('user', 'login').string() ?? null;
      row.htmlUrl = clip(item.get('html_url').string() ?? repository.htmlUrl, 512);
      row.githubUpdatedAt = updatedAt;
      row.updatedAt = now;
      await store.save(row);
    }
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
      htmlUrl: item.get('html_url').string() ?? repository.htmlUrl,
      actor: payload.path('sender', 'login').string() ?? null,
      identity: `${family}:${repository.fullName}:${number}:${effectiveAction}:${item.get('updated_at').string() ?? delivery.deliveryId}`,
      occurredAt: updatedAt ?? now,
      notify: true,
      details: { number, state: row.state, merged, draft: row.draft, action: effectiveAction },
    });
  }

  private async workflowRun(context: DeliveryContext): Promise<void> {
    const { manager, payload, now, action } = context;
    const repository = await this.repositoryOf(context);
    if (!repository) return;
    const run = payload.get('workflow_run');
    const runId = run.get('id').number();
    if (runId === undefined) return;
    const store = manager.getRepository(WorkflowRunEntity);
    const workflowName = clip(run.get('name').string() ?? payload.path('workflow', 'name').string() ?? 'workflow', 255);
    const headBranch = run.get('head_branch').string() ?? null;
    const conclusion = run.get('conclusion').string() ?? null;
    const runAttempt = run.get('run_attempt').number() ?? 1;
    const previous =
      action === 'completed'
        ? await store
            .createQueryBuilder('run')
            .where('run.repository_id = :repositoryId', { repositoryId: repository.id })
            .andWhere('run.workflow_name = :workflowName', { workflowName })
            .andWhere(headBranch === null ? 'run.head_branch IS NULL' : 'run.head_branch = :headBranch', { headBranch })
            .andWhere('run.run_id <> :runId', { runId })
            .andWhere("run.status = 'completed'")
            .orderBy('run.updated_at', 'DESC')
            .addOrderBy('run.id', 'DESC')
            .getOne()
        : null;
    let row = await store.findOne({ where: { runId } });
    if (!row) row = store.create({ runId, repositoryId: repository.id, createdAt: now });
    row.workflowName = workflowName;
    row.headBranch = headBranch;
    row.headSha = run.get('head_sha').string() ?? null;
    row.triggerEvent = run.get('event').string() ?? null;
    row.status = run.get('status').string() ?? action;
    row.conclusion = conclusion;
    row.runAttempt = runAttempt;
    row.htmlUrl = clip(run.get('html_url').string() ?? repository.htmlUrl, 512);
    row.updatedAt = now;
    await store.save(row);
    if (action !== 'completed' || !conclusion) return;
    let outcome: string | undefined;
    if (FAILED_RUN_CONCLUSIONS.has(conclusion)) outcome = conclusion;
    else if (conclusion === 'success' && previous?.conclusion && FAILED_RUN_CONCLUSIONS.has(previous.conclusion)) outcome = 'recovered';
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
      htmlUrl: release.get('html_url').string() ?? repository.htmlUrl,
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
    const store = manager.getRepository(SecurityAlertEntity);
    let row = await store.findOne({ where: { repositoryId: repository.id, kind, number } });
    if (!row) row = store.create({ repositoryId: repository.id, kind, number, ignored: false, ignoredAt: null, createdAt: now });
    row.state = clip(alert.get('state').string() ?? action, 32);
    row.severity = severity ? clip(severity, 32) : null;
    row.summary = clip(summary ?? `${kind} alert #${number}`, 1024);
    row.htmlUrl = clip(alert.get('html_url').string() ?? repository.htmlUrl, 512);
    row.updatedAt = now;
    await store.save(row);
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
    if (installation) return upsertRepository(context.manager, repository, { source: 'installation', installationId: installation, now: context.now });
    const fullName = repository.get('full_name').string();
    if (!fullName) return null;
    const existing = await context.manager.getRepository(RepositoryEntity).findOne({ where: { fullName } });
    return existing ?? upsertRepository(context.manager, repository, { source: 'external', now: context.now });
  }

  private async record(context: DeliveryContext, draft: EventDraft): Promise<void> {
    await this.events.record(context.manager, draft, context.delivery.deliveryId, context.now);
  }
}

interface DeliveryContext {
  manager: EntityManager;
  delivery: WebhookDeliveryEntity;
  payload: PayloadReader;
  now: Date;
  action: string;
  followUps: FollowUps;
}

/** One identity for a release, whether a webhook or starred-release polling saw it. */
export function releaseIdentity(fullName: string, releaseId: number | string): string {
  return `release:${fullName.toLowerCase()}:${releaseId}`;
}

export type { EventCategory };
