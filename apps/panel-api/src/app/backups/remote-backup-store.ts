import { Readable } from 'node:stream';

/** The saved WebDAV target; the server only ever uses what the settings hold. */
export interface WebDavTarget {
  url: string;
  username: string | null;
  password: string | null;
  /** Folder under the WebDAV root; `tg-signpulse-backups` unless changed. */
  folder: string;
}

export interface RemoteBackupFile {
  name: string;
  size_bytes: number;
  modified_at: string | null;
}

export interface RemoteUploadResult {
  /** Path on the WebDAV server, e.g. `/tg-signpulse-backups/backup-20240101-030000.tar.gz`. */
  remote_path: string;
  /** Address of the file without credentials. */
  url: string;
}

/** A failure talking to the remote target; the message names what failed, never a credential. */
export class RemoteBackupError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'RemoteBackupError';
  }
}

/** Port to the remote backup folder; the production adapter speaks WebDAV. */
export interface RemoteBackupStore {
  /** Reaches the server and the folder; returns whether the folder already exists. */
  check(): Promise<{ folderExists: boolean }>;
  /** Streams `content` to `<folder>/<name>`, creating the folder when needed. */
  upload(name: string, content: Readable): Promise<RemoteUploadResult>;
  /** `.tar.gz` files of the folder, newest first. */
  list(): Promise<RemoteBackupFile[]>;
  /** Size and stream of `<folder>/<name>`; throws RemoteBackupError with status 404 when missing. */
  download(name: string): Promise<{ size: number; stream: Readable }>;
  remove(name: string): Promise<void>;
}

export type RemoteBackupStoreFactory = (target: WebDavTarget) => RemoteBackupStore;

export const REMOTE_BACKUP_STORE_FACTORY = Symbol('REMOTE_BACKUP_STORE_FACTORY');

/** A plain file name of a backup archive: no folders, no `..`, ends in `.tar.gz`. */
export const SAFE_BACKUP_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}\.tar\.gz$/;

export function isSafeBackupName(name: string): boolean {
  return SAFE_BACKUP_NAME.test(name) && !name.includes('..');
}
