import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DatabaseWork } from '../../database/database-work';
import { FoundRows, PageWindow } from '../common/list-page';
import { DigestEntity, DigestPeriod } from './digest.entity';

/**
 * The produced digests: the console's list and the agents' get_digest share one query; DigestService
 * stores a digest inside the transaction that records its event.
 */
@Injectable()
export class DigestRepository {
  constructor(private readonly database: DatabaseWork) {}

  /** Newest first, of one period when given. */
  async find(period: DigestPeriod | undefined, window: PageWindow): Promise<FoundRows<DigestEntity>> {
    const [rows, total] = await this.database.dataSource
      .getRepository(DigestEntity)
      .findAndCount({ where: period ? { period } : {}, order: { createdAt: 'DESC', id: 'DESC' }, skip: window.skip, take: window.perPage });
    return { rows, total };
  }

  /** Whether a digest with this period key was produced (inside `manager`'s transaction when given). */
  periodKeyTaken(periodKey: string, manager: EntityManager = this.database.dataSource.manager): Promise<boolean> {
    return manager.getRepository(DigestEntity).exists({ where: { periodKey } });
  }

  /** Stores a digest inside the caller's transaction and answers the row with its id. */
  insert(manager: EntityManager, digest: Omit<DigestEntity, 'id'>): Promise<DigestEntity> {
    const store = manager.getRepository(DigestEntity);
    return store.save(store.create(digest));
  }
}
