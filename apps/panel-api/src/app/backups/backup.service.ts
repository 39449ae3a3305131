import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { createReadStream, createWriteStream } from 'node:fs';
import { lstat, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import { DataDirectory } from '../data-dir/data-directory';
import { PanelNotifier } from '../notifications/panel-notifier.service';
import { SettingsService } from '../settings/settings.service';
import { BackupManifest } from './backup-archive';
import { BackupArchiveService } from './backup-archive.service';
import {
  REMOTE_BACKUP_STORE_FACTORY,
  RemoteBackupFile,
  RemoteBackupStore,
  RemoteBackupStoreFactory,
  RemoteUploadResult,
  WebDavTarget,
} from './remote-backup-store';
import { PanelMetrics } from '../metrics/metrics.service';
import { PanelError } from '../common/panel-error';
import { ClusterService } from '../cluster/cluster.service';
import { LocalBackupRow } from './entities/local-backup-row.entity';

/** Local automatic backups wait here until they are uploaded (or stay when the upload fails). */
export const LOCAL_BACKUP_FOLDER = 'backups';
export const AUTO_BACKUP_PREFIX = 'auto-';
export const DEFAULT_WEBDAV_FOLDER = 'tg-signpulse-backups';

/** `20240131-235959` in UTC: sorts like the time it names. */
export function backupTimestamp(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, '').replace(/-/g, '').replace('T', '-').replace(/:/g, '');
}

export function autoBackupName(at: Date): string {
  return `${AUTO_BACKUP_PREFIX}${backupTimestamp(at)}.tar.gz`;
}

export function manualBackupName(at: Date): string {
  return `backup-${backupTimestamp(at)}.tar.gz`;
}

export interface LocalBackupFile {
  name: string;
  size_bytes: number;
  modified_at: string;
  /** Replicas (PostgreSQL): the replica whose data directory holds it; null on one instance. */
  replica_id: string | null;
  /** Whether it can be downloaded: false when the replica that held it is no longer live (the archive went with its data directory). */
  available: boolean;
}

/** Where a local archive is: here, on another live replica, or on one that is gone. */
export type LocalBackupLocation =
  | { kind: 'here'; path: string; size: number }
  | { kind: 'replica'; replica: { id: string; address: string } }
  | { kind: 'gone'; replicaId: string }
  | { kind: 'missing' };

export interface AutoBackupRun {
  started_at: string;
  finished_at: string;
  ok: boolean;
  /** `webdav` when uploaded, `local` when kept on disk (no WebDAV target, or the upload failed). */
  destination: 'webdav' | 'local' | 'none';
  file_name: string | null;
  remote_path: string | null;
  pruned_remote: string[];
  error: string | null;
  notified: boolean;
}

export interface BackupSizes {
  database_bytes: number;
  sessions_bytes: number;
  signer_bytes: number;
  signer_history_bytes: number;
  settings_bytes: number;
  local_backups_bytes: number;
}

export interface BackupStatus {
  webdav_configured: boolean;
  webdav_folder: string | null;
  auto_backup_enabled: boolean;
  auto_backup_interval_hours: number;
  auto_backup_keep: number;
  next_auto_backup_at: string | null;
  last_auto_backup: AutoBackupRun | null;
  local_backups: LocalBackupFile[];
  database_driver: 'sqlite' | 'postgres';
  sizes: BackupSizes;
}

export type ExportOutcome =
  | { kind: 'download'; fileName: string; stream: Readable }
  | { kind: 'webdav'; fileName: string; upload: RemoteUploadResult; sizeBytes: number; database: BackupManifest['database'] };

async function pathSize(path: string): Promise<number> {
  let stats;
  try {
    stats = await lstat(path);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.isFile() ? stats.size : 0;
  let total = 0;
  for (const name of await readdir(path).catch(() => [] as string[])) total += await pathSize(join(path, name));
  return total;
}

/** Passes bytes through and counts them, so the answer can say how big the upload was. */
function countingPassThrough(): { stream: PassThrough; bytes: () => number } {
  let bytes = 0;
  const stream = new PassThrough({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      callback(null, chunk);
    },
  });
  return { stream, bytes: () => bytes };
}

/**
 * Full backups: as a download, an upload to the saved WebDAV target, or the automatic backup with
 * pruning and a failure notice. Only one backup is built at a time; each is already disk-heavy.
 */
@Injectable()
export class BackupService {
  private readonly logger = new Logger(BackupService.name);
  private busy = false;
  private lastAutoRun?: AutoBackupRun;

