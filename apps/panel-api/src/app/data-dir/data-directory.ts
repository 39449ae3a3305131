import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { assertDataDirectoryContained } from './contained-entries';

/**
 * Where everything panel-api keeps on disk lives, relative to APP_DATA_DIR. The names are those of
 * the panel users migrate from, so an extracted backup of that panel works here.
 */
export class DataDirectory {
  readonly sqliteDatabase: string;
  readonly sessions: string;
  readonly signer: string;
  readonly signerHistory: string;
  readonly globalSettingsFile: string;
  readonly aiSettingsFile: string;
  readonly telegramApiFile: string;
  readonly adminBootstrapPasswordFile: string;
  readonly schedulerLockFile: string;
  /** Argon2 hash of the last password applied by ADMIN_PASSWORD_RESET, so a reset happens once. */
  readonly adminPasswordResetFile: string;
  /** The generated JWT signing secret (when APP_JWT_SECRET is not set); never part of a backup. */
  readonly jwtSecretFile: string;
  /** The generated key of the backups' integrity check (HMAC); never part of a backup. */
  readonly backupKeyFile: string;
  /**
   * The generated key that seals the Telegram sessions in the database (SQLite without
   * APP_ENCRYPTION_KEY); never part of a backup, kept by a restore like .backup_key.
   */
  readonly encryptionKeyFile: string;
  private prepared = false;

  constructor(readonly root: string) {
    this.sqliteDatabase = join(root, 'db.sqlite');
    this.sessions = join(root, 'sessions');
    this.signer = join(root, '.signer');
    this.signerHistory = join(root, '.signer', 'history');
    this.globalSettingsFile = join(root, '.global_settings.json');
    this.aiSettingsFile = join(root, '.openai_config.json');
    this.telegramApiFile = join(root, '.telegram_api.json');
    this.adminBootstrapPasswordFile = join(root, '.admin_bootstrap_password');
    this.schedulerLockFile = join(root, '.scheduler.lock');
    this.adminPasswordResetFile = join(root, '.admin_password_reset');
    this.jwtSecretFile = join(root, '.jwt_secret');
    this.backupKeyFile = join(root, '.backup_key');
    this.encryptionKeyFile = join(root, '.app_encryption_key');
  }

  /** Files that hold secrets of this instance rather than user data; backups leave them out. */
  get excludedFromBackup(): string[] {
    return [this.adminBootstrapPasswordFile, this.adminPasswordResetFile, this.schedulerLockFile, this.jwtSecretFile, this.backupKeyFile, this.encryptionKeyFile];
  }

  /**
   * Creates the folders of the layout (owner-only for new ones); idempotent and cheap after the first
   * call. Refuses (DataDirectoryEscapeError) when an entry links outside the data directory.
   */
  prepare(): void {
    if (this.prepared) return;
    mkdirSync(this.root, { recursive: true, mode: 0o700 });
    assertDataDirectoryContained(this.root);
    for (const folder of [this.root, this.sessions, this.signer, this.signerHistory]) {
      mkdirSync(folder, { recursive: true, mode: 0o700 });
    }
    this.prepared = true;
  }
}
