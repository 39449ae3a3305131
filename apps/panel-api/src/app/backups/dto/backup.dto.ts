import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { SAFE_BACKUP_NAME } from '../remote-backup-store';

export class ExportQueryDto {
  @ApiPropertyOptional({
    enum: ['auto', 'download', 'webdav'],
    default: 'auto',
    description: 'auto: upload when a WebDAV target is saved, else download; download/webdav force one of them',
  })
  @IsOptional()
  @IsIn(['auto', 'download', 'webdav'])
  target?: 'auto' | 'download' | 'webdav';
}

export class RemoteDownloadQueryDto {
  @ApiProperty({ example: 'auto-20240131-030000.tar.gz', description: 'A plain file name ending in .tar.gz' })
  @IsString()
  @Matches(SAFE_BACKUP_NAME, { message: 'name must be a plain file name (letters, digits, . _ -) ending in .tar.gz' })
  @Matches(/^(?!.*\.\.)/, { message: 'name must not contain ".."' })
  name!: string;
}

export class WebDavUploadResultDto {
  @ApiProperty({ enum: ['webdav'] }) destination!: 'webdav';
  @ApiProperty({ example: 'backup-20240131-120000.tar.gz' }) file_name!: string;
  @ApiProperty({ example: '/tg-signpulse-backups/backup-20240131-120000.tar.gz' }) remote_path!: string;
  @ApiProperty({ description: 'Address of the uploaded file (without credentials)' }) url!: string;
  @ApiProperty() size_bytes!: number;
  @ApiProperty({ enum: ['included', 'not-included-postgres'] }) database!: string;
}

export class LocalBackupFileDto {
  @ApiProperty() name!: string;
  @ApiProperty() size_bytes!: number;
  @ApiProperty() modified_at!: string;
  @ApiProperty({ nullable: true, type: String, description: 'Replicas on PostgreSQL: the replica whose data directory holds the archive; null on one instance' })
  replica_id!: string | null;
  @ApiProperty({ description: 'Whether it can be downloaded: false when the replica that held it is no longer running (the archive went with its data directory)' })
  available!: boolean;
}

export class LocalBackupNameDto {
  @ApiProperty({ example: 'auto-20240131-030000.tar.gz', description: 'A plain file name ending in .tar.gz' })
  @IsString()
  @Matches(SAFE_BACKUP_NAME, { message: 'name must be a plain file name (letters, digits, . _ -) ending in .tar.gz' })
  @Matches(/^(?!.*\.\.)/, { message: 'name must not contain ".."' })
  name!: string;
}

export class RemoteBackupFileDto {
  @ApiProperty() name!: string;
  @ApiProperty() size_bytes!: number;
  @ApiProperty({ nullable: true, type: String }) modified_at!: string | null;
}

export class AutoBackupRunDto {
  @ApiProperty() started_at!: string;
  @ApiProperty() finished_at!: string;
  @ApiProperty() ok!: boolean;
  @ApiProperty({ enum: ['webdav', 'local', 'none'] }) destination!: string;
  @ApiProperty({ nullable: true, type: String }) file_name!: string | null;
  @ApiProperty({ nullable: true, type: String }) remote_path!: string | null;
  @ApiProperty({ type: [String] }) pruned_remote!: string[];
  @ApiProperty({ nullable: true, type: String }) error!: string | null;
  @ApiProperty({ description: 'Whether the failure notice reached the bot' }) notified!: boolean;
}

export class BackupSizesDto {
  @ApiProperty({ description: 'db.sqlite with its -wal and -shm (0 on PostgreSQL)' }) database_bytes!: number;
  @ApiProperty() sessions_bytes!: number;
  @ApiProperty() signer_bytes!: number;
  @ApiProperty() signer_history_bytes!: number;
  @ApiProperty() settings_bytes!: number;
  @ApiProperty() local_backups_bytes!: number;
}

export class BackupStatusDto {
  @ApiProperty() webdav_configured!: boolean;
  @ApiProperty({ nullable: true, type: String, description: 'Remote folder of the saved target' }) webdav_folder!: string | null;
  @ApiProperty() auto_backup_enabled!: boolean;
  @ApiProperty() auto_backup_interval_hours!: number;
  @ApiProperty() auto_backup_keep!: number;
  @ApiProperty({ nullable: true, type: String }) next_auto_backup_at!: string | null;
  @ApiProperty({ nullable: true, type: AutoBackupRunDto }) last_auto_backup!: AutoBackupRunDto | null;
  @ApiProperty({ type: [LocalBackupFileDto], description: 'Automatic backups kept on this server, newest first' })
  local_backups!: LocalBackupFileDto[];
  @ApiProperty({ enum: ['sqlite', 'postgres'] }) database_driver!: string;
  @ApiProperty({ type: BackupSizesDto }) sizes!: BackupSizesDto;
}

export class WebDavTestResultDto {
  @ApiProperty() ok!: boolean;
  @ApiProperty() folder!: string;
  @ApiPropertyOptional({ description: 'Whether the folder exists yet (an upload creates it)' }) folder_exists?: boolean;
  @ApiPropertyOptional({ description: 'Why the test failed' }) error?: string;
}

export class RemoteBackupListDto {
  @ApiProperty() folder!: string;
  @ApiProperty({ type: [RemoteBackupFileDto], description: '.tar.gz files, newest first' }) files!: RemoteBackupFileDto[];
}
