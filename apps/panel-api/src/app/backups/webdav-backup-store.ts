import { Readable } from 'node:stream';
import type { FileStat, WebDAVClient } from 'webdav';
import { originBoundAgents } from '../outbound/outbound-guard';
import { RemoteBackupError, RemoteBackupFile, RemoteBackupStore, RemoteUploadResult, WebDavTarget } from './remote-backup-store';

interface WebDavFailure {
  status?: number;
  response?: { status?: number; statusText?: string };
  message?: string;
  code?: string;
  cause?: { code?: string; message?: string };
}

function statusOf(error: unknown): number | undefined {
  const failure = error as WebDavFailure;
  return failure?.status ?? failure?.response?.status;
}

/** Says what failed in words a user can act on, without the credentials the client may carry. */
function describe(action: string, error: unknown): RemoteBackupError {
  const failure = (error ?? {}) as WebDavFailure;
  const status = statusOf(error);
  let reason: string;
  if (status === 401 || status === 403) reason = `the server refused the credentials (HTTP ${status})`;
  else if (status) reason = `the server answered HTTP ${status}${failure.response?.statusText ? ` ${failure.response.statusText}` : ''}`;
  else reason = failure.cause?.code ?? failure.code ?? failure.cause?.message ?? failure.message ?? String(error);
  return new RemoteBackupError(`WebDAV ${action} failed: ${reason}`, status);
}

function normaliseFolder(folder: string): string {
  const parts = folder.split('/').filter((part) => part && part !== '.');
  return `/${parts.join('/')}`;
}

/**
 * The RemoteBackupStore over a WebDAV server, with the `webdav` client package (loaded on first
 * use: a panel without a WebDAV target never holds it in memory).
 */
export class WebDavBackupStore implements RemoteBackupStore {
  private connecting?: Promise<WebDAVClient>;
  private readonly folder: string;

  constructor(
    private readonly target: WebDavTarget,
    /** APP_OUTBOUND_ALLOW_PRIVATE: whether the server may be on a loopback or private address. */
    private readonly allowPrivate = false,
  ) {
    this.folder = normaliseFolder(target.folder);
  }

  private client(): Promise<WebDAVClient> {
    this.connecting ??= import('webdav').then(({ createClient }) =>
      createClient(this.target.url, {
        // Connections go to the saved origin only: a redirect elsewhere fails instead of taking the password along.
        ...originBoundAgents(this.target.url, this.allowPrivate),
        ...(this.target.username ? { username: this.target.username, password: this.target.password ?? '' } : {}),
      }),
    );
    return this.connecting;
  }

  private pathOf(name: string): string {
    return this.folder === '/' ? `/${name}` : `${this.folder}/${name}`;
  }

  private urlOf(remotePath: string): string {
    const base = new URL(this.target.url);
    base.username = '';
    base.password = '';
    return `${base.toString().replace(/\/+$/, '')}${remotePath.split('/').map(encodeURIComponent).join('/')}`;
  }

  async check(): Promise<{ folderExists: boolean }> {
    const client = await this.client();
    try {
      await client.getDirectoryContents('/');
    } catch (error) {
      throw describe('connection test', error);
    }
    try {
      return { folderExists: this.folder === '/' || (await client.exists(this.folder)) };
    } catch (error) {
      throw describe('folder check', error);
    }
  }

  async upload(name: string, content: Readable): Promise<RemoteUploadResult> {
    const remotePath = this.pathOf(name);
    const client = await this.client();
    try {
      if (this.folder !== '/' && !(await client.exists(this.folder))) {
        await client.createDirectory(this.folder, { recursive: true });
      }
    } catch (error) {
      content.destroy();
      throw describe(`creating folder ${this.folder}`, error);
    }
    try {
      await client.putFileContents(remotePath, content, { overwrite: true });
    } catch (error) {
      content.destroy();
      throw describe(`upload of ${name}`, error);
    }
    return { remote_path: remotePath, url: this.urlOf(remotePath) };
  }

  async list(): Promise<RemoteBackupFile[]> {
    let entries: FileStat[];
    const client = await this.client();
    try {
      if (this.folder !== '/' && !(await client.exists(this.folder))) return [];
      entries = (await client.getDirectoryContents(this.folder)) as FileStat[];
    } catch (error) {
      throw describe('listing', error);
    }
    return entries
      .filter((entry) => entry.type === 'file' && entry.basename.endsWith('.tar.gz'))
      .map((entry) => {
        const modified = entry.lastmod ? new Date(entry.lastmod) : undefined;
        return {
          name: entry.basename,
          size_bytes: entry.size,
          modified_at: modified && !Number.isNaN(modified.getTime()) ? modified.toISOString() : null,
        };
      })
      .sort((a, b) => (b.modified_at ?? '').localeCompare(a.modified_at ?? '') || b.name.localeCompare(a.name));
  }

  async download(name: string): Promise<{ size: number; stream: Readable }> {
    const remotePath = this.pathOf(name);
    let stat: FileStat;
    const client = await this.client();
    try {
      stat = (await client.stat(remotePath)) as FileStat;
    } catch (error) {
      throw describe(`download of ${name}`, error);
    }
    if (stat.type !== 'file') throw new RemoteBackupError(`WebDAV download of ${name} failed: it is not a file`, 404);
    return { size: stat.size, stream: client.createReadStream(remotePath) as Readable };
  }

  async remove(name: string): Promise<void> {
    const client = await this.client();
    try {
      await client.deleteFile(this.pathOf(name));
    } catch (error) {
      throw describe(`deleting ${name}`, error);
    }
  }
}