  constructor(
    private readonly archives: BackupArchiveService,
    private readonly settings: SettingsService,
    private readonly notifier: PanelNotifier,
    private readonly dataDirectory: DataDirectory,
    @Inject(PANEL_CONFIG) private readonly config: PanelConfig,
    @Inject(REMOTE_BACKUP_STORE_FACTORY) private readonly remoteStores: RemoteBackupStoreFactory,
    private readonly metrics: PanelMetrics,
    private readonly cluster: ClusterService,
    @InjectRepository(LocalBackupRow) private readonly index: Repository<LocalBackupRow>,
  ) {}

  /** Replicas on PostgreSQL keep an index of every replica's local archives in \`local_backups\`. */
  private get indexed(): boolean {
    return this.cluster.active;
  }

  get localFolder(): string {
    return join(this.dataDirectory.root, LOCAL_BACKUP_FOLDER);
  }

  /** The saved WebDAV target, when a URL is saved. */
  webdavTarget(): WebDavTarget | undefined {
    const settings = this.settings.getGlobal();
    if (!settings.webdav_url) return undefined;
    return {
      url: settings.webdav_url,
      username: settings.webdav_username,
      password: settings.webdav_password,
      folder: settings.webdav_dir?.trim() || DEFAULT_WEBDAV_FOLDER,
    };
  }

  remoteStore(): RemoteBackupStore | undefined {
    const target = this.webdavTarget();
    return target ? this.remoteStores(target) : undefined;
  }

  lastAutomaticRun(): AutoBackupRun | undefined {
    return this.lastAutoRun;
  }

  /**
   * A manual backup: uploaded to WebDAV when a target is saved (unless `download` is forced),
   * otherwise a stream for the HTTP answer.
   */
  async export(mode: 'auto' | 'download' | 'webdav', now = new Date()): Promise<ExportOutcome> {
    const store = mode === 'download' ? undefined : this.remoteStore();
    if (mode === 'webdav' && !store) throw new PanelError('webdav_target_required', 'No WebDAV target is saved; save webdav_url in the settings first');
    const release = this.acquire();
    const fileName = manualBackupName(now);
    try {
      const archive = await this.archives.open(now);
      if (!store) {
        const finish = (result: 'success' | 'failure'): void => {
          release();
          this.metrics.backupFinished('manual', result);
        };
        void archive.done.then(() => finish('success'), () => finish('failure'));
        return { kind: 'download', fileName, stream: archive.stream };
      }
      const counter = countingPassThrough();
      archive.stream.on('error', (error) => counter.stream.destroy(error));
      archive.stream.pipe(counter.stream);
      let upload: RemoteUploadResult;
      try {
        upload = await store.upload(fileName, counter.stream);
        await archive.done;
      } catch (error) {
        await store.remove(fileName).catch(() => undefined);
        throw error;
      }
      release();
      this.metrics.backupFinished('manual', 'success');
      return { kind: 'webdav', fileName, upload, sizeBytes: counter.bytes(), database: archive.manifest.database };
    } catch (error) {
      release();
      this.metrics.backupFinished('manual', 'failure');
      throw error;
    }
  }

  async status(nextAutoBackupAt: Date | undefined): Promise<BackupStatus> {
    const settings = this.settings.getGlobal();
    const target = this.webdavTarget();
    return {
      webdav_configured: target !== undefined,
      webdav_folder: target?.folder ?? null,
      auto_backup_enabled: settings.auto_backup_enabled,
      auto_backup_interval_hours: settings.auto_backup_interval_hours,
      auto_backup_keep: settings.auto_backup_keep,
      next_auto_backup_at: nextAutoBackupAt?.toISOString() ?? null,
      last_auto_backup: this.lastAutoRun ?? null,
      local_backups: await this.listLocalBackups(),
      database_driver: this.config.database.driver,
      sizes: await this.keyPathSizes(),
    };
  }

  /**
   * The local archives of every replica, newest first: on one instance this data directory's; with
   * replicas the index, each with the replica that holds it and whether that replica is live.
   */
  async listLocalBackups(): Promise<LocalBackupFile[]> {
    if (!this.indexed) return this.localBackups();
    const live = await this.liveReplicaIds();
    const rows = await this.index.find();
    return rows
      .map((row) => ({ name: row.name, size_bytes: row.sizeBytes, modified_at: new Date(row.modifiedAt).toISOString(), replica_id: row.replicaId, available: live.has(row.replicaId) }))
      .sort((a, b) => b.name.localeCompare(a.name) || a.replica_id.localeCompare(b.replica_id));
  }

