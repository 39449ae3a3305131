import { Injectable } from '@nestjs/common';
import { DatabaseWork } from '../../database/database-work';
import { FoundRows, PageWindow } from '../common/list-page';
import { RejectionReason, WebhookRejectionEntity } from './webhook-rejection.entity';

/** The most refused requests kept; older ones are deleted as new ones come. */
export const MAX_KEPT_REJECTIONS = 500;

export type NewWebhookRejection = Omit<WebhookRejectionEntity, 'id'>;

/** The refused webhook requests (`webhook_rejections`): the recorder writes and prunes, the console lists. */
@Injectable()
export class WebhookRejectionRepository {
  constructor(private readonly database: DatabaseWork) {}

  private get store() {
    return this.database.dataSource.getRepository(WebhookRejectionEntity);
  }

  async insert(rejection: NewWebhookRejection): Promise<void> {
    await this.store.insert(rejection);
  }

  /** Deletes every row but the newest `keep`; answers how many went. */
  async prune(keep: number = MAX_KEPT_REJECTIONS): Promise<number> {
    const [newest] = await this.store.find({ select: { id: true }, order: { id: 'DESC' }, skip: keep, take: 1 });
    if (!newest) return 0;
    const result = await this.store.createQueryBuilder().delete().where('id <= :id', { id: newest.id }).execute();
    return result.affected ?? 0;
  }

  /** Newest first; `reason` narrows to one reason. */
  async page(reason: RejectionReason | undefined, window: PageWindow): Promise<FoundRows<WebhookRejectionEntity>> {
    const [rows, total] = await this.store.findAndCount({ where: reason ? { reason } : {}, order: { id: 'DESC' }, skip: window.skip, take: window.perPage });
    return { rows, total };
  }

  count(): Promise<number> {
    return this.store.count();
  }
}
