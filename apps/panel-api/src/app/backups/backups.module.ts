import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LocalBackupRow } from './entities/local-backup-row.entity';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import { NotificationsModule } from '../notifications/notifications.module';
import { SettingsModule } from '../settings/settings.module';
import { AutoBackupScheduler } from './auto-backup.scheduler';
import { BackupArchiveService } from './backup-archive.service';
import { BackupKeyService } from './backup-key.service';
import { BackupService } from './backup.service';
import { BackupsController } from './backups.controller';
import { REMOTE_BACKUP_STORE_FACTORY, RemoteBackupStoreFactory, WebDavTarget } from './remote-backup-store';
import { WebDavBackupStore } from './webdav-backup-store';


/**
 * Full backups: download, WebDAV upload and listing, the automatic backup job. SchedulerRegistry
 * comes from the one global ScheduleModule.forRoot() of the app: a second forRoot here would create
 * a second registry that GET /api/ops/scheduled-jobs could not see.
 */
@Module({
  imports: [SettingsModule, NotificationsModule, TypeOrmModule.forFeature([LocalBackupRow])],
  controllers: [BackupsController],
  providers: [BackupKeyService, BackupArchiveService, BackupService, AutoBackupScheduler, {
      provide: REMOTE_BACKUP_STORE_FACTORY,
      inject: [PANEL_CONFIG],
      useFactory: (config: PanelConfig): RemoteBackupStoreFactory => (target: WebDavTarget) => new WebDavBackupStore(target, config.outbound.allowPrivate),
    }],
  exports: [BackupService, BackupArchiveService, BackupKeyService],
})
export class BackupsModule {}
