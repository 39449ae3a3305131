import { existsSync, readFileSync } from 'node:fs';
import { createClient, type FileStat } from 'webdav';
import { LocalWebDavServer } from './local-webdav-server';

describe('LocalWebDavServer with the webdav client', () => {
  const server = new LocalWebDavServer({ username: 'alice', password: 'p@ss word' });

  beforeAll(async () => {
    await server.start();
  });
  afterAll(async () => {
    await server.close();
  });

  it('stores uploads on disk, lists and downloads them', async () => {
    const client = createClient(server.url, { username: 'alice', password: 'p@ss word' });
    await client.createDirectory('/tg-signpulse-backups');
    await client.putFileContents('/tg-signpulse-backups/auto-1.tar.gz', Buffer.from('archive bytes'));
    expect(readFileSync(server.pathOnDisk('tg-signpulse-backups/auto-1.tar.gz'), 'utf8')).toBe('archive bytes');
    const entries = (await client.getDirectoryContents('/tg-signpulse-backups')) as FileStat[];
    expect(entries.map((entry) => [entry.basename, entry.size])).toEqual([['auto-1.tar.gz', 13]]);
    const downloaded = (await client.getFileContents('/tg-signpulse-backups/auto-1.tar.gz')) as Buffer;
    expect(Buffer.from(downloaded).toString()).toBe('archive bytes');
    await client.deleteFile('/tg-signpulse-backups/auto-1.tar.gz');
    expect(existsSync(server.pathOnDisk('tg-signpulse-backups/auto-1.tar.gz'))).toBe(false);
  });

  it('refuses wrong credentials', async () => {
    const client = createClient(server.url, { username: 'alice', password: 'wrong' });
    await expect(client.getDirectoryContents('/')).rejects.toMatchObject({ status: 401 });
  });

  it('serves under a base path and removes its temp folder on close', async () => {
    const nested = new LocalWebDavServer({ basePath: '/remote.php/dav/files/alice' });
    await nested.start();
    const root = nested.rootPath;
    try {
      expect(nested.url).toMatch(/\/remote\.php\/dav\/files\/alice$/);
      const client = createClient(nested.url, { username: nested.username, password: nested.password });
      await client.putFileContents('/x.txt', 'x');
      expect(readFileSync(nested.pathOnDisk('x.txt'), 'utf8')).toBe('x');
    } finally {
      await nested.close();
    }
    expect(existsSync(root)).toBe(false);
  });
});
