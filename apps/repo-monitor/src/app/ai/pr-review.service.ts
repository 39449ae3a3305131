import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { EventRecorder } from '../events/event-recorder';
import { NotificationOutboxService } from '../notifications/notification-outbox.service';
import { DatabaseWork } from '../../database/database-work';
import { clip, PayloadReader } from '../common/payload-reader';
import { OutsideLinkPolicy } from '../common/outside-link';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { RepositoryRepository } from '../repositories/repository.repository';
import { SettingsStore } from '../settings/settings.store';
import { DeliveryInbox } from '../processing/delivery-inbox';
import { WebhookDeliveryRepository } from '../deliveries/webhook-delivery.repository';
import { AiClient } from './ai-client';
import { AiGitHubSource } from './ai-github-source';
import { pullRequestReviewPrompt } from './ai-prompts';
import { PrReviewEntity } from './pr-review.entity';
import { PrReviewRepository } from './pr-review.repository';
import { capDiff, parseReviewResult, REVIEW_DIFF_CAP, ReviewResult, reviewNeedsAlert } from './review-result';
import { CommentRepository, neutraliseModelMarkdown } from './untrusted-markdown';

/** PR actions that get a review: a new PR, new commits, and a draft turned ready (its head may be unreviewed). */
export const REVIEWED_PR_ACTIONS = new Set(['opened', 'synchronize', 'ready_for_review']);
export const REVIEW_COMMENT_MARKER = '<!-- repo-monitor:ai-review -->';
/** What every review comment says first: who wrote it, from what, and what was taken out. */
export const REVIEW_COMMENT_LABEL =
  'AI-generated from untrusted input: a language model wrote the text below after reading this pull request, which its author controls. ' +
  'It is not a maintainer\u2019s review and may be wrong or manipulated. Links outside this repository and @mentions were disabled.';
const REVIEW_SETTINGS_KEY = 'ai.review';
/** A review left `running` this long (a crash mid-review) is taken up again. */
const STALE_RUNNING_MS = 10 * 60_000;

export interface ReviewSettings {
  post_comment: boolean;
}

/**
 * AI pull-request review and security audit: on `opened` / `synchronize` (and ready-for-review) of
 * a non-draft PR, once per head SHA (a unique row claims it), with the diff capped at 12,000
 * characters. Stores the structured result, alerts through the outbox when a security risk is
 * found or the score is under 60, and optionally keeps one PR comment up to date in place.
 */