  /** Where the local archive `name` is (with replicas: the newest replica holding it that is live, else one that is gone). */
  async locateLocalBackup(name: string, onlyHere = false): Promise<LocalBackupLocation> {
    const path = join(this.localFolder, name);
    const stats = await lstat(path).catch(() => undefined);
    if (stats?.isFile()) return { kind: 'here', path, size: stats.size };
    if (!this.indexed || onlyHere) return { kind: 'missing' };
    const rows = await this.index.find({ where: { name }, order: { modifiedAt: 'DESC' } });
    if (rows.length === 0) return { kind: 'missing' };
    const others = new Map((await this.cluster.otherReplicas()).map((replica) => [replica.id, replica]));
    const holder = rows.find((row) => others.has(row.replicaId));
    if (holder) return { kind: 'replica', replica: others.get(holder.replicaId) as { id: string; address: string } };
    const stale = rows.find((row) => row.replicaId !== this.cluster.replicaId) ?? rows[0];
    return { kind: 'gone', replicaId: stale.replicaId };
  }

  /** Deletes a local archive of this data directory (and its index row); false when there was none. */
  async removeLocalBackup(name: string): Promise<boolean> {
    const path = join(this.localFolder, name);
    const existed = (await lstat(path).catch(() => undefined))?.isFile() ?? false;
    await rm(path, { force: true });
    if (this.indexed) await this.index.delete({ replicaId: this.cluster.replicaId, name });
    return existed;
  }

  /** Forgets the index rows of an archive whose replica is gone (its data directory went with it). */
  async forgetGoneLocalBackup(name: string, replicaId: string): Promise<void> {
    await this.index.delete({ replicaId, name });
  }

  /**
   * Makes this replica's index rows match its data directory (at start: a replica restarted on the
   * same data directory, or files removed by hand).
   */
  async reconcileLocalIndex(): Promise<void> {
    if (!this.indexed) return;
    const files = await this.localBackups();
    const names = new Set(files.map((file) => file.name));
    for (const row of await this.index.findBy({ replicaId: this.cluster.replicaId })) {
      if (!names.has(row.name)) await this.index.delete({ replicaId: row.replicaId, name: row.name });
    }
    for (const file of files) await this.indexLocal(file.name, file.size_bytes, Date.parse(file.modified_at));
  }

  private async indexLocal(name: string, sizeBytes: number, modifiedAt: number): Promise<void> {
    if (!this.indexed) return;
    await this.index.upsert({ replicaId: this.cluster.replicaId, name, sizeBytes, modifiedAt }, ['replicaId', 'name']);
  }

  private async liveReplicaIds(): Promise<Set<string>> {
    return new Set([this.cluster.replicaId, ...(await this.cluster.otherReplicas()).map((replica) => replica.id)]);
  }

  /** This data directory's local archives, newest first. */
  async localBackups(): Promise<LocalBackupFile[]> {
    let names: string[];
    try {
      names = await readdir(this.localFolder);
    } catch {
      return [];
    }
    const files: LocalBackupFile[] = [];
    for (const name of names.filter((candidate) => candidate.endsWith('.tar.gz'))) {
      const stats = await lstat(join(this.localFolder, name)).catch(() => undefined);
      if (stats?.isFile()) files.push({ name, size_bytes: stats.size, modified_at: stats.mtime.toISOString(), replica_id: this.indexed ? this.cluster.replicaId : null, available: true });
    }
    return files.sort((a, b) => b.name.localeCompare(a.name));
  }

  async keyPathSizes(): Promise<BackupSizes> {
    const data = this.dataDirectory;
    const database =
      this.config.database.driver === 'sqlite'
        ? (await pathSize(this.config.database.path)) + (await pathSize(`${this.config.database.path}-wal`)) + (await pathSize(`${this.config.database.path}-shm`))
        : 0;
    // The settings are rows of the database now; their stored documents are what a backup carries of them.
    const settings = await this.settings.storedBytes();
    return {
      database_bytes: database,
      sessions_bytes: await pathSize(data.sessions),
      signer_bytes: await pathSize(data.signer),
      signer_history_bytes: await pathSize(data.signerHistory),
      settings_bytes: settings,
      local_backups_bytes: await pathSize(this.localFolder),
    };
  }

