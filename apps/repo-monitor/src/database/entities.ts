import { AdminAccountEntity } from '../app/admin/admin-account.entity';
import { AdminSessionEntity } from '../app/admin/admin-session.entity';
import { AuditLogEntity } from '../app/admin/audit-log.entity';
import { NotificationChannelEntity } from '../app/notification-channels/notification-channel.entity';
import { SettingEntity } from '../app/settings/setting.entity';

/**
 * Every TypeORM entity of repo-monitor. Feature modules own their entity files; this list is what
 * the data source (and the TypeORM CLI) loads.
 */
export const monitorEntities: Array<new () => object> = [
  SettingEntity,
  AdminAccountEntity,
  AdminSessionEntity,
  AuditLogEntity,
  NotificationChannelEntity,
];