@Injectable()
export class PrReviewService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(PrReviewService.name);
  private readonly queue: number[] = [];
  private running: Promise<void> | undefined;
  private stopping = false;
  private readonly links: OutsideLinkPolicy;

  constructor(
    private readonly database: DatabaseWork,
    private readonly inbox: DeliveryInbox,
    private readonly ai: AiClient,
    private readonly github: AiGitHubSource,
    private readonly events: EventRecorder,
    private readonly outbox: NotificationOutboxService,
    private readonly store: SettingsStore,
    private readonly reviews: PrReviewRepository,
    private readonly repositories: RepositoryRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    @Inject(MONITOR_CONFIG) private readonly config: MonitorConfig,
  ) {
    this.links = new OutsideLinkPolicy(config.github.webUrl);
  }

  async onApplicationBootstrap(): Promise<void> {
    this.inbox.onAccepted((delivery) => {
      // Only pull-request events can start a review: everything else costs the ingest path nothing.
      if (delivery.event !== 'pull_request' || !REVIEWED_PR_ACTIONS.has(delivery.action ?? '')) return;
      void this.considerDelivery(delivery.id).catch((error: unknown) => this.logger.warn(`PR review of delivery ${delivery.id} not started: ${(error as Error).message}`));
    });
    await this.reviews.requeueStale(new Date(Date.now() - STALE_RUNNING_MS));
    for (const id of await this.reviews.pendingIds()) this.enqueue(id);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.running;
  }

  /** Resolves once no review is queued or running (tests use it). */
  async idle(): Promise<void> {
    while (this.running || this.queue.length > 0) await (this.running ?? new Promise((resolve) => setTimeout(resolve, 20)));
  }

  async reviewSettings(): Promise<ReviewSettings> {
    const stored = await this.store.get<Partial<ReviewSettings>>(REVIEW_SETTINGS_KEY);
    return { post_comment: stored?.post_comment ?? false };
  }

  async updateReviewSettings(changes: Partial<ReviewSettings>): Promise<ReviewSettings> {
    const next = { ...(await this.reviewSettings()), ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) };
    await this.database.transaction((manager) => this.store.set(REVIEW_SETTINGS_KEY, next, manager));
    return next;
  }

  /** Claims a review when the delivery is a reviewable PR event and AI code review is on. */
  async considerDelivery(deliveryRowId: number): Promise<number | undefined> {
    if (this.stopping) return undefined;
    const { unavailable } = await this.ai.settingsFor('codeReview');
    if (unavailable) return undefined;
    const head = await this.deliveries.head(deliveryRowId);
    if (head?.event !== 'pull_request' || !REVIEWED_PR_ACTIONS.has(head.action ?? '')) return undefined;
    const stored = await this.deliveries.payload(deliveryRowId);
    if (stored === undefined) return undefined;
    let payload: PayloadReader;
    try {
      payload = PayloadReader.of(JSON.parse(stored));
    } catch {
      return undefined;
    }
    const pull = payload.get('pull_request');
    const fullName = payload.path('repository', 'full_name').string();
    const number = pull.get('number').number();
    const headSha = pull.path('head', 'sha').string();
    if (!fullName || number === undefined || !headSha || pull.get('draft').boolean() === true || pull.get('state').string() === 'closed') return undefined;
    const review = {
      repositoryFullName: clip(fullName, 255),
      prNumber: number,
      headSha: clip(headSha, 64),
      title: clip(pull.get('title').string() ?? '', 1024),
      htmlUrl: this.links.accept(pull.get('html_url').value) ?? clip(this.links.pullRequestPage(clip(fullName, 255), number), 512),
      installationId: payload.path('installation', 'id').number() ?? null,
    };
    const id = await this.database.transaction((manager) => this.reviews.insertIfNew(manager, review, new Date()));
    if (id === undefined) return undefined;
    this.enqueue(id);
    return id;
  }

  private enqueue(id: number): void {
    if (this.stopping) return;
    this.queue.push(id);
    this.running ??= this.drain().finally(() => {
      this.running = undefined;
    });
  }

  private async drain(): Promise<void> {
    for (let id = this.queue.shift(); id !== undefined && !this.stopping; id = this.queue.shift()) {
      try {
        await this.review(id);
      } catch (error) {
        this.logger.error(`PR review ${id} failed: ${(error as Error).message}`);
        await this.finish(id, { status: 'failed', errorCode: 'internal_error', errorMessage: (error as Error).message.slice(0, 500) }).catch(() => undefined);
      }
    }
  }

  private async review(id: number): Promise<void> {
    const claimed = await this.database.transaction((manager) => this.reviews.claim(manager, id, new Date()));
    if (!claimed) return;
    const row = await this.reviews.findById(id);
    if (!row) throw new Error(`review ${id} is gone`);
    const installationId = row.installationId === null ? null : Number(row.installationId);
    let diff: string;
    try {
      diff = await this.github.pullRequestDiff(installationId, row.repositoryFullName, row.prNumber);
    } catch (error) {
      await this.finish(id, { status: 'failed', errorCode: 'github_unavailable', errorMessage: `could not read the diff: ${(error as Error).message}`.slice(0, 500) });
      return;
    }
    const capped = capDiff(diff);
    const delivery = await this.pullRequestBody(row);
    const outcome = await this.ai.completeFor(
      'codeReview',
      pullRequestReviewPrompt({ repository: row.repositoryFullName, number: row.prNumber, title: row.title, body: delivery, diff: capped.text, truncated: capped.truncated }),
      { json: true },
    );
    const base = { diffTruncated: capped.truncated, diffChars: capped.originalChars };
    if (!outcome.ok) {
      await this.finish(id, { ...base, status: 'failed', errorCode: outcome.code, errorMessage: outcome.message.slice(0, 500) });
      return;
    }
    let result: ReviewResult;
    try {
      result = parseReviewResult(outcome.text);
    } catch (error) {
      await this.finish(id, { ...base, status: 'failed', model: outcome.model.slice(0, 200), errorCode: 'malformed_response', errorMessage: (error as Error).message.slice(0, 500) });
      return;
    }
    const completed: Partial<PrReviewEntity> = {
      ...base,
      status: 'completed',
      model: outcome.model.slice(0, 200),
      summary: result.summary,
      score: result.score,
      mergeRisk: result.merge_risk,
      securityRisks: JSON.stringify(result.security_risks),
      breakingRisks: JSON.stringify(result.breaking_risks),
      suggestions: JSON.stringify(result.suggestions),
      missingTests: JSON.stringify(result.missing_tests),
      errorCode: null,
      errorMessage: null,
      completedAt: new Date(),
    };
    const alert = reviewNeedsAlert(result);
    await this.database.transaction(async (manager) => {
      await this.reviews.update(manager, id, { ...completed, alerted: alert, updatedAt: new Date() });
      if (alert) await this.recordAlert(manager, row, result, capped.truncated);
    });
    if (alert) this.outbox.notifyCommitted();
    if ((await this.reviewSettings()).post_comment) await this.comment(row, result, capped.truncated);
  }

  private async recordAlert(manager: EntityManager, row: PrReviewEntity, result: ReviewResult, truncated: boolean): Promise<void> {
    const repository = await this.repositories.findByName(manager, row.repositoryFullName);
    const lines = [result.summary];
    if (result.security_risks.length > 0) lines.push('Security risks:', ...result.security_risks.map((risk) => `- ${risk}`));
    if (result.breaking_risks.length > 0) lines.push('Breaking risks:', ...result.breaking_risks.map((risk) => `- ${risk}`));
    if (truncated) lines.push(`(reviewed the first ${REVIEW_DIFF_CAP.toLocaleString('en-US')} characters of the diff)`);
    const now = new Date();
    await this.events.record(
      manager,
      {
        repository,
        kind: 'pr_review.alert',
        category: result.security_risks.length > 0 ? 'security' : 'pr',
        title: `AI review of PR #${row.prNumber}: score ${result.score}/100, merge risk ${result.merge_risk}`,
        bodyText: lines.join('\n'),
        htmlUrl: row.htmlUrl,
        actor: null,
        identity: `pr_review:${row.repositoryFullName.toLowerCase()}:${row.prNumber}:${row.headSha}`,
        occurredAt: now,
        notify: true,
        details: { review_id: row.id, number: row.prNumber, head_sha: row.headSha, score: result.score, merge_risk: result.merge_risk, security_risks: result.security_risks },
      },
      null,
      now,
    );
  }

  private async comment(row: PrReviewEntity, result: ReviewResult, truncated: boolean): Promise<void> {
    if (row.installationId === null) return;
    const installationId = Number(row.installationId);
    try {
      const known = (await this.reviews.latestCommentId(row.repositoryFullName, row.prNumber)) ?? (await this.github.findComment(installationId, row.repositoryFullName, row.prNumber, REVIEW_COMMENT_MARKER));
      const commentId = await this.github.upsertComment(installationId, row.repositoryFullName, row.prNumber, known === null ? null : Number(known), reviewComment(row, result, truncated, { webUrl: this.config.github.webUrl, fullName: row.repositoryFullName }));
      await this.database.transaction((manager) => this.reviews.update(manager, row.id, { commentId, updatedAt: new Date() }));
    } catch (error) {
      this.logger.warn(`could not post the review comment on ${row.repositoryFullName}#${row.prNumber}: ${(error as Error).message}`);
    }
  }

  /** The PR description from the newest stored delivery of this PR (the review prompt shows it). */
  private async pullRequestBody(row: PrReviewEntity): Promise<string> {
    const stored = await this.deliveries.latestPullRequestPayload(row.repositoryFullName);
    if (stored === undefined) return '';
    try {
      const pull = PayloadReader.of(JSON.parse(stored)).get('pull_request');
      return pull.get('number').number() === row.prNumber ? (pull.get('body').string() ?? '') : '';
    } catch {
      return '';
    }
  }

  private async finish(id: number, changes: Partial<PrReviewEntity>): Promise<void> {
    await this.database.transaction((manager) => this.reviews.update(manager, id, { ...changes, updatedAt: new Date(), completedAt: new Date() }));
  }
}

