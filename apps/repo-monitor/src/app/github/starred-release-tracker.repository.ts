import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { DatabaseWork } from '../../database/database-work';
import { whereContains } from '../common/list-filters';
import { FoundRows, PageWindow } from '../common/list-page';
import { clip } from '../common/payload-reader';
import { StarredReleaseTrackerEntity } from './starred-release-tracker.entity';

/**
 * What the starred-releases poll keeps per user: the console's list, and the poll's reads and writes
 * (GitHubSyncService; its writes run inside its transactions).
 */
@Injectable()
export class StarredReleaseTrackerRepository {
  constructor(private readonly database: DatabaseWork) {}

  private get store() {
    return this.database.dataSource.getRepository(StarredReleaseTrackerEntity);
  }

  /** The tracker of the user's starred list itself (when it was last read). */
  listTracker(username: string): Promise<StarredReleaseTrackerEntity | null> {
    return this.store.findOne({ where: { username, kind: 'starred_list', repositoryFullName: '' } });
  }

  /** The user's starred repositories watched for releases, by name; `text` in owner/name, ignoring case. */
  async releaseTrackers(username: string, text: string | undefined, window: PageWindow): Promise<FoundRows<StarredReleaseTrackerEntity>> {
    const builder = this.store
      .createQueryBuilder('tracker')
      .where('tracker.username = :username', { username })
      .andWhere('tracker.kind = :kind', { kind: 'releases' });
    whereContains(builder, ['tracker.repositoryFullName'], text);
    const [rows, total] = await builder.orderBy('tracker.repositoryFullName', 'ASC').skip(window.skip).take(window.perPage).getManyAndCount();
    return { rows, total };
  }

  /** The user's starred repositories watched for releases, in the order they were first seen: the poll's round. */
  releaseTrackersInOrder(username: string): Promise<StarredReleaseTrackerEntity[]> {
    return this.store.find({ where: { username, kind: 'releases' }, order: { id: 'ASC' } });
  }

  /**
   * Stores a fresh read of the user's starred list: its ETag on the list tracker (`listTracker`, or a
   * new one), a release tracker for each newly starred repository, and none for those unstarred.
   */
  async recordStarredList(
    manager: EntityManager,
    username: string,
    listTracker: StarredReleaseTrackerEntity | null,
    starred: { etag: string | null; names: readonly string[] },
    now: Date,
  ): Promise<void> {
    const store = manager.getRepository(StarredReleaseTrackerEntity);
    await this.saveChanges(manager, listTracker ?? store.create({ username, kind: 'starred_list', repositoryFullName: '', createdAt: now }), {
      etag: starred.etag,
      lastCheckedAt: now,
    });
    for (const name of starred.names) {
      const existing = await store.findOne({ where: { username, kind: 'releases', repositoryFullName: name } });
      if (!existing) await this.saveChanges(manager, store.create({ username, kind: 'releases', repositoryFullName: clip(name, 255), createdAt: now }), {});
    }
    const gone = (await store.find({ where: { username, kind: 'releases' } })).filter((row) => !starred.names.includes(row.repositoryFullName));
    if (gone.length > 0) await store.delete({ id: In(gone.map((row) => row.id)) });
  }

  /** Applies `changes` to the tracker, stamps it updated and stores it. */
  async saveChanges(manager: EntityManager, tracker: StarredReleaseTrackerEntity, changes: Partial<StarredReleaseTrackerEntity>): Promise<void> {
    Object.assign(tracker, changes, { updatedAt: new Date() });
    await manager.getRepository(StarredReleaseTrackerEntity).save(tracker);
  }
}
