import { AccountRow } from '../app/accounts/entities/account-row.entity';
import { AdminUser } from '../app/auth/entities/admin-user.entity';
import { AuthThrottle } from '../app/auth/entities/auth-throttle.entity';
import { RevokedToken } from '../app/auth/entities/revoked-token.entity';
import { SignLog } from '../app/runs/entities/sign-log.entity';
import { KeywordHit } from '../app/keyword-hits/entities/keyword-hit.entity';
import { ListenerWatermark } from '../app/listeners/entities/listener-watermark.entity';
import { SignTaskRow } from '../app/sign-tasks/entities/sign-task-row.entity';
import { StoreRevision } from '../app/data-dir/entities/store-revision.entity';
import { ChannelTest } from '../app/notifications/entities/channel-test.entity';
import { PendingRerun } from '../app/runs/entities/pending-rerun.entity';
import { AccountSafety } from '../app/governor/entities/account-safety.entity';
import { KeepaliveAccountRow } from '../app/keepalive/entities/keepalive-account.entity';
import { KeepaliveRunRow } from '../app/keepalive/entities/keepalive-run.entity';
import { SettingsRow } from '../app/settings/entities/settings-row.entity';
import { SharedSecretRow } from '../app/shared-secrets/shared-secret-row.entity';
import { LocalBackupRow } from '../app/backups/entities/local-backup-row.entity';
import { CheckJobRow } from '../app/accounts/entities/check-job-row.entity';

/**
 * Every TypeORM entity of panel-api. Feature modules own their entity files; this list is what the
 * data source (and the TypeORM CLI) loads.
 */
export const panelEntities: Array<new () => object> = [AccountRow, AccountSafety, AdminUser, AuthThrottle, ChannelTest, CheckJobRow, KeepaliveAccountRow, KeepaliveRunRow, KeywordHit, ListenerWatermark, LocalBackupRow, PendingRerun, RevokedToken, SettingsRow, SharedSecretRow, SignLog, SignTaskRow, StoreRevision];