/**
 * The one PR comment (found again by its marker and edited in place on later commits). Every text
 * in it that the model wrote is steerable by whoever opened the pull request, so the comment says
 * so first, and that text goes through neutraliseModelMarkdown: one line each, no raw HTML, no
 * mentions, and no link that does not point into this repository.
 */
export function reviewComment(row: Pick<PrReviewEntity, 'headSha'>, result: ReviewResult, truncated: boolean, repository: CommentRepository): string {
  const model = (text: string) => neutraliseModelMarkdown(text, repository);
  const section = (title: string, items: string[]) => (items.length > 0 ? [`**${title}**`, ...items.map((item) => `- ${model(item)}`), ''] : []);
  return [
    REVIEW_COMMENT_MARKER,
    `### AI-generated review (untrusted input): score ${result.score}/100, merge risk ${result.merge_risk}`,
    '',
    `> [!WARNING]`,
    `> ${REVIEW_COMMENT_LABEL}`,
    '',
    model(result.summary),
    '',
    ...section('Security risks', result.security_risks),
    ...section('Breaking risks', result.breaking_risks),
    ...section('Suggestions', result.suggestions),
    ...section('Missing tests', result.missing_tests),
    `_Reviewed commit ${row.headSha.slice(0, 12)}${truncated ? `; the diff was cut at ${REVIEW_DIFF_CAP.toLocaleString('en-US')} characters` : ''}. This comment is updated on new commits._`,
  ].join('\n');
}
