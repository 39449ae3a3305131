import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { v2 as webdav } from 'webdav-server';
import { tempDir } from '../temp-dir';

export interface LocalWebDavServerOptions {
  username?: string;
  password?: string;
  /** Serve this folder (default: a fresh temp folder, removed on close). */
  rootPath?: string;
  /** Mount point in the URL (default `/`), e.g. `/remote.php/dav/files/me` like Nextcloud. */
  basePath?: string;
}

/**
 * A real WebDAV server (the `webdav-server` package) on 127.0.0.1 with basic authentication,
 * serving a folder on disk so tests can look at what a client uploaded.
 */
export class LocalWebDavServer {
  readonly username: string;
  readonly password: string;
  private server?: webdav.WebDAVServer;
  private httpServer?: Server;
  private root?: { path: string; remove: () => void };

  constructor(private readonly options: LocalWebDavServerOptions = {}) {
    this.username = options.username ?? 'backup-user';
    this.password = options.password ?? 'backup-password';
  }

  /** Folder on disk behind the WebDAV root. */
  get rootPath(): string {
    const path = this.options.rootPath ?? this.root?.path;
    if (!path) throw new Error('LocalWebDavServer is not started');
    return path;
  }

  /** Server URL including the base path, without a trailing slash. */
  get url(): string {
    const address = this.httpServer?.address() as AddressInfo | null | undefined;
    if (!address) throw new Error('LocalWebDavServer is not started');
    return `http://127.0.0.1:${address.port}${(this.options.basePath ?? '').replace(/\/+$/, '')}`;
  }

  /** Path of a remote file on disk (e.g. `pathOnDisk('backups/a.tar.gz')`). */
  pathOnDisk(remotePath: string): string {
    return join(this.rootPath, ...remotePath.split('/').filter((part) => part !== '' && part !== '.' && part !== '..'));
  }

  async start(): Promise<this> {
    if (!this.options.rootPath) this.root = tempDir('webdav-');
    mkdirSync(this.rootPath, { recursive: true });
    const users = new webdav.SimpleUserManager();
    const user = users.addUser(this.username, this.password, false);
    const privileges = new webdav.SimplePathPrivilegeManager();
    privileges.setRights(user, '/', ['all']);
    const server = new webdav.WebDAVServer({
      hostname: '127.0.0.1',
      port: 0,
      requireAuthentification: true,
      httpAuthentication: new webdav.HTTPBasicAuthentication(users, 'local-webdav'),
      privilegeManager: privileges,
    });
    const mount = this.options.basePath ? this.options.basePath.replace(/\/+$/, '') : '/';
    await new Promise<void>((resolve, reject) => {
      server.setFileSystem(mount, new webdav.PhysicalFileSystem(this.rootPath), (success) => (success ? resolve() : reject(new Error(`cannot mount ${mount}`))));
    });
    this.httpServer = await server.startAsync(0);
    this.server = server;
    return this;
  }

  async close(): Promise<void> {
    const server = this.server;
    const httpServer = this.httpServer;
    this.server = undefined;
    if (server && httpServer) {
      httpServer.closeAllConnections();
      await server.stopAsync();
    }
    this.httpServer = undefined;
    this.root?.remove();
    this.root = undefined;
  }
}
