import { Inject, Injectable, Logger } from '@nestjs/common';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import { DataDirectory } from '../data-dir/data-directory';
import { createFileExclusive, readTextFile } from '../data-dir/json-file-store';
import { BACKUP_KEY_SECRET, SharedSecretStore } from '../shared-secrets/shared-secret.store';
import { isUsableBackupKey, loadOrCreateBackupKey, newBackupKey } from './backup-key';

/**
 * The key that signs and checks backup archives. One instance (SQLite): `.backup_key` in the data
 * directory, as before. Replicas on PostgreSQL: one key for all of them in `shared_secrets` (sealed
 * with APP_ENCRYPTION_KEY), so an archive made on one replica restores on any other. It is created
 * once, race-safely (every replica offers a candidate, the first stored wins); a `.backup_key`
 * found in a data directory when the database holds none is the candidate, so an install moving
 * to replicas keeps checking its earlier archives with the key it had. Each replica also keeps a
 * copy in its own `.backup_key` (written when absent).
 */
@Injectable()
export class BackupKeyService {
  private readonly logger = new Logger(BackupKeyService.name);
  private shared?: string;

  constructor(
    @Inject(PANEL_CONFIG) private readonly config: PanelConfig,
    private readonly dataDirectory: DataDirectory,
    private readonly secrets: SharedSecretStore,
  ) {}

  /** Whether the key lives in the database (PostgreSQL) rather than in this data directory. */
  get inDatabase(): boolean {
    return this.config.database.driver === 'postgres';
  }

  async key(): Promise<string> {
    if (!this.inDatabase) return loadOrCreateBackupKey(this.dataDirectory.backupKeyFile);
    if (this.shared) return this.shared;
    const file = this.dataDirectory.backupKeyFile;
    const fileKey = readTextFile(file)?.trim();
    const stored = await this.secrets.read(BACKUP_KEY_SECRET);
    if (stored !== undefined) {
      if (isUsableBackupKey(fileKey) && fileKey !== stored) {
        this.logger.warn(`${file} differs from the backup key every replica shares (in the database); archives made with the file's key restore only with --key-file ${file}`);
      }
      return this.remember(stored);
    }
    const { value, created } = await this.secrets.putIfAbsent(BACKUP_KEY_SECRET, isUsableBackupKey(fileKey) ? fileKey : newBackupKey());
    if (created) {
      this.logger.log(
        isUsableBackupKey(fileKey) ? `Imported the backup key ${file} into the database: every replica now uses it` : 'Created the backup key every replica shares (in the database, sealed with APP_ENCRYPTION_KEY)',
      );
    }
    return this.remember(value);
  }

  /**
   * Keeps the shared key, and a copy in this data directory's `.backup_key` when it has none, so the
   * restore procedure that keeps `.backup_key` works with any replica's directory as with one instance.
   */
  private remember(key: string): string {
    this.shared = key;
    this.dataDirectory.prepare();
    createFileExclusive(this.dataDirectory.backupKeyFile, `${key}\n`);
    return key;
  }
}
