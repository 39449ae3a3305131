import { Injectable } from '@nestjs/common';
import { EntityManager, FindOptionsWhere, LessThan } from 'typeorm';
import { DatabaseWork } from '../../database/database-work';
import { sql } from '../../database/sql';
import { FoundRows, PageWindow } from '../common/list-page';
import { PrReviewEntity, PrReviewStatus } from './pr-review.entity';

export interface PrReviewFilter {
  repositoryFullName?: string;
  prNumber?: number;
  status?: PrReviewStatus;
}

/** The pull request at one head commit a review is claimed for. */
export interface NewPrReview {
  repositoryFullName: string;
  prNumber: number;
  headSha: string;
  title: string;
  htmlUrl: string;
  installationId: number | null;
}

/**
 * The AI pull-request reviews: the console's and the agents' reads, and PrReviewService's writes
 * (claim, outcome, comment id), each inside the caller's transaction when it passes one.
 */
@Injectable()
export class PrReviewRepository {
  constructor(private readonly database: DatabaseWork) {}

  private get store() {
    return this.database.dataSource.getRepository(PrReviewEntity);
  }

  /** Newest first. */
  async find(filter: PrReviewFilter, window: PageWindow): Promise<FoundRows<PrReviewEntity>> {
    const where: FindOptionsWhere<PrReviewEntity> = {};
    if (filter.repositoryFullName) where.repositoryFullName = filter.repositoryFullName;
    if (filter.prNumber) where.prNumber = filter.prNumber;
    if (filter.status) where.status = filter.status;
    const [rows, total] = await this.store.findAndCount({ where, order: { createdAt: 'DESC', id: 'DESC' }, skip: window.skip, take: window.perPage });
    return { rows, total };
  }

  findById(id: number): Promise<PrReviewEntity | null> {
    return this.store.findOne({ where: { id } });
  }

  /** Reviews left `running` since before `staleBefore` (a crash mid-review) go back to `pending`. */
  async requeueStale(staleBefore: Date): Promise<void> {
    await this.store.update({ status: 'running', updatedAt: LessThan(staleBefore) }, { status: 'pending' });
  }

  /** Ids of the pending reviews, oldest first. */
  async pendingIds(): Promise<number[]> {
    return (await this.store.find({ where: { status: 'pending' }, select: { id: true }, order: { id: 'ASC' } })).map((row) => row.id);
  }

  /**
   * Inserts a pending review unless one exists for the repository, PR and head SHA (the unique row
   * claims the commit); answers its id when it was new.
   */
  async insertIfNew(manager: EntityManager, review: NewPrReview, now: Date): Promise<number | undefined> {
    const values = [review.repositoryFullName, review.prNumber, review.headSha, review.title, review.htmlUrl, review.installationId, 'pending', now, now];
    const inserted = await this.database.returning<{ id: number | string }>(
      manager,
      sql`INSERT INTO "ai_pr_reviews" ("repository_full_name", "pr_number", "head_sha", "title", "html_url", "installation_id", "status", "created_at", "updated_at")
         VALUES (${values})
         ON CONFLICT ("repository_full_name", "pr_number", "head_sha") DO NOTHING
         RETURNING "id"`,
    );
    return inserted.length > 0 ? Number(inserted[0].id) : undefined;
  }

  /** pending -> running; false when the review is not pending (another worker took it, or it is gone). */
  async claim(manager: EntityManager, id: number, now: Date): Promise<boolean> {
    const claimed = await manager.getRepository(PrReviewEntity).update({ id, status: 'pending' }, { status: 'running', updatedAt: now });
    return Boolean(claimed.affected);
  }

  /** Stores what became of the review (its result, failure or comment id). */
  async update(manager: EntityManager, id: number, changes: Partial<PrReviewEntity>): Promise<void> {
    await manager.getRepository(PrReviewEntity).update({ id }, changes);
  }

  /** The comment an earlier review of the same pull request left, newest first. */
  async latestCommentId(repositoryFullName: string, prNumber: number): Promise<number | null> {
    const earlier = await this.store
      .createQueryBuilder('review')
      .where('review.repository_full_name = :name AND review.pr_number = :number AND review.comment_id IS NOT NULL', { name: repositoryFullName, number: prNumber })
      .orderBy('review.id', 'DESC')
      .getOne();
    return earlier?.commentId ?? null;
  }
}