  /**
   * The automatic backup: archive to a local file, upload it, delete the local file and prune the
   * remote folder to `auto_backup_keep`. When the upload fails the local file stays and the bot
   * reports it (master switch only). Without a WebDAV target the local file is the backup.
   */
  async runAutomaticBackup(now = new Date()): Promise<AutoBackupRun> {
    const startedAt = new Date();
    const fileName = autoBackupName(now);
    const run: AutoBackupRun = {
      started_at: startedAt.toISOString(),
      finished_at: startedAt.toISOString(),
      ok: false,
      destination: 'none',
      file_name: fileName,
      remote_path: null,
      pruned_remote: [],
      error: null,
      notified: false,
    };
    let release: () => void;
    try {
      release = this.acquire();
    } catch {
      run.error = 'another backup was running; this run was skipped';
      run.file_name = null;
      return this.finishAutoRun(run);
    }
    const keep = this.settings.getGlobal().auto_backup_keep;
    const localPath = join(this.localFolder, fileName);
    try {
      try {
        await this.writeLocalArchive(localPath, now);
      } catch (error) {
        run.error = `creating the archive failed: ${error instanceof Error ? error.message : String(error)}`;
        run.notified = await this.notifyFailure(run.error, undefined);
        return this.finishAutoRun(run);
      }
      const store = this.remoteStore();
      if (!store) {
        run.ok = true;
        run.destination = 'local';
        await this.pruneLocal(keep);
        return this.finishAutoRun(run);
      }
      try {
        const upload = await store.upload(fileName, createReadStream(localPath));
        run.remote_path = upload.remote_path;
      } catch (error) {
        await store.remove(fileName).catch(() => undefined);
        run.destination = 'local';
        run.error = error instanceof Error ? error.message : String(error);
        run.notified = await this.notifyFailure(run.error, localPath);
        await this.pruneLocal(keep);
        return this.finishAutoRun(run);
      }
      run.ok = true;
      run.destination = 'webdav';
      await this.removeLocalBackup(fileName);
      try {
        run.pruned_remote = await this.pruneRemote(store, keep);
      } catch (error) {
        // The backup itself is safe; a failed prune is retried by the next run.
        this.logger.warn(`Pruning remote automatic backups failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      return this.finishAutoRun(run);
    } finally {
      release();
    }
  }

  private async writeLocalArchive(localPath: string, now: Date): Promise<void> {
    await mkdir(this.localFolder, { recursive: true, mode: 0o700 });
    const partial = `${localPath}.partial`;
    try {
      const archive = await this.archives.open(now);
      await pipeline(archive.stream, createWriteStream(partial, { mode: 0o600 }));
      await archive.done;
      await rename(partial, localPath);
      const stats = await lstat(localPath);
      // The archive is safe on disk either way; a missing index row is added by the next start's reconcile.
      await this.indexLocal(basename(localPath), stats.size, stats.mtime.getTime()).catch((error: unknown) =>
        this.logger.warn(`Could not index the local backup ${basename(localPath)}: ${error instanceof Error ? error.message : String(error)}`),
      );
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }

  /** Deletes the oldest remote `auto-*.tar.gz` beyond `keep`; manual backups are never touched. */
  private async pruneRemote(store: RemoteBackupStore, keep: number): Promise<string[]> {
    const automatic = (await store.list()).filter((file: RemoteBackupFile) => file.name.startsWith(AUTO_BACKUP_PREFIX));
    const doomed = automatic
      .map((file) => file.name)
      .sort()
      .reverse()
      .slice(keep);
    for (const name of doomed) await store.remove(name);
    return doomed;
  }

  /** Local automatic backups are kept to the same count, so failed uploads cannot fill the disk. */
  private async pruneLocal(keep: number): Promise<void> {
    const automatic = (await this.localBackups()).filter((file) => file.name.startsWith(AUTO_BACKUP_PREFIX));
    for (const file of automatic.slice(keep)) await this.removeLocalBackup(file.name);
  }

  private async notifyFailure(reason: string, localPath: string | undefined): Promise<boolean> {
    const texts = this.notifier.texts();
    const lines = [reason];
    if (localPath) lines.push(texts.say('backupKept', { path: this.indexed ? `${localPath} (${this.cluster.replicaId})` : localPath }));
    const outcome = await this.notifier.notify({ kind: 'backup_failure', title: texts.say('backupFailedTitle'), lines });
    return outcome.sent;
  }

  private finishAutoRun(run: AutoBackupRun): AutoBackupRun {
    run.finished_at = new Date().toISOString();
    this.lastAutoRun = run;
    this.metrics.backupFinished('auto', run.ok ? 'success' : 'failure');
    if (run.ok) this.logger.log(`Automatic backup ${run.file_name} stored (${run.destination})`);
    else this.logger.warn(`Automatic backup failed: ${run.error}`);
    return run;
  }

  private acquire(): () => void {
    if (this.busy) throw new PanelError('backup_busy', 'A backup is already being created; try again when it has finished');
    this.busy = true;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.busy = false;
    };
  }
}
