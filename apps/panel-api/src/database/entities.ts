import { AdminUser } from '../app/auth/entities/admin-user.entity';
import { SignLog } from '../app/runs/entities/sign-log.entity';
import { KeywordHit } from '../app/keyword-hits/entities/keyword-hit.entity';
import { ListenerWatermark } from '../app/listeners/entities/listener-watermark.entity';

/**
 * Every TypeORM entity of panel-api. Feature modules own their entity files; this list is what the
 * data source (and the TypeORM CLI) loads.
 */
export const panelEntities: Array<new () => object> = [AdminUser, KeywordHit, ListenerWatermark, SignLog];
