import { Inject, Injectable } from '@nestjs/common';
import { readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import { DataDirectory } from '../data-dir/data-directory';
import { VersionService } from '../ops/version.service';
import { ArchiveSource, BackupArchive, BackupManifest, createBackupArchive, SQLITE_DATABASE_ENTRY, SQLITE_SIDE_FILE_ENTRIES } from './backup-archive';
import { BackupKeyService } from './backup-key.service';
import { createSqliteSnapshot } from './sqlite-snapshot';

/** Work files of backups (the SQLite snapshot) live here, on the data volume; never archived. */
export const BACKUP_WORK_FOLDER = '.backup_tmp';

// `.<platform>_api.json` in the spec: today `.telegram_api.json`, but a file another platform adds belongs in too.
const PLATFORM_API_FILE = /^\.[a-z0-9]+_api\.json$/;

export const RESTORE_INSTRUCTIONS =
  'Stop the service, move the data directory contents aside (keep .backup_key and .app_encryption_key, which opens the sessions in the database), run `node main.js restore <file>` ' +
  '(it checks the archive against .backup_key and refuses links, absolute and .. names), start the service and log in with the original account.';

/**
 * What a backup holds: the settings files, sessions/ and .signer/. Chosen by name (an allow list),
 * so instance secrets (.admin_bootstrap_password, the generated .jwt_secret), the .scheduler.lock,
 * local backups and work files can never slip in.
 */
export function backupSources(dataDirectory: DataDirectory): ArchiveSource[] {
  const excluded = new Set(dataDirectory.excludedFromBackup);
  const settingsFiles = [dataDirectory.globalSettingsFile, dataDirectory.aiSettingsFile, dataDirectory.telegramApiFile];
  let rootNames: string[] = [];
  try {
    rootNames = readdirSync(dataDirectory.root);
  } catch {
    // A missing data directory has no extra platform files.
  }
  for (const name of rootNames.sort()) {
    const path = join(dataDirectory.root, name);
    if (PLATFORM_API_FILE.test(name) && !settingsFiles.includes(path)) settingsFiles.push(path);
  }
  const sources: ArchiveSource[] = settingsFiles
    .filter((path) => !excluded.has(path))
    .map((path) => ({ name: basename(path), path, kind: 'file' }));
  sources.push({ name: 'sessions', path: dataDirectory.sessions, kind: 'directory' });
  sources.push({ name: '.signer', path: dataDirectory.signer, kind: 'directory' });
  return sources;
}

export interface OpenedBackupArchive extends BackupArchive {
  manifest: BackupManifest;
}

/** Builds the full backup archive of this instance as a stream. */
@Injectable()
export class BackupArchiveService {
  constructor(
    private readonly dataDirectory: DataDirectory,
    @Inject(PANEL_CONFIG) private readonly config: PanelConfig,
    private readonly versions: VersionService,
    private readonly keys: BackupKeyService,
  ) {}

  get workDirectory(): string {
    return join(this.dataDirectory.root, BACKUP_WORK_FOLDER);
  }

  /** Removes snapshot files a crash left behind; called at startup. */
  async removeLeftoverWorkFiles(): Promise<void> {
    await rm(this.workDirectory, { recursive: true, force: true });
  }

  /**
   * Takes the database snapshot first (so a failure there is an ordinary error before any byte is
   * sent), then returns the archive stream. The snapshot file is removed once the archive is done.
   */
  async open(now = new Date()): Promise<OpenedBackupArchive> {
    const integrityKey = await this.keys.key();
    const sources = backupSources(this.dataDirectory);
    const database = this.config.database;
    const snapshot = database.driver === 'sqlite' ? await createSqliteSnapshot(database.path, this.workDirectory) : undefined;
    const manifest: BackupManifest = {
      format: 'tg-signpulse-backup',
      version: 1,
      created_at: now.toISOString(),
      app_version: this.versions.info().version,
      database: snapshot ? 'included' : 'not-included-postgres',
      contents: [
        ...(snapshot ? [SQLITE_DATABASE_ENTRY, ...SQLITE_SIDE_FILE_ENTRIES] : []),
        ...sources.map((source) => (source.kind === 'directory' ? `${source.name}/` : source.name)),
      ],
      excluded: this.dataDirectory.excludedFromBackup.map((path) => basename(path)),
      restore: snapshot
        ? RESTORE_INSTRUCTIONS
        : `${RESTORE_INSTRUCTIONS} The PostgreSQL database is not in this archive: dump and restore it separately (pg_dump / pg_restore).`,
    };
    const archive = createBackupArchive({ manifest, sqliteSnapshotPath: snapshot?.path, sources, integrityKey });
    void archive.done.then(
      () => snapshot?.remove(),
      () => snapshot?.remove(),
    );
    return { ...archive, manifest };
  }
}
